import MotionModel

/// One message of the `steps` service: the pedometer's totals since the service started, with the walk's
/// current cadence and pace, in `CMPedometerData`'s names and units.
public struct PedometerSample: Sendable, Equatable {
    /// When the totals were taken, seconds since boot, s.
    public var timestamp: Double
    /// Steps counted since the service started.
    public var steps: UInt64
    /// Distance walked since the service started, m (an estimate from each step's cadence).
    public var distance: Double
    /// The current cadence, steps/s; nil while standing still (no step for 2 s).
    public var cadence: Double?
    /// The current pace, s/m; nil while standing still.
    public var pace: Double?
    /// Floors climbed by walking since the service started; nil without a barometer.
    public var floorsAscended: UInt64?
    /// Floors descended by walking since the service started; nil without a barometer.
    public var floorsDescended: UInt64?

    /// Creates a sample.
    /// - Parameters:
    ///   - timestamp: seconds since boot, s.
    ///   - steps: steps since the service started.
    ///   - distance: m.
    ///   - cadence: steps/s, nil while standing still.
    ///   - pace: s/m, nil while standing still.
    ///   - floorsAscended: floors up, nil without a barometer.
    ///   - floorsDescended: floors down, nil without a barometer.
    public init(
        timestamp: Double, steps: UInt64, distance: Double, cadence: Double? = nil, pace: Double? = nil,
        floorsAscended: UInt64? = nil, floorsDescended: UInt64? = nil
    ) {
        self.timestamp = timestamp
        self.steps = steps
        self.distance = distance
        self.cadence = cadence
        self.pace = pace
        self.floorsAscended = floorsAscended
        self.floorsDescended = floorsDescended
    }
}

/// One message of the `activity` service: the activity that holds, as `CMMotionActivity` tells it.
public struct ActivitySample: Sendable, Equatable {
    /// When the activity was read, seconds since boot, s.
    public var timestamp: Double
    /// `stationary`, `walking`, `running` or `unknown` (``MotionStatePayload``'s activity names).
    public var activity: String
    /// `low`, `medium` or `high`.
    public var confidence: String
    /// Since when this activity holds, seconds since boot, s.
    public var since: Double

    /// Creates a sample.
    /// - Parameters:
    ///   - timestamp: seconds since boot, s.
    ///   - activity: the activity's name.
    ///   - confidence: `low`, `medium` or `high`.
    ///   - since: seconds since boot, s.
    public init(timestamp: Double, activity: String, confidence: String, since: Double) {
        self.timestamp = timestamp
        self.activity = activity
        self.confidence = confidence
        self.since = since
    }
}

/// One message of the `altitude` service: the barometric altitude as `CMAltitudeData` (and
/// `CMAbsoluteAltitudeData`) tell it.
public struct AltitudeSample: Sendable, Equatable {
    /// When the pressure was measured, seconds since boot, s.
    public var timestamp: Double
    /// Altitude relative to the first reading since the service (or its barometer) started, m.
    public var relativeAltitude: Double
    /// Air pressure, kPa (Apple's unit).
    public var pressure: Double
    /// Altitude in the standard atmosphere for the configured sea-level pressure, m.
    public var absoluteAltitude: Double

    /// Creates a sample.
    /// - Parameters:
    ///   - timestamp: seconds since boot, s.
    ///   - relativeAltitude: m.
    ///   - pressure: kPa.
    ///   - absoluteAltitude: m.
    public init(timestamp: Double, relativeAltitude: Double, pressure: Double, absoluteAltitude: Double) {
        self.timestamp = timestamp
        self.relativeAltitude = relativeAltitude
        self.pressure = pressure
        self.absoluteAltitude = absoluteAltitude
    }
}

extension PedometerSample: TimestampedSample {}
extension ActivitySample: TimestampedSample {}
extension AltitudeSample: TimestampedSample {}

extension MotionActivityConfidence {
    /// The contract's name of a confidence: `low`, `medium` or `high`.
    public var name: String {
        switch self {
        case .low: "low"
        case .medium: "medium"
        case .high: "high"
        }
    }
}
