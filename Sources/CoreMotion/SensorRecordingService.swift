import Dispatch
import MotionEngine
import Synchronization

/// The process's accelerometer recording into one ``SensorRecordingStore``: while a recording asked for
/// through ``CMSensorRecorder`` runs, a batched subscription to the shared engine takes samples at the
/// policy's rate and commits them once per batch interval. A recording outlives the recorder object and
/// is resumed by the next process that opens the store before its end (a board has no always-on
/// coprocessor: nothing is recorded while no process runs). Thread safety: every method may be called
/// from any thread.
final class SensorRecordingService: Sendable {
    /// The store.
    let store: SensorRecordingStore
    /// Apple's limits.
    let policy: SensorRecordingPolicy
    private let source: any MotionSource
    private let queue = DispatchQueue(label: "CoreMotion.CMSensorRecorder")
    private let state = Mutex<State>(State())

    private struct State {
        var subscription: MotionSubscription?
        var end = 0.0
    }

    /// The service of each store path in this process.
    private static let services = Mutex<[String: SensorRecordingService]>([:])

    /// The one service of `path` in this process, opening the store on first use and resuming a recording
    /// that is still due.
    /// - Throws: ``SQLiteError`` when the store cannot be opened.
    static func shared(path: String, source: any MotionSource = MotionEngine.shared) throws -> SensorRecordingService {
        try services.withLock { services in
            if let service = services[path] { return service }
            let service = SensorRecordingService(store: try SensorRecordingStore(path: path), source: source)
            services[path] = service
            service.resume()
            return service
        }
    }

    /// A service over `store` (tests make their own; the framework uses ``shared(path:source:)``).
    init(store: SensorRecordingStore, policy: SensorRecordingPolicy = SensorRecordingPolicy(), source: any MotionSource) {
        self.store = store
        self.policy = policy
        self.source = source
    }

    /// Whether the source can record the accelerometer now.
    var isAvailable: Bool { source.hasSensors(for: .accelerometer) }

    /// Records for `duration` seconds from now (at most the policy's longest recording); a recording already
    /// running is extended when this one ends later. Returns false when nothing will be recorded.
    @discardableResult
    func record(forDuration duration: Double) -> Bool {
        let now = Date().timeIntervalSince1970
        guard let end = policy.recordingEnd(now: now, duration: duration) else { return false }
        do {
            try store.addRecording(start: now, end: end)
        } catch {
            return false
        }
        return run(until: end)
    }

    /// Resumes the recording the store says is still due.
    func resume() {
        let now = Date().timeIntervalSince1970
        if let end = try? store.recordingEnd(after: now) { run(until: end) }
    }

    /// Whether samples are being recorded now.
    var isRecording: Bool { state.withLock { $0.subscription != nil } }

    @discardableResult
    private func run(until end: Double) -> Bool {
        let subscription = MotionSubscription(service: .accelerometer, interval: policy.batchInterval, sink: .batch { [weak self] _, samples, _ in
            guard let self, let samples else { return }
            self.commit(samples)
        })
        subscription.sampleInterval = 1 / policy.sampleRate
        let started = state.withLock { state -> MotionSubscription? in
            state.end = max(state.end, end)
            guard state.subscription == nil else { return nil }
            state.subscription = subscription
            return subscription
        }
        if let started {
            guard source.subscribe(started) else {
                state.withLock { if $0.subscription === started { $0.subscription = nil } }
                return false
            }
        }
        scheduleStop(at: end)
        return true
    }

    /// Stops the subscription one batch after `end` (plus a margin), so the batch holding the last samples
    /// is committed; samples past `end` are left out when committing.
    private func scheduleStop(at end: Double) {
        let delay = max(0, end - Date().timeIntervalSince1970) + policy.batchInterval + 0.25
        queue.asyncAfter(deadline: .now() + delay) { [weak self] in self?.stopIfDue() }
    }

    private func stopIfDue() {
        let now = Date().timeIntervalSince1970
        let ended = state.withLock { state -> MotionSubscription? in
            guard now >= state.end + policy.batchInterval, let subscription = state.subscription else { return nil }
            state.subscription = nil
            return subscription
        }
        if let ended { source.unsubscribe(ended) }
    }

    /// Stops recording now (the recordings asked for stay in the store; a later process resumes them).
    func stop() {
        let running = state.withLock { state -> MotionSubscription? in
            defer { state.subscription = nil }
            return state.subscription
        }
        if let running { source.unsubscribe(running) }
    }

    private func commit(_ samples: [MotionSample]) {
        let end = state.withLock { $0.end }
        let rows = samples.compactMap { sample -> (date: Double, timestamp: Double, x: Double, y: Double, z: Double)? in
            guard case .vector(let reading) = sample else { return nil }
            let date = BootClock.date(atUptime: reading.timestamp).timeIntervalSince1970
            guard date <= end else { return nil }
            return (date, reading.timestamp, reading.value.x, reading.value.y, reading.value.z)
        }
        guard !rows.isEmpty else { return }
        let now = Date().timeIntervalSince1970
        _ = try? store.append(rows)
        try? store.purge(before: policy.oldestKept(now: now))
    }
}
