import MotionVibration
import MotionHAL
import Testing

/// The simulator's rotating machine, with its truth, read by the time-domain velocity meter and judged in
/// ISO 20816's zones (issue 34's "done when" figures, before the vibration service exists).
@Suite struct SimulatedMachineTests {
    @Test func theDeviceStringSetsSpeedAndSeverity() throws {
        guard case .simulated(let configuration) = try IMUDeviceSpecification.parse("sim:motion=machine,rpm=1480,severity=5.0,rate=2000")
        else {
            Issue.record("not the simulator")
            return
        }
        #expect(configuration.motion == .machine(SimulatedMachine(rpm: 1480, severity: 5)))
        #expect(throws: IMUDeviceError.invalidSpecification("option 'rpm' of driver sim needs 'motion=machine'")) {
            try IMUDeviceSpecification.parse("sim:rpm=1480")
        }
        #expect(throws: IMUDeviceError.self) { try IMUDeviceSpecification.parse("sim:motion=machine,severity=-1") }
    }

    @Test func theSharesAddUpAndTheOneTimesLineIsTheRunningSpeed() {
        let machine = SimulatedMachine(rpm: 1480, severity: 5)
        #expect(abs(machine.components.map(\.share).reduce(0, +) - 1) < 1e-12)
        #expect(abs(machine.runningFrequency - 24.667) < 0.001)
        #expect(machine.components.map(\.order).max()! * machine.runningFrequency < 100, "every line below 100 Hz")
    }

    @Test func aClassTwoMachineAtFiveMillimetresASecondReadsFiveAndZoneC() throws {
        let rate = 2000.0
        let device = SimulatedIMU(configuration: .init(sampleRate: rate, motion: .machine(SimulatedMachine(rpm: 1480, severity: 5)), seed: 4))
        var meter = VibrationVelocityMeter()
        for index in 0..<Int(8 * rate) {
            guard let acceleration = device.sample(index: index, sampleRate: rate).acceleration else { continue }
            meter.update(specificForce: acceleration, deltaTime: 1 / rate)
        }
        // The band's low edge takes 2.6 % off the 1× line (two 10 Hz high-passes at 24.7 Hz); within 5 %.
        #expect(abs(meter.vector / 5 - 1) < 0.05, "\(meter.vector) mm/s")
        var severity = VibrationSeverity(limits: try #require(VibrationSeverity.Limits.machineClass(2)))
        #expect(severity.update(velocity: meter.vector) == .c)
    }
}
