import Dispatch
import MotionEngine
import Synchronization

/// The process's recordings into one ``SensorRecordingStore``: while a recording asked for through
/// ``CMSensorRecorder`` runs, the accelerometer or the gyroscope (a batched subscription to the engine at
/// the policy's rate) or the barometer (a listener on the process's ``MotionAltimeter``, at its own rate)
/// is recorded, one batch committed per batch interval on the service's own queue (never on a device's
/// delivery thread), and samples older than the policy's retention purged at most once a minute.
///
/// A recording outlives the recorder object: the next process that creates a recorder on the store
/// resumes the recordings still due (a board has no always-on coprocessor: nothing is recorded while no
/// process runs). One process records a sensor of a store at a time (``RecordingWriterLock``); another
/// process's request is kept in the store and the recording process extends its recording to it at its
/// next commit. The end of a recording is wall-clock time (the store is shared across restarts), checked
/// again whenever the stop comes due, so a clock that steps back only delays the stop. Thread safety:
/// every method may be called from any thread.
final class SensorRecordingService: Sendable {
    /// The store.
    let store: SensorRecordingStore
    /// Apple's limits.
    let policy: SensorRecordingPolicy
    private let source: any MotionSource
    private let barometer: MotionAltimeter
    private let queue = DispatchQueue(label: "CoreMotion.CMSensorRecorder")
    private let state: Mutex<State>

    /// How often old samples are purged, s.
    static let purgeInterval = 60.0

    /// What feeds a running recording.
    private enum Feed: Sendable {
        case engine(MotionSubscription)
        /// The barometer's listener (nil while it is being added).
        case barometer(MotionAltimeter.ListenerToken?)
    }

    private struct State {
        var feeds: [RecordedSensor: Feed] = [:]
        var ends: [RecordedSensor: Double] = [:]
        var locks: [RecordedSensor: RecordingWriterLock]
        var lastPurge: [RecordedSensor: Double] = [:]
        /// Barometer readings not committed yet (they arrive one delivery at a time, not in batches).
        var pendingPressure: [SensorRecordingStore.Row] = []
    }

    /// The service of each store path in this process.
    private static let services = Mutex<[String: SensorRecordingService]>([:])

    /// The one service of `path` in this process, opening the store on first use (it records nothing
    /// until asked to, or to ``resume()``).
    /// - Parameter creatingDirectory: whether to create the store's directory when the store is opened.
    /// - Throws: ``SQLiteError`` when the store cannot be opened.
    static func shared(path: String, creatingDirectory: Bool = false) throws -> SensorRecordingService {
        try services.withLock { services in
            if let service = services[path] { return service }
            let directory = (path as NSString).deletingLastPathComponent
            if creatingDirectory, !directory.isEmpty {
                try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            }
            let service = SensorRecordingService(store: try SensorRecordingStore(path: path), source: MotionEngine.shared)
            services[path] = service
            return service
        }
    }

    /// Stops the service of `path` and forgets it (its recordings stay in the store).
    static func close(path: String) {
        let service = services.withLock { $0.removeValue(forKey: path) }
        service?.stop()
    }

    /// A service over `store` (tests make their own; the framework uses ``shared(path:)``).
    /// - Parameters:
    ///   - source: the IMU's samples (the shared engine).
    ///   - barometer: the barometer's readings (the process's altimeter).
    init(
        store: SensorRecordingStore, policy: SensorRecordingPolicy = SensorRecordingPolicy(), source: any MotionSource,
        barometer: MotionAltimeter = .shared
    ) {
        self.store = store
        self.policy = policy
        self.source = source
        self.barometer = barometer
        var locks: [RecordedSensor: RecordingWriterLock] = [:]
        for sensor in RecordedSensor.allCases { locks[sensor] = RecordingWriterLock(storePath: store.path, sensor: sensor) }
        state = Mutex(State(locks: locks))
    }

    /// Whether `sensor` can be recorded now.
    func isAvailable(_ sensor: RecordedSensor) -> Bool {
        switch sensor {
        case .accelerometer: source.hasSensors(for: .accelerometer)
        case .rotationRate: source.hasSensors(for: .gyroscope)
        case .pressure: barometer.isAvailable
        }
    }

    /// Records `sensor` for `duration` seconds from now (at most the policy's longest recording); a
    /// recording already running is extended when this one ends later. Returns false when nothing will be
    /// recorded (no such sensor, a duration that is not positive, a store that fails); true also when
    /// another process records the sensor and will extend its recording to this one.
    @discardableResult
    func record(_ sensor: RecordedSensor, forDuration duration: Double) -> Bool {
        let now = Date().timeIntervalSince1970
        guard isAvailable(sensor), let end = policy.recordingEnd(now: now, duration: duration) else { return false }
        do {
            try store.addRecording(of: sensor, start: now, end: end)
        } catch {
            return false
        }
        run(sensor, until: end)
        return true
    }

    /// Resumes the recordings the store says are still due (those whose sensor this process can record).
    func resume() {
        let now = Date().timeIntervalSince1970
        for sensor in RecordedSensor.allCases where isAvailable(sensor) {
            if let end = try? store.recordingEnd(of: sensor, after: now) { run(sensor, until: end) }
        }
    }

    /// Whether this process records `sensor` now.
    func isRecording(_ sensor: RecordedSensor) -> Bool { state.withLock { $0.feeds[sensor] != nil } }

    /// Makes the recording of `sensor` run until at least `end`: starts its feed when this process may
    /// record it (another holds the writer lock: that one extends its recording at its next commit).
    private func run(_ sensor: RecordedSensor, until end: Double) {
        let needsFeed = state.withLock { state -> Bool in
            state.ends[sensor] = max(state.ends[sensor] ?? 0, end)
            guard state.feeds[sensor] == nil else { return false }
            return state.locks[sensor]?.acquire() ?? false
        }
        if needsFeed, !startFeed(for: sensor) {
            state.withLock { $0.locks[sensor]?.release() }
            return
        }
        scheduleStop(of: sensor)
    }

    private func startFeed(for sensor: RecordedSensor) -> Bool {
        switch sensor {
        case .accelerometer, .rotationRate:
            let stream: MotionStream = sensor == .accelerometer ? .accelerometer : .gyroscope
            let subscription = MotionSubscription(service: stream, interval: policy.batchInterval, sink: .batch { [weak self] _, samples, _ in
                if let self, let samples { self.commit(samples, of: sensor) }
            })
            subscription.sampleInterval = 1 / policy.sampleRate
            state.withLock { $0.feeds[sensor] = .engine(subscription) }
            guard source.subscribe(subscription) else {
                state.withLock { $0.feeds[sensor] = nil }
                return false
            }
            return true
        case .pressure:
            // Installed before the listener, so its first readings are kept.
            state.withLock { $0.feeds[.pressure] = .barometer(nil) }
            guard let token = barometer.addListener({ [weak self] update in self?.receive(update) }) else {
                state.withLock { $0.feeds[.pressure] = nil }
                return false
            }
            let installed = state.withLock { state -> Bool in
                guard state.feeds[.pressure] != nil else { return false }
                state.feeds[.pressure] = .barometer(token)
                return true
            }
            if !installed { barometer.removeListener(token) }
            return true
        }
    }

    /// Checks one batch after the recording's end (plus a margin) whether it is over, so the batch holding
    /// the last samples is committed; samples past the end are left out when committing.
    private func scheduleStop(of sensor: RecordedSensor) {
        let end = state.withLock { $0.ends[sensor] ?? 0 }
        let delay = max(0, end - Date().timeIntervalSince1970) + policy.batchInterval + 0.25
        queue.asyncAfter(deadline: .now() + delay) { [weak self] in self?.stopIfDue(sensor) }
    }

    private func stopIfDue(_ sensor: RecordedSensor) {
        let now = Date().timeIntervalSince1970
        let outcome = state.withLock { state -> (ended: Feed?, running: Bool) in
            guard let feed = state.feeds[sensor] else { return (nil, false) }
            guard now >= (state.ends[sensor] ?? 0) + policy.batchInterval else { return (nil, true) }
            state.feeds[sensor] = nil
            return (feed, false)
        }
        if let ended = outcome.ended { finish(ended, of: sensor) }
        // Not due yet (extended, or the wall clock stepped back): look again later.
        if outcome.running { scheduleStop(of: sensor) }
    }

    /// Stops every recording now (the recordings asked for stay in the store; a later process resumes them)
    /// and returns once what was pending is committed and the writer locks are given up.
    func stop() {
        let running = state.withLock { state -> [RecordedSensor: Feed] in
            defer { state.feeds = [:] }
            return state.feeds
        }
        for (sensor, feed) in running { finish(feed, of: sensor) }
        // Waits for the last commits and the locks' release (never called on the queue itself).
        queue.sync {}
    }

    /// Ends a feed already taken out of the state: unsubscribes, commits what is pending, gives the lock up.
    private func finish(_ feed: Feed, of sensor: RecordedSensor) {
        switch feed {
        case .engine(let subscription): source.unsubscribe(subscription)
        case .barometer(let token): if let token { barometer.removeListener(token) }
        }
        let rest = state.withLock { state -> [SensorRecordingStore.Row] in
            guard sensor == .pressure else { return [] }
            defer { state.pendingPressure = [] }
            return state.pendingPressure
        }
        queue.async { [self] in
            save(rest, of: sensor)
            state.withLock { state in
                if state.feeds[sensor] == nil { state.locks[sensor]?.release() }
            }
        }
    }

    private func commit(_ samples: [MotionSample], of sensor: RecordedSensor) {
        let end = state.withLock { $0.ends[sensor] ?? 0 }
        let rows = samples.compactMap { sample -> SensorRecordingStore.Row? in
            guard case .vector(let reading) = sample else { return nil }
            let date = BootClock.date(atUptime: reading.timestamp).timeIntervalSince1970
            guard date <= end else { return nil }
            return (date, reading.timestamp, reading.value.x, reading.value.y, reading.value.z)
        }
        queue.async { [self] in save(rows, of: sensor) }
    }

    /// Keeps the barometer's readings until they span a batch interval, then commits them.
    private func receive(_ update: MotionAltimeter.Update) {
        guard case .readings(let readings) = update else { return }
        let batch = state.withLock { state -> [SensorRecordingStore.Row] in
            guard state.feeds[.pressure] != nil else { return [] }
            let end = state.ends[.pressure] ?? 0
            for reading in readings {
                let date = BootClock.date(atUptime: reading.timestamp).timeIntervalSince1970
                guard date <= end else { continue }
                state.pendingPressure.append((date, reading.timestamp, reading.pressure / 1000, reading.temperature ?? .nan, 0))
            }
            guard let first = state.pendingPressure.first, let last = state.pendingPressure.last,
                last.timestamp - first.timestamp >= policy.batchInterval - 1e-6
            else { return [] }
            defer { state.pendingPressure = [] }
            return state.pendingPressure
        }
        if !batch.isEmpty { queue.async { [self] in save(batch, of: .pressure) } }
    }

    /// Commits `rows` (on ``queue``), extends the recording to what other processes asked for since, and
    /// purges the sensor's old samples when a purge is due.
    private func save(_ rows: [SensorRecordingStore.Row], of sensor: RecordedSensor) {
        let now = Date().timeIntervalSince1970
        if !rows.isEmpty { _ = try? store.append(rows, of: sensor, committed: now) }
        if let end = try? store.recordingEnd(of: sensor, after: now) {
            state.withLock { $0.ends[sensor] = max($0.ends[sensor] ?? 0, end) }
        }
        let purgeDue = state.withLock { state -> Bool in
            guard now - (state.lastPurge[sensor] ?? -.infinity) >= Self.purgeInterval else { return false }
            state.lastPurge[sensor] = now
            return true
        }
        if purgeDue { try? store.purge(sensor, before: policy.oldestKept(now: now)) }
    }
}
