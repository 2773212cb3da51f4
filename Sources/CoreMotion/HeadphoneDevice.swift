import MotionEngine
import MotionHAL
import Synchronization

/// The headphones' IMU of this process: a second device, worn on the head, with an engine of its own so
/// it never disturbs the board's IMU (``CMLinuxMotionDevice``).
///
/// It is the device named by `MOTION_HEADPHONE_DEVICE` (any device string: `sim:motion=…`, `i2c:…`,
/// `iio:…`, `replay:…`), mounted as `MOTION_HEADPHONE_MOUNT_MATRIX` says, or the one given to
/// ``CMHeadphoneMotionManager/useLinuxHeadphoneDevice(specification:mountMatrix:sensorLocation:)``. There is
/// no automatic choice: without either, the process has no headphones (the board's own IMU is not worn
/// on a head). `MOTION_HEADPHONE_SENSOR` (`left` or `right`) says which earpiece holds the sensor.
enum HeadphoneDevice {
    /// The headphones' engine.
    static let engine = makeEngine(variables: MotionEngineEnvironment.process.variables)

    /// Which earpiece's sensor the samples come from (``CMDeviceMotion/sensorLocation``).
    static let sensorLocation = Mutex(location(named: MotionEngineEnvironment.process.variables["MOTION_HEADPHONE_SENSOR"]))

    /// An engine reading the headphone variables of `variables` as its own `MOTION_DEVICE` and
    /// `MOTION_MOUNT_MATRIX`; with no headphone device, an engine with no device.
    static func makeEngine(variables: [String: String]) -> MotionEngine {
        var own: [String: String] = [:]
        own["MOTION_DEVICE"] = variables["MOTION_HEADPHONE_DEVICE"].flatMap { $0.isEmpty ? nil : $0 }
        own["MOTION_MOUNT_MATRIX"] = variables["MOTION_HEADPHONE_MOUNT_MATRIX"]
        let engine = MotionEngine(environment: MotionEngineEnvironment(variables: own))
        if own["MOTION_DEVICE"] == nil { engine.setDevice(nil) }
        return engine
    }

    /// The sensor location a `MOTION_HEADPHONE_SENSOR` value names (`.default` for none or another word).
    static func location(named name: String?) -> CMDeviceMotion.SensorLocation {
        switch name?.lowercased() {
        case "left": .headphoneLeft
        case "right": .headphoneRight
        default: .default
        }
    }
}
