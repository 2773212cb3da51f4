import MotionMath

/// The time-based changes of ``IMURecordingVariant``: resampling at another rate and delaying the
/// magnetometer. Each reading stands for the interval around its time (half the median interval either
/// side), so that resampling keeps the readings' timing against the reference: it adds no delay.
struct IMURecordingResampler {
    let recording: IMURecording
    /// Sample times, s from the first.
    private let times: [Double]
    /// Half the recording's sample interval, s.
    private let halfInterval: Double

    init(_ recording: IMURecording) {
        self.recording = recording
        let first = recording.samples.first?.timestamp ?? 0
        times = recording.samples.map { Double($0.timestamp &- first) / 1e9 }
        halfInterval = 0.5 / recording.sampleRate
    }

    /// The recording at `rate` Hz: new samples every 1/`rate` s from the first sample's time while their
    /// whole interval lies inside the recording; each sensor the overlap-weighted mean of the readings
    /// whose intervals overlap the new one, centred on the new time (a sensor with no reading there has
    /// none), the reference interpolated at the new time, the motion flag of the last sample at or before it.
    func resampled(rate: Double) -> IMURecording {
        guard let firstTimestamp = recording.samples.first?.timestamp, let end = times.last else { return recording }
        let interval = 1 / rate
        var samples: [IMUSample] = []
        var references: [SIMD4<Double>?] = []
        var movement: [Bool] = []
        var low = 0  // the first reading whose interval may overlap the window
        var index = 0
        while true {
            let time = Double(index) * interval
            let (start, stop) = (time - interval / 2, time + interval / 2)
            guard stop <= end + halfInterval else { break }
            while low < times.count && times[low] + halfInterval <= start { low += 1 }
            var sums = (gyroscope: WeightedSum(), accelerometer: WeightedSum(), magnetometer: WeightedSum())
            var reading = low
            while reading < times.count && times[reading] - halfInterval < stop {
                let overlap = min(stop, times[reading] + halfInterval) - max(start, times[reading] - halfInterval)
                let sample = recording.samples[reading]
                sums.gyroscope.add(sample.rotationRate, weight: overlap)
                sums.accelerometer.add(sample.acceleration, weight: overlap)
                sums.magnetometer.add(sample.magneticField, weight: overlap)
                reading += 1
            }
            samples.append(
                IMUSample(
                    timestamp: firstTimestamp + UInt64((time * 1e9).rounded()), acceleration: sums.accelerometer.mean,
                    rotationRate: sums.gyroscope.mean, magneticField: sums.magnetometer.mean))
            let before = max(0, (times[low...].firstIndex { $0 > time } ?? times.count) - 1)
            if !recording.referenceAttitudes.isEmpty { references.append(reference(at: time, after: before)) }
            if !recording.movement.isEmpty { movement.append(recording.movement[before]) }
            index += 1
        }
        return IMURecording(samples: samples, referenceAttitudes: references, movement: movement, sampleRate: rate)
    }

    /// The recording with each magnetometer reading replaced by the field `seconds` earlier, interpolated
    /// linearly between the two readings around that time (before the first reading: the first reading, as
    /// a skewed chip would still report a field there).
    func magnetometerDelayed(by seconds: Double) -> IMURecording {
        var earlier = 0
        return recording.mapSamples { sample, index in
            guard sample.magneticField != nil else { return }
            let time = max(times[index] - seconds, 0)
            while earlier + 1 < times.count && times[earlier + 1] <= time { earlier += 1 }
            let later = min(earlier + 1, times.count - 1)
            guard let a = recording.samples[earlier].magneticField, let b = recording.samples[later].magneticField else {
                sample.magneticField = recording.samples[earlier].magneticField
                return
            }
            let span = times[later] - times[earlier]
            let fraction = span > 0 ? (time - times[earlier]) / span : 0
            sample.magneticField = a + (b - a) * fraction
        }
    }

    /// The reference at `time`, between reading `before` and the next (nil when either has none).
    private func reference(at time: Double, after before: Int) -> SIMD4<Double>? {
        let after = min(before + 1, times.count - 1)
        guard let a = recording.referenceAttitudes[before], let b = recording.referenceAttitudes[after] else { return nil }
        let span = times[after] - times[before]
        let fraction = span > 0 ? min(max((time - times[before]) / span, 0), 1) : 0
        let start = Quaternion(w: a[0], x: a[1], y: a[2], z: a[3]).normalized
        let stop = Quaternion(w: b[0], x: b[1], y: b[2], z: b[3]).normalized
        return start.interpolated(to: stop, fraction: fraction).components
    }
}

/// A weighted sum of vectors, for a mean of the readings present.
private struct WeightedSum {
    private var total = SIMD3<Double>.zero
    private var weight = 0.0

    mutating func add(_ value: SIMD3<Double>?, weight: Double) {
        guard let value, value.isFinite, weight > 0 else { return }
        total += value * weight
        self.weight += weight
    }

    /// The weighted mean, or nil without a reading.
    var mean: SIMD3<Double>? { weight > 0 ? total / weight : nil }
}
