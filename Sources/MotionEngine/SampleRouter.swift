import MotionFusion
import MotionHAL
import MotionMath
import MotionModel

/// The engine's pure core: takes the device's samples, runs one attitude filter per reference frame in use
/// at the full sensor rate, decimates each decimated subscription to its update interval and collects
/// samples into batches for batched ones, and says what to deliver to whom. No locks, threads or clocks:
/// the ``MotionEngine`` owns one behind its lock and sends the deliveries.
///
/// Decimation uses the sample timestamps with next-due accumulation: a subscription with interval `T`
/// receives the first sample, then the sample nearest each `t₀ + k·T`, so its long-run rate is exactly
/// `1/T` (e.g. 33.3 updates/s at 0.03 s from a 200 Hz device). After a gap longer than `T` the schedule
/// restarts from the next sample.
///
/// Batching also uses the sample timestamps: a batch closes with the sample that makes it span its interval
/// (e.g. 50 samples for 0.25 s at 200 Hz), or, with interval 0, at the end of each device delivery. The
/// arrays are built in the delivery path itself: one sink call per batch, none per sample.
struct SampleRouter {
    /// What the router hands a subscription.
    enum Delivery {
        case sample(MotionSubscription, MotionSample)
        case batch(MotionSubscription, [MotionSample])

        /// Hands the delivery to its subscription's sink.
        func send() {
            switch self {
            case .sample(let subscription, let item): subscription.deliver(item)
            case .batch(let subscription, let items): subscription.deliver(batch: items)
            }
        }
    }

    private struct Entry {
        let subscription: MotionSubscription
        /// Timestamp at which the next sample is due, s; nil before the first (decimated entries).
        var nextDue: Double?
        /// Samples of the open batch (batched entries).
        var pending: [MotionSample] = []
        /// Timestamp of the first sample of the open batch, s.
        var pendingStart: Double = 0
    }

    private var entries: [Entry] = []
    /// One filter per reference frame in use.
    private(set) var fusions: [ReferenceFrameFusion] = []
    /// Rate the device runs at, Hz.
    var sampleRate: Double = 0
    /// Timestamp of the previous sample, s.
    private var previousTimestamp: Double?
    /// Applied to every sample before fusion and the accelerometer stream (nil: raw samples).
    var calibration: IMUCalibration? {
        get { calibrationBox?.calibration }
        set { calibrationBox = newValue.map(CalibrationBox.init) }
    }
    /// ``calibration`` behind a reference: the per-sample path reads it in place, where an optional value
    /// was copied whole (its strings, date and matrices) for every sample.
    private var calibrationBox: CalibrationBox?

    private final class CalibrationBox: Sendable {
        let calibration: IMUCalibration
        init(_ calibration: IMUCalibration) { self.calibration = calibration }
    }

    /// The subscriptions, in the order they were added.
    var subscriptions: [MotionSubscription] { entries.map(\.subscription) }

    /// Whether no subscription is left.
    var isEmpty: Bool { entries.isEmpty }

    /// The attitude filters' tuning: the defaults, with the gyroscope's noise settings from ``calibration``'s
    /// noise part when it has one (filters made before a calibration is set keep theirs until the next
    /// restart).
    var fusionSettings: AttitudeFilter.Settings {
        var settings = AttitudeFilter.Settings()
        if let noise = calibration?.noise { settings.apply(noise) }
        return settings
    }

    /// The grade of ``calibration``'s magnetometer part, reported with the device motion's field.
    var magneticCalibrationAccuracy: MagneticFieldAccuracy? {
        calibrationBox?.calibration.magnetometer.map { Self.accuracy(of: $0.quality) }
    }

    /// The contract's accuracy for a calibration grade.
    static func accuracy(of quality: IMUCalibration.Quality) -> MagneticFieldAccuracy {
        switch quality {
        case .low: .low
        case .medium: .medium
        case .high: .high
        }
    }

    /// Adds a subscription, and the filter of its reference frame if it is the first in that frame.
    /// - Parameter declination: for a new true-north filter, degrees east of true north.
    mutating func add(_ subscription: MotionSubscription, declination: Double?) {
        entries.append(Entry(subscription: subscription))
        if let frame = subscription.service.fusionFrame, !fusions.contains(where: { $0.frame == frame }) {
            fusions.append(ReferenceFrameFusion(frame: frame, declination: declination, settings: fusionSettings))
        }
    }

    /// Removes a subscription (samples of its open batch are dropped) and the filters no one uses any more.
    mutating func remove(_ subscription: MotionSubscription) {
        entries.removeAll { $0.subscription === subscription }
        let framesInUse = entries.compactMap(\.subscription.service.fusionFrame)
        fusions.removeAll { fusion in !framesInUse.contains(fusion.frame) }
    }

    /// Starts over for a new device or run: fresh filters, schedules and batches (open batches are dropped).
    mutating func restart() {
        fusions = fusions.map { ReferenceFrameFusion(frame: $0.frame, declination: $0.declination, settings: fusionSettings) }
        previousTimestamp = nil
        for index in entries.indices {
            entries[index].nextDue = nil
            entries[index].pending = []
        }
    }

    /// Forgets the previous sample's time (a new run of the same device); filters and schedules stay.
    mutating func resetTiming() {
        previousTimestamp = nil
    }

    /// Gives every true-north filter a new declination, degrees east of true north.
    mutating func setDeclination(_ degrees: Double) {
        for index in fusions.indices { fusions[index].declination = degrees }
    }

    /// Routes one device delivery (oldest first): every sample through fusion and the subscriptions, then
    /// the batches of interval 0 close.
    mutating func route(_ samples: [IMUSample]) -> [Delivery] {
        var deliveries: [Delivery] = []
        for sample in samples { process(sample, into: &deliveries) }
        closeBatches(all: false, into: &deliveries)
        return deliveries
    }

    /// Closes the open batches of batched subscriptions: every non-empty one (`all`, before a fault is
    /// reported), or those with interval 0 (one batch per device delivery).
    mutating func closeBatches(all: Bool, into deliveries: inout [Delivery]) {
        for index in entries.indices where !entries[index].pending.isEmpty {
            let subscription = entries[index].subscription
            guard all || subscription.interval <= 0 else { continue }
            deliveries.append(.batch(subscription, entries[index].pending))
            entries[index].pending = []
        }
    }

    /// Runs fusion on one sample, collects the samples due for each decimated subscription and appends
    /// the sample to the open batch of each batched one (closing a batch that now spans its interval).
    private mutating func process(_ sample: IMUSample, into deliveries: inout [Delivery]) {
        let timestamp = Double(sample.timestamp) / 1e9
        let deltaTime = previousTimestamp.map { timestamp - $0 } ?? 0
        previousTimestamp = timestamp
        let calibrated = calibrationBox.map { $0.calibration.apply(to: sample) } ?? sample
        if let gyroscope = calibrated.rotationRate {
            for index in fusions.indices {
                fusions[index].update(
                    gyroscope: gyroscope, accelerometer: calibrated.acceleration,
                    magnetometer: calibrated.magneticField, deltaTime: deltaTime)
            }
        }
        let period = sampleRate > 0 ? 1 / sampleRate : 0
        let halfPeriod = period / 2
        var made = MadeSamples()
        for index in entries.indices {
            // Fields are read one by one: copying the entry would copy its open batch on every append.
            let subscription = entries[index].subscription
            let previousDue = entries[index].nextDue
            if subscription.isBatched {
                let sampleInterval = subscription.sampleInterval
                if sampleInterval > 0, !Self.isDue(timestamp, previousDue, halfPeriod: halfPeriod) { continue }
                guard let item = makeSample(subscription.service, sample, calibrated, timestamp, &made) else { continue }
                if sampleInterval > 0 {
                    entries[index].nextDue = Self.nextDue(after: previousDue, at: timestamp, interval: sampleInterval)
                }
                let interval = subscription.interval
                if entries[index].pending.isEmpty {
                    entries[index].pendingStart = timestamp
                    let expected = interval > 0 && period > 0 ? Int(interval / period) + 1 : 64
                    entries[index].pending.reserveCapacity(min(expected, 8192))
                }
                entries[index].pending.append(item)
                if interval > 0, timestamp - entries[index].pendingStart + period >= interval - halfPeriod {
                    deliveries.append(.batch(subscription, entries[index].pending))
                    entries[index].pending = []
                }
                continue
            }
            if !Self.isDue(timestamp, previousDue, halfPeriod: halfPeriod) { continue }
            guard let item = makeSample(subscription.service, sample, calibrated, timestamp, &made) else { continue }
            entries[index].nextDue = Self.nextDue(after: previousDue, at: timestamp, interval: subscription.interval)
            deliveries.append(.sample(subscription, item))
        }
    }

    /// Whether a sample taken at `timestamp` is the one due at `due` (nil: the first is due): the first
    /// sample no more than half a sensor period before the due time.
    static func isDue(_ timestamp: Double, _ due: Double?, halfPeriod: Double) -> Bool {
        guard let due else { return true }
        return timestamp >= due - halfPeriod
    }

    /// The due time after a sample taken at `timestamp` for the one due at `previousDue`: an interval later
    /// on the schedule, or an interval after the sample when a gap left the schedule behind.
    static func nextDue(after previousDue: Double?, at timestamp: Double, interval: Double) -> Double {
        let nextDue = (previousDue ?? timestamp) + interval
        return nextDue <= timestamp ? timestamp + interval : nextDue
    }

    /// The samples already made for one IMU sample, shared by subscriptions of the same stream. Fixed
    /// slots, so that the per-sample path allocates nothing for the usual one frame.
    private struct MadeSamples {
        var accelerometer: MotionSample?
        var gyroscope: MotionSample?
        var magnetometer: MotionSample?
        /// Device motion in the first frame asked for, and in any others (rarely more than one).
        var deviceMotion: (frame: AttitudeReferenceFrame, item: MotionSample)?
        var otherDeviceMotions: [(frame: AttitudeReferenceFrame, item: MotionSample)] = []

        subscript(stream: MotionStream) -> MotionSample? {
            get {
                switch stream {
                case .accelerometer: accelerometer
                case .gyroscope: gyroscope
                case .magnetometer: magnetometer
                case .deviceMotion(let frame):
                    deviceMotion?.frame == frame ? deviceMotion?.item : otherDeviceMotions.first { $0.frame == frame }?.item
                case .fusedMotion: nil
                }
            }
            set {
                switch stream {
                case .accelerometer: accelerometer = newValue
                case .gyroscope: gyroscope = newValue
                case .magnetometer: magnetometer = newValue
                case .deviceMotion(let frame):
                    guard let newValue else { return }
                    if deviceMotion == nil { deviceMotion = (frame, newValue) } else { otherDeviceMotions.append((frame, newValue)) }
                case .fusedMotion: break  // one subscriber per frame (the detectors): not kept
                }
            }
        }
    }

    /// The sample of `stream` for this IMU sample, or nil if the sample lacks its data (or the filter is
    /// not ready yet). As on Apple's devices, gyroscope and magnetometer data are the raw readings (bias
    /// included) while the accelerometer data and the device motion are calibrated.
    private func makeSample(
        _ stream: MotionStream, _ sample: IMUSample, _ calibrated: IMUSample, _ timestamp: Double,
        _ made: inout MadeSamples
    ) -> MotionSample? {
        if let existing = made[stream] { return existing }
        let item: MotionSample?
        switch stream {
        case .accelerometer:
            item = calibrated.acceleration.map { .vector(VectorSample(timestamp: timestamp, value: -$0 / standardGravity)) }
        case .gyroscope:
            item = sample.rotationRate.map { .vector(VectorSample(timestamp: timestamp, value: $0)) }
        case .magnetometer:
            item = sample.magneticField.map { .vector(VectorSample(timestamp: timestamp, value: $0)) }
        case .deviceMotion(let frame):
            guard calibrated.rotationRate != nil, let accelerometer = calibrated.acceleration,
                let fusion = fusions.firstIndex(where: { $0.frame == frame }), fusions[fusion].isReady
            else { return nil }
            item = .deviceMotion(fusions[fusion].deviceMotion(
                accelerometer: accelerometer, timestamp: timestamp,
                magneticCalibrationAccuracy: magneticCalibrationAccuracy))
        case .fusedMotion(let frame):
            // Under the same conditions as device motion, so that the detectors see the same samples.
            guard calibrated.rotationRate != nil, let accelerometer = calibrated.acceleration,
                let fusion = fusions.firstIndex(where: { $0.frame == frame }), fusions[fusion].isReady
            else { return nil }
            // One subscriber per frame (the detectors): not kept, so not copied into `made` either.
            return .fused(fusions[fusion].fusedSample(accelerometer: accelerometer, timestamp: timestamp))
        }
        if let item { made[stream] = item }
        return item
    }
}
