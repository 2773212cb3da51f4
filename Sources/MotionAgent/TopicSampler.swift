import MotionMath

/// Down-samples one topic's stream of sensor samples to the topic's own rate, mode, deadband and batching,
/// using only the samples' timestamps (no clock): feed it every sample, publish what it returns.
///
/// **Windows.** The timeline is cut into windows of ``TopicSamplingSettings/interval`` `T`: window `k`
/// holds the samples with timestamp in `[origin + kT, origin + (k+1)T)`. The origin is half a sensor
/// period (at most `T/2`) before the first sample, measured from the first two samples, so that due times
/// fall between samples: a sensor as fast as the requested rate, with timestamp jitter below a sixth of
/// its period, gets each of its samples published once instead of losing some to windows that hold two.
///
/// **Modes.** ``SamplingMode/latest`` publishes the first sample of each new window the moment it arrives
/// (the sample nearest the due time `origin + kT`); the due times stay on the grid, so the long-run rate
/// is exactly `1/T` (1 kHz samples with `T` = 0.03 s give 33.33 values/s). ``SamplingMode/mean`` publishes
/// the ``DownsampledValue/mean(of:)`` of a window, stamped with the mean of its timestamps, when the
/// first sample of a later window arrives. A sensor slower than `1/T` has every sample published once. An
/// outage leaves windows empty, and empty windows publish nothing: there is no burst afterwards.
/// A sample more than one interval older than the current window means the timeline restarted (a new
/// device or clock): the pending window is published and the grid starts again from that sample.
///
/// **Deadband, heartbeat, batching.** Each down-sampled value then passes the deadband (published only if
/// its ``DownsampledValue/distance(to:)`` from the last published value exceeds the deadband, or the
/// heartbeat's seconds of sample time have passed since), and published values are grouped into messages
/// of ``TopicSamplingSettings/batchSize`` values.
public struct TopicSampler<Value: DownsampledValue>: Sendable {
    /// The settings this sampler applies (validated).
    public let settings: TopicSamplingSettings

    /// The first sample's timestamp since the start or the last reset, s; `nil` before any sample.
    private var firstTimestamp: Double?
    /// The start of window 0, s; `nil` until the second distinct timestamp fixes the sensor's period.
    private var windowOrigin: Double?
    /// The index of the window being filled (mean) or last published from (latest); kept as a `Double`
    /// (an integer value) so that no timestamp can overflow it.
    private var currentWindow = 0.0
    /// The samples of the current window (mean mode only).
    private var windowSamples: [Value] = []
    /// The last value that passed the deadband, the reference for the next one.
    private var lastPublished: Value?
    /// Published values waiting for their batch to fill.
    private var pendingBatch: [Value] = []

    /// Creates a sampler.
    /// - Parameter settings: the topic's settings.
    /// - Throws: ``ConfigurationError`` from ``TopicSamplingSettings/validate(fieldPrefix:)`` when the
    ///   settings cannot be used.
    public init(settings: TopicSamplingSettings) throws(ConfigurationError) {
        try settings.validate()
        self.settings = settings
        pendingBatch.reserveCapacity(settings.batchSize)
    }

    /// Takes the next samples (in timestamp order) and returns the messages now ready to publish, oldest
    /// first, each an array of ``TopicSamplingSettings/batchSize`` values (1 without batching). Samples
    /// with a non-finite timestamp are ignored.
    /// - Parameter samples: the sensor's new samples.
    /// - Returns: the ready messages; often none.
    public mutating func add(_ samples: [Value]) -> [[Value]] {
        var ready: [[Value]] = []
        for sample in samples { add(sample, into: &ready) }
        return ready
    }

    /// Takes one sample; like ``add(_:)`` with an array.
    /// - Parameter sample: the sensor's next sample.
    /// - Returns: the ready messages; often none.
    public mutating func add(_ sample: Value) -> [[Value]] {
        var ready: [[Value]] = []
        add(sample, into: &ready)
        return ready
    }

    /// Ends the stream (for example when the service stops): returns the pending window's value (mean
    /// mode) and the partly filled batch as a last, shorter message, then ``reset()``s. The deadband still
    /// applies to the pending window's value.
    /// - Returns: at most one message.
    public mutating func flush() -> [[Value]] {
        var ready: [[Value]] = []
        publishPendingWindow(into: &ready)
        if !pendingBatch.isEmpty { ready.append(pendingBatch) }
        reset()
        return ready
    }

    /// Forgets every sample, window, deadband reference and pending batch: the next sample starts afresh.
    public mutating func reset() {
        firstTimestamp = nil
        windowOrigin = nil
        currentWindow = 0
        windowSamples.removeAll(keepingCapacity: true)
        lastPublished = nil
        pendingBatch.removeAll(keepingCapacity: true)
    }

    private mutating func add(_ sample: Value, into ready: inout [[Value]]) {
        let time = sample.timestamp
        guard time.isFinite else { return }
        let interval = settings.interval
        guard let first = firstTimestamp else {
            start(with: sample, into: &ready)
            return
        }
        let origin: Double
        if let windowOrigin {
            origin = windowOrigin
        } else {
            let period = time - first
            guard period > 0 else {
                if period < -interval {
                    restartTimeline(with: sample, into: &ready)
                } else if settings.mode == .mean {
                    windowSamples.append(sample)  // same timestamp as the first: same window
                }
                return
            }
            origin = first - min(period, interval) / 2
            windowOrigin = origin
        }

        let window = ((time - origin) / interval).rounded(.down)
        if window > currentWindow {
            switch settings.mode {
            case .latest:
                offer(sample, into: &ready)
            case .mean:
                publishPendingWindow(into: &ready)
                windowSamples.append(sample)
            }
            currentWindow = window
        } else if time >= origin + (currentWindow - 1) * interval {
            // The current window, or a sample slightly out of order: it belongs to the window being filled.
            if settings.mode == .mean { windowSamples.append(sample) }
        } else {
            restartTimeline(with: sample, into: &ready)
        }
    }

    /// Takes the first sample of a timeline: it opens window 0 (and is published at once in latest mode).
    private mutating func start(with sample: Value, into ready: inout [[Value]]) {
        firstTimestamp = sample.timestamp
        windowOrigin = nil
        currentWindow = 0
        switch settings.mode {
        case .latest: offer(sample, into: &ready)
        case .mean: windowSamples = [sample]
        }
    }

    /// Publishes the pending window, forgets the grid and the deadband reference (their times belong to
    /// the old timeline) and starts again from `sample`; the partly filled batch is kept.
    private mutating func restartTimeline(with sample: Value, into ready: inout [[Value]]) {
        publishPendingWindow(into: &ready)
        lastPublished = nil
        start(with: sample, into: &ready)
    }

    /// Offers the mean of the window being filled, if it has samples, and empties it.
    private mutating func publishPendingWindow(into ready: inout [[Value]]) {
        guard !windowSamples.isEmpty else { return }
        offer(Value.mean(of: windowSamples), into: &ready)
        windowSamples.removeAll(keepingCapacity: true)
    }

    /// Applies the deadband and heartbeat to a down-sampled value, then batches it.
    private mutating func offer(_ value: Value, into ready: inout [[Value]]) {
        if let deadband = settings.deadband, let last = lastPublished {
            // A NaN distance is not "within" the deadband: it is published.
            let changed = !(value.distance(to: last) <= deadband)
            // A relative tolerance so that n intervals add up to a heartbeat despite rounding.
            let heartbeatDue = settings.heartbeat.map { heartbeat in
                value.timestamp - last.timestamp >= heartbeat * (1 - 1e-9)
            } ?? false
            guard changed || heartbeatDue else { return }
        }
        lastPublished = value
        guard settings.batchSize > 1 else {
            ready.append([value])  // no pending batch: it would be copied out and reallocated each time
            return
        }
        pendingBatch.append(value)
        if pendingBatch.count >= settings.batchSize {
            ready.append(pendingBatch)
            pendingBatch.removeAll(keepingCapacity: true)
        }
    }
}
