import MotionContract
import MotionHAL
import Testing

@testable import MotionAgent

/// What a reload does, decided without an agent.
@Suite struct ReloadPlanTests {
    private let old = AgentConfiguration(deviceID: "a", device: "sim")

    private func states(_ configuration: AgentConfiguration) -> [MotionService: ServiceState] {
        Dictionary(uniqueKeysWithValues: MotionService.allCases.map { ($0, ServiceState(settings: configuration.settings(for: $0))) })
    }

    @Test func anUnchangedConfigurationDoesNothing() {
        let plan = ReloadPlan(from: old, to: old, services: states(old))
        #expect(plan.restartNotes.isEmpty && plan.restartedServices.isEmpty)
        #expect(!plan.reloadsCalibration && !plan.changesMagneticReference)
    }

    @Test func identityDeviceBrokerRecordingAndSparkplugWaitForARestart() throws {
        var new = old
        new.device = "sim:rate=500"
        new.deviceID = "b"
        new.broker.address = try BrokerSettings.address("mqtt://127.0.0.1:1884", fieldPath: "broker.url")
        new.recording = RecordingSettings(file: "/tmp/x.csv", seconds: 10)
        new.homeAssistant.discovery = true
        new.sparkplug = SparkplugSettings(groupID: "plant-1")
        #expect(ReloadPlan(from: old, to: new, services: states(old)).restartNotes == [
            "device changed: restart to apply", "record changed: restart to apply",
            "device_id or topic_prefix changed: restart to apply", "broker settings changed: restart to apply",
            "home_assistant changed: restart to apply", "sparkplug changed: restart to apply",
        ])
    }

    @Test func changedServicesRestartWithTheirNewSettingsAndACommandsStateIsOverridden() {
        var new = old
        new.services[.gyro]?.sampling.interval = 0.5
        var current = states(old)
        current[.magnetometer]?.active = false  // stopped by a command; the file still enables it
        let plan = ReloadPlan(from: old, to: new, services: current)
        #expect(plan.restartedServices.map(\.0) == [.gyro, .magnetometer])
        #expect(plan.restartedServices.first?.1.settings.sampling.interval == 0.5)
        #expect(plan.restartedServices.last?.1.active == true)
    }

    @Test func aNewMountMatrixReopensTheDeviceWithoutARestart() throws {
        var new = old
        new.mountMatrix = try MountMatrix(parsing: "0, 1, 0; -1, 0, 0; 0, 0, 1")
        let plan = ReloadPlan(from: old, to: new, services: states(old))
        #expect(plan.reopensDevice && plan.restartNotes.isEmpty)
        new.device = "sim:rate=500"
        #expect(!ReloadPlan(from: old, to: new, services: states(old)).reopensDevice, "a new device waits for a restart")
    }

    @Test func aRemoteDocumentRestartsOnlyWhatItChangedAndKeepsWhatCommandsDid() {
        var new = old
        new.services[.gyro]?.sampling.interval = 0.5
        var current = states(old)
        current[.magnetometer]?.active = false  // stopped by a command
        let plan = ReloadPlan(from: old, to: new, services: current, keepingCommandedStates: true)
        #expect(plan.restartedServices.map(\.0) == [.gyro])
    }

    @Test func aCalibrationIsReadAgainEvenUnderTheSameName() {
        var calibrated = old
        calibrated.calibration = "/etc/motion/calibration.json"
        #expect(ReloadPlan(from: calibrated, to: calibrated, services: states(old)).reloadsCalibration)
        var located = old
        located.magneticReference = .declination(3)
        #expect(ReloadPlan(from: old, to: located, services: states(old)).changesMagneticReference)
    }
}
