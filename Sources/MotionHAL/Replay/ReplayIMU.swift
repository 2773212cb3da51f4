import Dispatch
import Synchronization

/// A recorded session played back as a live device (`replay:PATH`): the recorded values exactly, at the
/// recorded rate, in batches of 10 ms like a FIFO, with timestamps of `CLOCK_MONOTONIC` counted from the
/// start (sample k at `start + t_k`). With ``loop`` the recording starts over after its last sample, its
/// timestamps continuing one sample period later. With ``asFastAsPossible`` a 10 ms batch follows every
/// 0.1 ms, about 100 times real time (timestamps as in real time: offline processing through CoreMotion).
public final class ReplayIMU: IMUDevice {
    /// What the device is: driver `replay`, the file name as chip, the recorded sensors, exactly the
    /// recorded rate.
    public let info: IMUDeviceInfo
    /// The recording played back.
    public let recording: IMURecording
    /// Whether playback starts over after the last sample (otherwise the device falls silent).
    public let loop: Bool
    /// Whether batches are delivered back to back instead of at the recorded pace.
    public let asFastAsPossible: Bool

    /// Duration of one pass, ns: the recording plus one sample period, so a loop keeps the sample spacing.
    private let passLength: UInt64
    private let queue = DispatchQueue(label: "MotionHAL.ReplayIMU", target: IMUDeliveryQueue.root)
    private let state = Mutex<Run?>(nil)
    /// What stamps the samples and runs the deliveries.
    private let time: DeviceTime

    /// One run between `start` and `stop`.
    private struct Run {
        var clock: DeliveryClock
        var start: UInt64
        var nextIndex: Int
        /// How many times the recording has been played through.
        var pass: UInt64
        var handler: @Sendable (IMUDeviceEvent) -> Void
    }

    /// Plays `recording` back.
    /// - Parameters:
    ///   - recording: at least two samples, at a rate inside ``IMURecording/sampleRateRange`` (as
    ///     ``IMURecording/load(contentsOf:)`` guarantees).
    ///   - name: what ``IMUDeviceInfo/chip`` shows (the file name).
    ///   - loop: start over after the last sample.
    ///   - asFastAsPossible: deliver without waiting for the recorded pace.
    ///   - time: what stamps the samples and runs the deliveries (the monotonic clock and a thread by default).
    public init(
        recording: IMURecording, name: String, loop: Bool = false, asFastAsPossible: Bool = false, time: DeviceTime = .monotonic
    ) {
        self.time = time
        self.recording = recording
        self.loop = loop
        self.asFastAsPossible = asFastAsPossible
        precondition(
            recording.samples.count >= 2 && IMURecording.sampleRateRange.contains(recording.sampleRate),
            "ReplayIMU needs two samples or more at \(IMURecording.sampleRateRange) Hz")
        passLength = (recording.samples.last?.timestamp ?? 0) + UInt64((1e9 / recording.sampleRate).rounded())
        var sensors: IMUSensors = []
        if recording.samples.first?.acceleration != nil { sensors.insert(.accelerometer) }
        if recording.samples.first?.rotationRate != nil { sensors.insert(.gyroscope) }
        if recording.samples.first?.magneticField != nil { sensors.insert(.magnetometer) }
        info = IMUDeviceInfo(
            driver: "replay", chip: name, sensors: sensors,
            supportedSampleRates: recording.sampleRate...recording.sampleRate, defaultSampleRate: recording.sampleRate)
    }

    /// Opens the recording at `path` (see ``IMURecording``).
    /// - Throws: ``IMUDeviceError/unavailable(_:)`` with the reader's reason.
    public convenience init(
        path: String, loop: Bool = false, asFastAsPossible: Bool = false, time: DeviceTime = .monotonic
    ) throws(IMUDeviceError) {
        let recording: IMURecording
        do {
            recording = try IMURecording.load(contentsOf: path)
        } catch {
            throw .unavailable("cannot replay: \(error.description)")
        }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        self.init(recording: recording, name: name, loop: loop, asFastAsPossible: asFastAsPossible, time: time)
    }

    /// Starts playback from the first sample.
    /// - Throws: ``IMUDeviceError/unsupportedSampleRate(_:)`` for any rate but the recorded one (±0.1 %),
    ///   ``IMUDeviceError/alreadyRunning``.
    public func start(sampleRate: Double, handler: @escaping @Sendable (IMUDeviceEvent) -> Void) throws {
        guard abs(sampleRate - recording.sampleRate) <= 0.001 * recording.sampleRate else {
            throw IMUDeviceError.unsupportedSampleRate(sampleRate)
        }
        try state.withLock { (run) throws(IMUDeviceError) in
            guard run == nil else { throw .alreadyRunning }
            let start = time.now()
            // As fast as possible, the clock ticks every 0.1 ms: the consumer sets the pace.
            let clock = DeliveryClock(interval: asFastAsPossible ? 100_000 : 10_000_000, start: start, time: time) { [weak self] in
                guard let self else { return }
                self.queue.sync { self.deliverDueSamples() }
            }
            run = Run(clock: clock, start: start, nextIndex: 0, pass: 0, handler: handler)
        }
    }

    /// Stops playback; no event is delivered after it returns (unless called from the handler itself).
    public func stop() {
        let clock = state.withLock { run -> DeliveryClock? in
            defer { run = nil }
            return run?.clock
        }
        guard let clock else { return }
        clock.cancel()
        if !IMUDeliveryQueue.isCurrent { queue.sync {} }
    }

    /// On the queue: every sample whose replay time has come, with its timestamp moved to the run (as fast
    /// as possible: the next 10 ms of the recording, whatever the time).
    private func deliverDueSamples() {
        let now = asFastAsPossible ? fastForwardHorizon() : time.now()
        let samples = recording.samples
        guard !samples.isEmpty else { return }
        let due = state.withLock { run -> ([IMUSample], (@Sendable (IMUDeviceEvent) -> Void)?) in
            guard var current = run else { return ([], nil) }
            var batch: [IMUSample] = []
            while true {
                if current.nextIndex == samples.count {
                    guard loop else { break }
                    current.nextIndex = 0
                    current.pass += 1
                }
                var sample = samples[current.nextIndex]
                sample.timestamp += current.start + current.pass * passLength
                guard sample.timestamp <= now else { break }
                batch.append(sample)
                current.nextIndex += 1
            }
            run = current
            return (batch, current.handler)
        }
        guard let handler = due.1, !due.0.isEmpty else { return }
        handler(.samples(due.0))
    }

    /// As fast as possible: the replay time 10 ms past the next undelivered sample.
    private func fastForwardHorizon() -> UInt64 {
        state.withLock { run -> UInt64 in
            guard let run, !recording.samples.isEmpty else { return 0 }
            let index = min(run.nextIndex, recording.samples.count - 1)
            let pass = run.nextIndex == recording.samples.count && loop ? run.pass + 1 : run.pass
            let offset = run.nextIndex == recording.samples.count && loop ? 0 : recording.samples[index].timestamp
            return run.start + pass * passLength + offset + 10_000_000
        }
    }
}
