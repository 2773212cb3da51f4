import MotionEngine
import MotionHAL
import Synchronization

/// The process's water pressure sensor: the barometer `MOTION_WATER_PRESSURE_DEVICE` names, run like the
/// altimeter's (a sensor that fails or goes is started again every 2 s), counting no floors, its pressure
/// smoothed over 0.2 s only (an MS5837 resolves 2 mm of water; 1 s would put a diver descending at 1 m/s a
/// metre behind); and the surface pressure last learned from it, which every manager of the process
/// starts from (a manager created or restarted during a dive does not take the water for the air).
enum WaterPressureSensor {
    static let shared = MotionAltimeter(
        specification: MotionEngineEnvironment.processVariables()["MOTION_WATER_PRESSURE_DEVICE"], variable: "MOTION_WATER_PRESSURE_DEVICE",
        smoothingTime: 0.2)

    /// The surface pressure last learned, Pa; nil before the first reading.
    static let surfacePressure = Mutex<Double?>(nil)

    /// Makes `device` (not started) the sensor; the surface is learned anew from it.
    static func use(_ device: (any BarometerDevice)?) {
        surfacePressure.withLock { $0 = nil }
        shared.setDevice(device)
    }
}
