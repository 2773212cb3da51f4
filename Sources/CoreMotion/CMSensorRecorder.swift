import Foundation
import Synchronization

/// Records the accelerometer at 50 Hz for later (Apple's `CMSensorRecorder`): ask for up to 12 hours with
/// ``recordAccelerometer(forDuration:)``, and read any 12 hours of the last 3 days with
/// ``accelerometerData(from:to:)``.
///
/// On Linux the samples go to a SQLite file that survives restarts of the program: the path given to
/// ``useLinuxStore(atPath:)``, else `MOTION_SENSOR_RECORDER_STORE`, else
/// `$XDG_STATE_HOME/motionbridge/sensor-recorder.sqlite` (`~/.local/state/…` without `XDG_STATE_HOME`), the
/// per-user state directory standing in for the system's own store on Apple's devices. A recording runs
/// while a process that uses the store runs (a board has no always-on coprocessor): one that is still due
/// is resumed when the next process creates a recorder. Samples are committed once a second (Apple: within
/// 3 minutes). Thread safety: every method may be called from any thread.
open class CMSensorRecorder: NSObject {
    /// Creates a recorder, resuming the recordings of the store that are still due.
    public override init() {
        super.init()
        Self.service()?.resume()
    }

    /// Whether accelerometer recording is available: the device has an accelerometer and the store opens.
    open class func isAccelerometerRecordingAvailable() -> Bool {
        service()?.isAvailable(.accelerometer) ?? false
    }

    /// The authorization status: always ``CMAuthorizationStatus/authorized`` on Linux (there is no prompt).
    open class func authorizationStatus() -> CMAuthorizationStatus { .authorized }

    /// Whether the app may record: true on Linux.
    @available(*, deprecated, renamed: "authorizationStatus()")
    open class func isAuthorizedForRecording() -> Bool { true }

    /// The samples recorded in (fromDate, toDate]; nil when the span is empty, reversed or longer than
    /// 12 hours, or the store cannot be opened.
    open func accelerometerData(from fromDate: Date, to toDate: Date) -> CMSensorDataList? {
        Self.list(of: .accelerometer, from: fromDate, to: toDate)
    }

    /// Records the accelerometer at 50 Hz from now for `duration` seconds (at most 12 hours). A recording
    /// already running goes on until the later of the two ends. Does nothing for a duration that is not
    /// positive, without an accelerometer or when the store cannot be opened.
    open func recordAccelerometer(forDuration duration: TimeInterval) {
        Self.service()?.record(.accelerometer, forDuration: duration)
    }

    // MARK: - Linux: the gyroscope and the barometer

    /// Linux only: whether the gyroscope can be recorded (the device has one and the store opens).
    public class func isLinuxRotationRateRecordingAvailable() -> Bool { service()?.isAvailable(.rotationRate) ?? false }

    /// Linux only: whether the barometer can be recorded (`MOTION_BAROMETER` names one and the store opens).
    public class func isLinuxPressureRecordingAvailable() -> Bool { service()?.isAvailable(.pressure) ?? false }

    /// Linux only: records the gyroscope at 50 Hz as ``recordAccelerometer(forDuration:)`` records the
    /// accelerometer (at most 12 hours a call, kept 3 days).
    public func linuxRecordRotationRate(forDuration duration: TimeInterval) {
        Self.service()?.record(.rotationRate, forDuration: duration)
    }

    /// Linux only: records the barometer at its own rate (the pressure smoothed as the altimeter's, and
    /// the temperature), as ``recordAccelerometer(forDuration:)`` records the accelerometer.
    public func linuxRecordPressure(forDuration duration: TimeInterval) {
        Self.service()?.record(.pressure, forDuration: duration)
    }

    /// Linux only: the gyroscope samples recorded in (fromDate, toDate], each a ``CMRecordedRotationRateData``;
    /// nil as for ``accelerometerData(from:to:)``.
    public func linuxRotationRateData(from fromDate: Date, to toDate: Date) -> CMSensorDataList? {
        Self.list(of: .rotationRate, from: fromDate, to: toDate)
    }

    /// Linux only: the barometer readings recorded in (fromDate, toDate], each a ``CMRecordedPressureData``;
    /// nil as for ``accelerometerData(from:to:)``.
    public func linuxPressureData(from fromDate: Date, to toDate: Date) -> CMSensorDataList? {
        Self.list(of: .pressure, from: fromDate, to: toDate)
    }

    private static func list(of sensor: RecordedSensor, from fromDate: Date, to toDate: Date) -> CMSensorDataList? {
        let from = fromDate.timeIntervalSince1970, to = toDate.timeIntervalSince1970
        guard let service = service(), service.policy.allowsQuery(from: from, to: to) else { return nil }
        return CMSensorDataList(query: .init(store: service.store, sensor: sensor, from: from, to: to))
    }

    // MARK: - Linux

    private static let configuredPath = Mutex<String?>(nil)

    /// Keeps this process's recordings in the SQLite file at `path` (created if needed; its directory must
    /// exist), instead of `MOTION_SENSOR_RECORDER_STORE` or the per-user default.
    /// - Throws: the store's error when the file cannot be opened or is not a recording store.
    public static func useLinuxStore(atPath path: String) throws {
        _ = try SensorRecordingService.shared(path: path)
        let previous = configuredPath.withLock { current -> String? in
            defer { current = path }
            return current
        }
        // The previous store's recordings stop here (they stay in it, for a later process to resume).
        if let previous, previous != path { SensorRecordingService.close(path: previous) }
    }

    /// The path of this process's store.
    public static var linuxStorePath: String {
        if let path = configuredPath.withLock({ $0 }) { return path }
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["MOTION_SENSOR_RECORDER_STORE"], !path.isEmpty { return path }
        let state = environment["XDG_STATE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (NSHomeDirectory() as NSString).appendingPathComponent(".local/state")
        return (state as NSString).appendingPathComponent("motionbridge/sensor-recorder.sqlite")
    }

    /// The service of the current store (its directory created when the store is first opened); nil when
    /// it cannot be opened.
    static func service() -> SensorRecordingService? {
        try? SensorRecordingService.shared(path: linuxStorePath, creatingDirectory: true)
    }
}
