import MotionMath

/// What a hardware driver checks before it delivers samples: readings that are not numbers are dropped,
/// readings at the end of a sensor's range are saturated (the true value may be larger). Both are
/// reported as ``IMUDeviceError/readFailed(_:)``: a dropped sample each time, a saturation once per episode
/// (an episode ends after a second without saturation). Saturated samples are kept: the fusion can still use
/// the other sensors' values.
public struct IMUSampleScreen: Sendable {
    /// Full scale per sensor, from the device's info: m/s², rad/s, µT.
    private let ranges: (acceleration: Double?, rotationRate: Double?, magneticField: Double?)
    /// Time of the last saturated sample, ns; `nil` outside an episode.
    private var lastSaturation: UInt64?

    /// How close to full scale counts as saturated: 99.9 % of the range.
    public static let saturationFraction = 0.999

    /// Creates a screen for a device.
    /// - Parameter info: the device's description; sensors without a range are only checked for numbers.
    public init(info: IMUDeviceInfo) {
        ranges = (info.accelerometerRange, info.gyroscopeRange, info.magnetometerRange)
    }

    /// The samples fit to deliver and the fault to report with them, if any.
    /// - Parameter samples: a driver's batch.
    public mutating func screen(_ samples: [IMUSample]) -> (samples: [IMUSample], fault: IMUDeviceError?) {
        var kept: [IMUSample] = []
        kept.reserveCapacity(samples.count)
        var dropped = 0
        var saturated: [String] = []
        for sample in samples {
            guard Self.isFinite(sample.acceleration), Self.isFinite(sample.rotationRate),
                Self.isFinite(sample.magneticField)
            else {
                dropped += 1
                continue
            }
            kept.append(sample)
            let sensors = [
                ("accelerometer", sample.acceleration, ranges.acceleration),
                ("gyroscope", sample.rotationRate, ranges.rotationRate),
                ("magnetometer", sample.magneticField, ranges.magneticField),
            ]
            let saturatedNow = sensors.compactMap { name, value, range -> String? in
                guard let value, let range else { return nil }
                return Self.largestComponent(value) >= Self.saturationFraction * range ? name : nil
            }
            guard !saturatedNow.isEmpty else { continue }
            let startsEpisode = lastSaturation.map { sample.timestamp >= $0 + 1_000_000_000 } ?? true
            if startsEpisode { saturated = saturatedNow }
            lastSaturation = sample.timestamp
        }
        if dropped > 0 {
            return (kept, .readFailed("\(dropped) sample\(dropped == 1 ? "" : "s") with values that are not numbers dropped"))
        }
        if !saturated.isEmpty {
            return (kept, .readFailed("\(saturated.joined(separator: " and ")) saturated (reading at full scale)"))
        }
        return (kept, nil)
    }

    private static func isFinite(_ value: SIMD3<Double>?) -> Bool {
        guard let value else { return true }
        return value.x.isFinite && value.y.isFinite && value.z.isFinite
    }

    private static func largestComponent(_ value: SIMD3<Double>) -> Double {
        max(abs(value.x), abs(value.y), abs(value.z))
    }
}
