import MotionEngine
import MotionHAL

/// What a ``CMWaterSubmersionManager`` tells its delegate. Every method is optional here (a default that
/// does nothing), so a delegate that implements all four, as Apple's apps do, and one that implements
/// fewer both compile. Called on a serial queue of the manager's own.
///
/// The optional methods are protocol-extension defaults, which Swift dispatches statically: implement them
/// in the class that declares the conformance (a subclass's own implementation is not called), as Apple's
/// `@objc optional` methods, dispatched dynamically, would not require.
public protocol CMWaterSubmersionManagerDelegate: NSObjectProtocol {
    /// The device went under water or came out (and once with the state at the first reading).
    func manager(_ manager: CMWaterSubmersionManager, didUpdate event: CMWaterSubmersionEvent)
    /// A new depth and pressure measurement: three a second under water, one a second at the surface.
    func manager(_ manager: CMWaterSubmersionManager, didUpdate measurement: CMWaterSubmersionMeasurement)
    /// A new water temperature, once a second under water.
    func manager(_ manager: CMWaterSubmersionManager, didUpdate measurement: CMWaterTemperature)
    /// The sensor failed (an `NSError` in ``CMErrorDomain``), once per failure; it is reopened by itself.
    func manager(_ manager: CMWaterSubmersionManager, errorOccurred error: any Error)
}

extension CMWaterSubmersionManagerDelegate {
    /// Does nothing.
    public func manager(_ manager: CMWaterSubmersionManager, didUpdate event: CMWaterSubmersionEvent) {}
    /// Does nothing.
    public func manager(_ manager: CMWaterSubmersionManager, didUpdate measurement: CMWaterSubmersionMeasurement) {}
    /// Does nothing.
    public func manager(_ manager: CMWaterSubmersionManager, didUpdate measurement: CMWaterTemperature) {}
    /// Does nothing.
    public func manager(_ manager: CMWaterSubmersionManager, errorOccurred error: any Error) {}
}

/// Depth, water pressure, surface pressure and water temperature under water (Apple's
/// `CMWaterSubmersionManager`, Apple Watch Ultra's depth gauge), from a pressure sensor made for water on
/// the board: TE's MS5837-30BA or -02BA (`MOTION_WATER_PRESSURE_DEVICE=i2c:/dev/i2c-1@0x76,chip=ms5837`, or
/// ``useLinuxWaterPressureSensor(specification:)``; any barometer string works, within its range).
///
/// As on the watch there is no start method: updates begin when a delegate is set and end when it is
/// cleared (or the manager goes). Depth is computed with EN 13319's water density (1020 kg/m³) from the
/// surface pressure measured before the dive (`WaterSubmersionMonitor` in MotionFusion has the rules);
/// ``maximumDepth`` is Apple's 40 m or less when the sensor's range ends first. Thread safety: every
/// member may be used from any thread; the delegate is called on a serial queue of the manager's own.
open class CMWaterSubmersionManager: NSObject {
    let core = WaterSubmersionCore(sensor: WaterPressureSensor.shared)

    /// Creates a manager.
    public override init() {
        super.init()
        core.delegation.owner = self
    }

    deinit {
        core.stop()
    }

    /// Whether the board has a water pressure sensor.
    open class var waterSubmersionAvailable: Bool { WaterPressureSensor.shared.isAvailable }

    /// The authorization status: always ``CMAuthorizationStatus/authorized`` on Linux (there is no prompt).
    open class var authorizationStatus: CMAuthorizationStatus { .authorized }

    /// The object told of events, measurements, temperatures and errors (held weakly, as Apple's); setting
    /// one starts the updates, clearing it stops them.
    open var delegate: (any CMWaterSubmersionManagerDelegate)? {
        get { core.delegation.delegate }
        set { core.setDelegate(newValue) }
    }

    /// The deepest the device may go: 40 m (Apple's full entitlement), or less when the sensor's rated
    /// pressure ends first; nil without a sensor.
    open var maximumDepth: Measurement<UnitLength>? { core.maximumDepth.map { Measurement(value: $0, unit: .meters) } }

    // MARK: - Linux

    /// The uncertainty reported with each water temperature, °C (2 °C by default). The MS5837's output
    /// has 0.01 °C resolution; its absolute accuracy is the datasheet's, which the board's integrator
    /// should set here.
    open var linuxTemperatureUncertainty: Double {
        get { core.temperatureUncertainty }
        set { core.temperatureUncertainty = newValue }
    }

    /// Opens the sensor named by `specification` (a barometer string such as
    /// `i2c:/dev/i2c-1@0x76,chip=ms5837-30ba`) as the process's water pressure sensor.
    /// - Throws: the specification's or the device's error; the current sensor is then unchanged.
    public static func useLinuxWaterPressureSensor(specification: String) throws {
        let device = try BarometerSpecification(parsing: specification).makeDevice()
        WaterPressureSensor.use(device)
    }

    /// Makes `device` (not started) the process's water pressure sensor; nil: none.
    public static func useLinuxWaterPressureSensor(_ device: (any BarometerDevice)?) {
        WaterPressureSensor.use(device)
    }
}


