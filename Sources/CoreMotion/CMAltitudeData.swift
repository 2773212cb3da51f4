import MotionEngine

/// The change in the relative altitude since the altimeter's updates started. Immutable.
open class CMAltitudeData: CMLogItem {
    private let reading: MotionAltimeter.Reading

    init(_ reading: MotionAltimeter.Reading) {
        self.reading = reading
        super.init(timestamp: reading.timestamp)
    }

    /// Creates data of 0 m and 0 kPa at timestamp 0: for subclasses and test doubles, as Apple's `init()` is.
    public override init() {
        reading = MotionAltimeter.Reading(timestamp: 0, relativeAltitude: 0, pressure: 0, temperature: nil, absoluteAltitude: 0)
        super.init(timestamp: 0)
    }

    /// The change in altitude (in meters) since the first reported event.
    open var relativeAltitude: NSNumber { NSNumber(value: reading.relativeAltitude) }
    /// The recorded pressure, in kilopascals.
    open var pressure: NSNumber { NSNumber(value: reading.pressure / 1000) }
}

/// The altitude above sea level. Immutable. From the barometer alone (no GPS): the standard atmosphere's
/// altitude for the configured sea-level pressure.
open class CMAbsoluteAltitudeData: CMLogItem {
    private let reading: MotionAltimeter.Reading
    private let storedAccuracy: Double

    init(_ reading: MotionAltimeter.Reading, accuracy: Double) {
        self.reading = reading
        storedAccuracy = accuracy
        super.init(timestamp: reading.timestamp)
    }

    /// Creates an altitude of 0 m at timestamp 0: for subclasses and test doubles, as Apple's `init()` is.
    public override init() {
        reading = MotionAltimeter.Reading(timestamp: 0, relativeAltitude: 0, pressure: 0, temperature: nil, absoluteAltitude: 0)
        storedAccuracy = 0
        super.init(timestamp: 0)
    }

    /// The absolute altitude of the device in meters relative to sea level.
    open var altitude: Double { reading.absoluteAltitude }
    /// The accuracy of the altitude estimate, in meters: 170 m with the standard sea-level pressure (the
    /// weather moves it by ±20 hPa), 10 m with one set through `MOTION_SEA_LEVEL_PRESSURE`.
    open var accuracy: Double { storedAccuracy }
    /// The precision of the altitude estimate, in meters (the barometer's noise after smoothing).
    open var precision: Double { 0.1 }
}

/// The block type for relative altitude updates: the data (nil on error) and an error in ``CMErrorDomain``.
public typealias CMAltitudeHandler = (CMAltitudeData?, (any Error)?) -> Void

/// The block type for absolute altitude updates: the data (nil on error) and an error in ``CMErrorDomain``.
public typealias CMAbsoluteAltitudeHandler = (CMAbsoluteAltitudeData?, (any Error)?) -> Void
