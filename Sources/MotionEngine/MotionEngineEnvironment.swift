#if canImport(Glibc)
import Glibc
#endif
import MotionFusion
import MotionHAL
import MotionLog
import MotionMath
import MotionSupervision

/// What a ``MotionEngine`` takes from its surroundings: the environment variables it reads on first use
/// (`MOTION_DEVICE`, `MOTION_MOUNT_MATRIX`, `MOTION_CALIBRATION`, `MOTION_DECLINATION`, `MOTION_LOCATION`)
/// and its two clocks. The process's own for the shared engine; a test injects fixed ones.
public struct MotionEngineEnvironment: Sendable {
    /// The variables, by name.
    public var variables: [String: String]
    /// Nanoseconds on the clock the devices stamp their samples with (`CLOCK_MONOTONIC`); for the
    /// delivery rate and the stall watchdog.
    public var monotonicNanoseconds: @Sendable () -> UInt64
    /// Seconds since 1970-01-01T00:00:00Z, for the World Magnetic Model's date.
    public var unixTime: @Sendable () -> Double
    /// Where the device `auto` (the default without `MOTION_DEVICE`) looks for the IMU the kernel offers:
    /// the kernel's sysfs, or a fake tree in tests.
    public var iioDiscovery: IIODeviceDiscovery
    /// Where the engine's own detail goes (a failed start's retry, a stall, a reopen; debug lines, since
    /// faults reach every subscription). The process's handler by default.
    public var logger = Logger(label: "engine")
    /// The clock of the start retries' back-off and the stall checks: the process's monotonic time and
    /// Dispatch's timers, or a test's manual clock (then set ``monotonicNanoseconds`` from it too, since a
    /// stall is measured on that clock).
    public var clock: any SupervisionClock = DispatchSupervisionClock()

    /// Creates an environment.
    /// - Parameters:
    ///   - variables: environment variables by name.
    ///   - monotonicNanoseconds: the sample clock, ns.
    ///   - unixTime: the wall clock, s since 1970.
    ///   - iioDiscovery: where `auto` looks for an IIO IMU.
    public init(
        variables: [String: String] = [:],
        monotonicNanoseconds: @escaping @Sendable () -> UInt64 = { MonotonicClock.now() },
        unixTime: @escaping @Sendable () -> Double = { WallClock.unixTime() },
        iioDiscovery: IIODeviceDiscovery = IIODeviceDiscovery()
    ) {
        self.variables = variables
        self.monotonicNanoseconds = monotonicNanoseconds
        self.unixTime = unixTime
        self.iioDiscovery = iioDiscovery
    }

    /// The process's environment and clocks.
    public static var process: MotionEngineEnvironment {
        MotionEngineEnvironment(variables: processVariables())
    }

    /// The process's environment variables now, by name (`environ`; of a name given twice, the first).
    public static func processVariables() -> [String: String] {
        var variables: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                let name = String(text[..<equals])
                if variables[name] == nil { variables[name] = String(text[text.index(after: equals)...]) }
            }
            entry += 1
        }
        return variables
    }

    // MARK: - What the environment chooses (read the first time the engine needs it)

    /// The device `MOTION_DEVICE` names, turned by `MOTION_MOUNT_MATRIX`; without the first, the IMU the
    /// kernel offers (`auto`, found through ``iioDiscovery``). Nil when it cannot be opened, and when the
    /// mount matrix cannot be parsed (wrong axes would be worse than none).
    func device() -> (any IMUDevice)? {
        let specification = value("MOTION_DEVICE") ?? "auto"
        let mountMatrix = variables["MOTION_MOUNT_MATRIX"].map { try? MountMatrix(parsing: $0) } ?? .identity
        guard let mountMatrix, let device = try? IMUDeviceSpecification.open(specification, detectingIn: iioDiscovery) else {
            return nil
        }
        return mountMatrix == .identity ? device : MountedIMU(device, mountMatrix: mountMatrix)
    }

    /// The calibration in the file `MOTION_CALIBRATION` names; nil without one, or when it cannot be read.
    func calibration() -> IMUCalibration? {
        guard let path = variables["MOTION_CALIBRATION"], !path.isEmpty else { return nil }
        return try? IMUCalibration.load(contentsOf: path)
    }

    /// The magnetic declination, degrees east of true north: `MOTION_DECLINATION`, else the World Magnetic
    /// Model's at `MOTION_LOCATION` (`latitude,longitude[,altitude m]`) and ``unixTime``; nil without either
    /// (or with a value out of range).
    func declination() -> Double? {
        if let text = value("MOTION_DECLINATION") { return GeodeticLocation.validDeclination(Double(text)) }
        guard let text = value("MOTION_LOCATION"), let location = try? GeodeticLocation(parsing: text) else { return nil }
        return WorldMagneticModel.wmm2025.declination(at: location, unixTime: unixTime())
    }

    /// The value of `name` with blanks around it removed, or nil when unset or empty.
    func value(_ name: String) -> String? {
        guard let text = variables[name] else { return nil }
        let trimmed = text.trimmingBlanks()
        return trimmed.isEmpty ? nil : String(trimmed)
    }
}
