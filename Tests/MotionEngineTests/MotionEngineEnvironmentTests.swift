#if canImport(Glibc)
import Glibc
#endif
import MotionEngine
import MotionHAL
import Testing

/// The `MOTION_DEVICE` fallback, on private engines given their environment (the process's is not touched,
/// so these run in parallel with everything else).
@Suite struct MotionEngineEnvironmentTests {
    private func engine(_ variables: [String: String]) -> MotionEngine {
        MotionEngine(environment: MotionEngineEnvironment(variables: variables))
    }

    @Test func motionDeviceVariableChoosesTheDevice() {
        let info = engine(["MOTION_DEVICE": " sim:rate=500,motion=stationary "]).deviceInfo
        #expect(info?.driver == "sim")
        #expect(info?.defaultSampleRate == 500)
    }

    @Test func withoutTheVariableOrAnIIOIMUThereIsNoDevice() throws {
        // An empty sysfs tree (never the host's, which may have an IMU).
        var template = Array("/tmp/no-iio-XXXXXX".utf8CString)
        let root = try #require(mkdtemp(&template).map { String(cString: $0) })
        defer { rmdir(root) }
        let environment = MotionEngineEnvironment(variables: [:], iioDiscovery: IIODeviceDiscovery(sysfsRoot: root, deviceDirectory: root))
        #expect(MotionEngine(environment: environment).deviceInfo == nil)
    }

    @Test func anInvalidSpecificationMeansNoDevice() {
        #expect(engine(["MOTION_DEVICE": "sim:rate=fast"]).deviceInfo == nil)
    }

    @Test func mountMatrixVariableTurnsTheDevicesAxes() {
        let turned = engine(["MOTION_DEVICE": "sim:motion=stationary", "MOTION_MOUNT_MATRIX": "0, 1, 0; -1, 0, 0; 0, 0, 1"])
        #expect(turned.deviceInfo?.chip.hasSuffix("(mount matrix 0, 1, 0; -1, 0, 0; 0, 0, 1)") == true)
        // Wrong axes would be worse than none: an unreadable matrix means no device.
        #expect(engine(["MOTION_DEVICE": "sim", "MOTION_MOUNT_MATRIX": "0, 1, 0; -1, 0, 0"]).deviceInfo == nil)
    }

    @Test func declinationComesFromTheVariableOrTheLocationAtTheEnvironmentsDate() {
        #expect(engine(["MOTION_DECLINATION": "3.5"]).magneticDeclination == 3.5)
        #expect(engine(["MOTION_DECLINATION": "200"]).magneticDeclination == nil)
        // Berlin on 2026-12-01 (WMM2025): about 5.2° east; the wall clock is the environment's.
        let berlin = MotionEngine(environment: MotionEngineEnvironment(
            variables: ["MOTION_LOCATION": "52.52,13.40,34"], unixTime: { 1_796_083_200 }))
        let declination = berlin.magneticDeclination
        #expect(declination.map { (4.9...5.6).contains($0) } == true, "\(String(describing: declination))")
        #expect(engine(["MOTION_LOCATION": "95,0"]).magneticDeclination == nil)
    }

    @Test("the process's variables are read from environ as the C library sees them")
    func processVariablesAreTheEnvironment() {
        let variables = MotionEngineEnvironment.processVariables()
        for name in ["PATH", "HOME"] {
            #expect(variables[name] == getenv(name).map { String(cString: $0) }, "\(name)")
        }
        #expect(variables.count > 0 && !variables.keys.contains { $0.isEmpty || $0.contains("=") })
        #expect(MotionEngineEnvironment.process.variables == variables)
    }
}
