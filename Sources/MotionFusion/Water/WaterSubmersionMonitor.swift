import MotionMath

/// Depth under water from a pressure sensor made for water, and whether the device is submerged: what
/// CoreMotion's `CMWaterSubmersionManager` reports. Pure value fed each reading; pressures in Pa, depths in
/// m, times in s.
///
/// - **Surface pressure**: while the device is at the surface (not submerged and less than
///   ``Settings/surfaceTrackingDepth`` below the estimate), the air pressure low-passed over
///   ``Settings/surfaceSmoothingTime`` (weather changes it by a few hPa a day; a wave or a hand over the
///   sensor only for a moment). It stays fixed below that, so a slow descent is not taken for weather.
/// - **Depth**: (p − p_surface) / (ρ · g₀) with ρ = ``Settings/waterDensity``, 1020 kg/m³ by default, the
///   density EN 13319 fixes for diving depth gauges (between fresh water's 1000 and sea water's 1025: a
///   gauge set for it reads 2 % deep in fresh water and 0.5 % shallow in the sea).
/// - **Submersion** (Apple's `submerged` / `notSubmerged` events) with hysteresis: submerged once the depth
///   reaches ``Settings/submergeDepth`` (0.25 m), surfaced when it falls below ``Settings/surfaceDepth``
///   (0.1 m), so the ripple of a sensor at the surface does not chatter.
/// - **Depth state**: shallow below 1 m, deep from 1 m (Apple's boundaries), approaching the maximum
///   depth within ``Settings/approachingMargin`` of it, past it beyond it, and a sensor error for a
///   reading that is not a number or lies outside the sensor's rated range.
public struct WaterSubmersionMonitor: Sendable {
    /// The monitor's constants.
    public struct Settings: Sendable, Equatable {
        /// Water density for depth, kg/m³ (EN 13319: 1020).
        public var waterDensity = 1020.0
        /// Depth at which the device counts as submerged, m.
        public var submergeDepth = 0.25
        /// Depth below which a submerged device counts as surfaced, m.
        public var surfaceDepth = 0.1
        /// Depth from which the device is deep rather than shallow, m (Apple: 1 m).
        public var deepDepth = 1.0
        /// The deepest the device may be used, m (Apple's full entitlement: 40 m; the sensor may allow
        /// less).
        public var maximumDepth = 40.0
        /// How far above the maximum depth the device is approaching it, m; at most a tenth of that depth
        /// (a 1.9 m sensor approaches its end from 1.7 m, not from the surface).
        public var approachingMargin = 2.0
        /// Time constant of the surface pressure's low-pass, s.
        public var surfaceSmoothingTime = 10.0
        /// Depth below the surface estimate beyond which the estimate stops following the pressure, m: the
        /// low-pass lags a descent at v m/s by v · ``surfaceSmoothingTime``, so the estimate must stop
        /// well before ``submergeDepth`` or a slow descent drags it along.
        public var surfaceTrackingDepth = 0.03

        /// The defaults.
        public init() {}
    }

    /// Apple's depth states (`CMWaterSubmersionMeasurement.DepthState`).
    public enum DepthState: Sendable, Equatable {
        case notSubmerged, submergedShallow, submergedDeep, approachingMaxDepth, pastMaxDepth, sensorDepthError
    }

    /// One measurement.
    public struct Measurement: Sendable, Equatable {
        /// When, s.
        public var timestamp: Double
        /// Depth, m; nil when not submerged or the reading is unusable.
        public var depth: Double?
        /// The water's pressure, Pa; nil when not submerged or the reading is unusable.
        public var pressure: Double?
        /// The surface air pressure, Pa.
        public var surfacePressure: Double
        /// The depth state.
        public var state: DepthState
    }

    /// The monitor's constants.
    public let settings: Settings
    /// The sensor's rated pressure range, Pa.
    public let sensorRange: ClosedRange<Double>
    /// The surface pressure, Pa (the standard atmosphere's until the first reading).
    public private(set) var surfacePressure = BarometricFormula.standardPressure
    /// Whether the device is submerged.
    public private(set) var isSubmerged = false
    private var lastTimestamp: Double?

    /// Whether the surface pressure is known (given, or learned from a first reading at the surface).
    private var surfaceKnown: Bool

    /// A monitor for a sensor rated for `sensorRange` Pa.
    /// - Parameter surfacePressure: the surface pressure already known (a previous monitor's on the same
    ///   sensor), Pa; nil to learn it from the first reading, which then counts as the surface unless it is
    ///   more than a metre of water above the standard atmosphere (a device started under water: the
    ///   standard atmosphere is then taken for the surface).
    public init(sensorRange: ClosedRange<Double>, settings: Settings = Settings(), surfacePressure: Double? = nil) {
        self.sensorRange = sensorRange
        self.settings = settings
        if let surfacePressure {
            self.surfacePressure = surfacePressure
        }
        surfaceKnown = surfacePressure != nil
    }

    /// The deepest the device may go: the settings' maximum, or less when the sensor's range ends first, m.
    public var maximumDepth: Double {
        min(settings.maximumDepth, depth(of: sensorRange.upperBound, below: BarometricFormula.standardPressure))
    }

    private func depth(of pressure: Double, below surface: Double) -> Double {
        (pressure - surface) / (settings.waterDensity * BarometricFormula.standardGravity)
    }

    /// Feeds one reading.
    /// - Returns: the measurement, and the new submersion (true: submerged) when it changed.
    public mutating func update(pressure: Double, timestamp: Double) -> (measurement: Measurement, submersionChange: Bool?) {
        // Beyond the sensor's rated end while under water: past the maximum depth, not a sensor fault.
        if isSubmerged, pressure.isFinite, timestamp.isFinite, pressure > sensorRange.upperBound {
            lastTimestamp = timestamp
            return (Measurement(timestamp: timestamp, depth: nil, pressure: nil, surfacePressure: surfacePressure, state: .pastMaxDepth), nil)
        }
        guard pressure.isFinite, timestamp.isFinite, sensorRange.contains(pressure) else {
            let measurement = Measurement(
                timestamp: timestamp, depth: nil, pressure: nil, surfacePressure: surfacePressure, state: .sensorDepthError)
            return (measurement, nil)
        }
        let interval = lastTimestamp.map { max(0, timestamp - $0) }
        lastTimestamp = timestamp
        if !surfaceKnown {
            surfaceKnown = true
            let underWater = depth(of: pressure, below: BarometricFormula.standardPressure) > 1
            surfacePressure = underWater ? BarometricFormula.standardPressure : pressure
        }
        // The surface pressure follows the air only near the surface, so a slow descent does not drag it down.
        if !isSubmerged, depth(of: pressure, below: surfacePressure) < settings.surfaceTrackingDepth {
            if let interval, settings.surfaceSmoothingTime > 0 {
                let weight = interval / (settings.surfaceSmoothingTime + interval)
                surfacePressure += weight * (pressure - surfacePressure)
            }
        }
        let depth = depth(of: pressure, below: surfacePressure)
        var change: Bool?
        if !isSubmerged, depth >= settings.submergeDepth {
            isSubmerged = true
            change = true
        } else if isSubmerged, depth < settings.surfaceDepth {
            isSubmerged = false
            change = false
        }
        guard isSubmerged else {
            return (Measurement(timestamp: timestamp, depth: nil, pressure: nil, surfacePressure: surfacePressure, state: .notSubmerged), change)
        }
        let margin = min(settings.approachingMargin, maximumDepth / 10)
        let state: DepthState =
            depth > maximumDepth ? .pastMaxDepth
            : depth >= maximumDepth - margin ? .approachingMaxDepth
            : depth >= settings.deepDepth ? .submergedDeep : .submergedShallow
        return (Measurement(timestamp: timestamp, depth: max(0, depth), pressure: pressure, surfacePressure: surfacePressure, state: state), change)
    }
}
