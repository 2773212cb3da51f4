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

    /// Archives the data: `timestamp`, `relativeAltitude` (m) and `pressure` (Pa).
    open override func encode(with coder: NSCoder) {
        super.encode(with: coder)
        coder.encodeReading(reading)
    }

    /// Reads archived data; nil when a value is missing.
    public required init?(coder: NSCoder) {
        guard let reading = MotionAltimeter.Reading(coder: coder) else { return nil }
        self.reading = reading
        super.init(coder: coder)
    }
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

    /// Archives the data: `timestamp`, `altitude` (m), `accuracy` (m) and the reading's `pressure` (Pa).
    open override func encode(with coder: NSCoder) {
        super.encode(with: coder)
        coder.encodeReading(reading)
        coder.encode(storedAccuracy, forKey: "accuracy")
    }

    /// Reads archived data; nil when a value is missing.
    public required init?(coder: NSCoder) {
        guard let reading = MotionAltimeter.Reading(coder: coder), let accuracy = coder.decodeRequiredDouble(forKey: "accuracy") else {
            return nil
        }
        self.reading = reading
        storedAccuracy = accuracy
        super.init(coder: coder)
    }
}

extension NSCoder {
    /// Writes a barometer reading's values: `relativeAltitude`, `altitude` (m), `pressure` (Pa) and, when
    /// known, `temperature` (°C).
    fileprivate func encodeReading(_ reading: MotionAltimeter.Reading) {
        encode(reading.relativeAltitude, forKey: "relativeAltitude")
        encode(reading.absoluteAltitude, forKey: "altitude")
        encode(reading.pressure, forKey: "pressure")
        encodeIfPresent(reading.temperature, forKey: "temperature")
    }
}

extension MotionAltimeter.Reading {
    /// The reading an archive holds (its `timestamp` and the values above); nil when one is missing.
    fileprivate init?(coder: NSCoder) {
        guard let timestamp = coder.decodeRequiredDouble(forKey: "timestamp"),
            let relative = coder.decodeRequiredDouble(forKey: "relativeAltitude"),
            let altitude = coder.decodeRequiredDouble(forKey: "altitude"), let pressure = coder.decodeRequiredDouble(forKey: "pressure")
        else { return nil }
        self.init(
            timestamp: timestamp, relativeAltitude: relative, pressure: pressure, temperature: coder.decodeRequiredDouble(forKey: "temperature"),
            absoluteAltitude: altitude)
    }
}

/// The block type for relative altitude updates: the data (nil on error) and an error in ``CMErrorDomain``.
public typealias CMAltitudeHandler = (CMAltitudeData?, (any Error)?) -> Void

/// The block type for absolute altitude updates: the data (nil on error) and an error in ``CMErrorDomain``.
public typealias CMAbsoluteAltitudeHandler = (CMAbsoluteAltitudeData?, (any Error)?) -> Void
