import MotionContract
import MotionFusion
import MotionMath

/// The path from the detector bank's findings to the contract's events and states: a short history of
/// attitudes (an event carries the attitude of when it began, which the detector reports only later), the
/// `seq` of `{base}/events`, and the states in force with since when they hold, of the detectors the
/// settings switch on. The bank is the engine's detector host's (``bank(for:bands:)`` configures it); the
/// pipeline is a pure value stepped with each sample, the bank's output for it and the bank after it, on the
/// device's thread under the host's lock.
struct DetectorPipeline: Sendable {
    /// What one delivery brought.
    struct Output: Sendable, Equatable {
        /// The events, in order.
        var events: [MotionEventPayload] = []
        /// The states that changed (the newest per state).
        var states: [MotionStatePayload] = []
    }

    /// The reference frame of the attitudes.
    let frame: AttitudeReferenceFrame
    /// Where the events' and states' Unix times (`ts`) come from.
    let wallClock: WallClockAnchor
    /// The last ``historyLength`` seconds of attitudes.
    private var attitudes = AttitudeHistory()
    /// The `seq` of the last event.
    private(set) var sequence: UInt64
    /// The states in force, by name.
    private(set) var states: [MotionStateName: MotionStatePayload] = [:]
    /// The vibration bands in use, Hz (the configured ones below the Nyquist frequency).
    let bands: [ClosedRange<Double>]

    /// The states published (one per state detector the settings switch on, in the contract's order).
    let stateNames: [MotionStateName]
    /// What the delivery being stepped found so far.
    private var found = Output()
    /// When the vibration levels were last published, s (samples' clock).
    private var levelsPublished = -Double.infinity

    /// How far back an event's start is looked up, s (longer than any event's detection delay).
    static let historyLength = 3.0
    /// How often the vibration state is published again with the current levels, s.
    static let levelInterval = 10.0

    /// Creates the pipeline.
    /// - Parameters:
    ///   - settings: the detectors' settings (validated).
    ///   - sampleRate: the device's sample rate, Hz (vibration bands are kept below 0.45 of it), or nil.
    ///   - frame: the attitudes' reference frame.
    ///   - wallClock: where the Unix times (`ts`) come from (the agent's, which follows the wall clock).
    ///   - sequence: the `seq` of the last event published (the topic's count goes on across restarts of
    ///     the pipeline).
    /// A pipeline whose Unix times use a fixed offset (tests and tools).
    /// - Parameter wallClockOffset: Unix time minus seconds since boot, s.
    init(settings: DetectorSettings, sampleRate: Double?, frame: AttitudeReferenceFrame, wallClockOffset: Double, sequence: UInt64 = 0) {
        self.init(
            settings: settings, sampleRate: sampleRate, frame: frame, wallClock: WallClockAnchor(offset: wallClockOffset),
            sequence: sequence)
    }

    init(
        settings: DetectorSettings, sampleRate: Double?, frame: AttitudeReferenceFrame, wallClock: WallClockAnchor, sequence: UInt64 = 0
    ) {
        self.frame = frame
        self.wallClock = wallClock
        self.sequence = sequence
        bands = VibrationMeter.usableBands(settings.bank.vibration.bands, sampleRate: sampleRate)
        let running = settings.running
        let kept: [MotionStateName: Bool] = [
            .moving: running.isOn(.moving), .orientation: running.isOn(.orientation), .tilt: running.isOn(.tilt),
            .vibration: running.isOn(.vibration) && !bands.isEmpty, .activity: running.isOn(.activity),
        ]
        stateNames = MotionStateName.allCases.filter { kept[$0] == true }
    }

    /// The bank of the engine's detector host while this pipeline runs: the detectors `settings` switch on,
    /// with the pipeline's vibration bands, and rest ↔ motion, the pedometer and the activity classifier
    /// always (the `steps` and `activity` services read them, whether or not their states are published).
    static func bank(for settings: DetectorSettings, bands: [ClosedRange<Double>]) -> MotionDetectorBank {
        var detectors = settings.running
        detectors.switchedOff.subtract([.moving, .activity])
        return MotionDetectorBank(settings: detectors, vibrationBands: bands)
    }

    /// The bank while no pipeline runs: ``bank(for:bands:)`` with every published detector off, so only
    /// what the `steps` and `activity` services read (rest ↔ motion, the pedometer and the activity
    /// classifier, with the configured thresholds).
    static func activityBank(_ settings: DetectorSettings) -> MotionDetectorBank {
        var unpublished = settings
        unpublished.enabled = false
        return bank(for: unpublished, bands: [])
    }

    /// One sample: what the bank found in it and the bank after it.
    mutating func step(_ sample: FusedMotionSample, found bankOutput: MotionDetectorBank.Output, bank: borrowing MotionDetectorBank) {
        attitudes.append(sample.timestamp, sample.attitude)
        for event in bankOutput.events {
            sequence += 1
            found.events.append(MotionEventPayload(
                seq: sequence, type: event.kind, timestamp: event.timestamp, ts: wallClock.unixTime(of: event.timestamp),
                duration: event.duration, magnitude: event.magnitude, attitude: attitudes.attitude(at: event.timestamp), frame: frame.rawValue))
        }
        for state in bankOutput.states where stateNames.contains(state.kind) {
            record(payload(state, at: sample.timestamp, bank: bank), at: sample.timestamp)
        }
        // The first samples give every detector its state (a tilt's reference, an orientation).
        if states.count < stateNames.count {
            for state in bank.currentStates where stateNames.contains(state.kind) {
                let payload = payload(state, at: sample.timestamp, bank: bank)
                if states[payload.name] == nil { record(payload, at: sample.timestamp) }
            }
        }
        if let vibration = states[.vibration], sample.timestamp - levelsPublished >= Self.levelInterval,
            case .vibration(let running?, _, _) = vibration.value
        {
            // The same state since the same time, with the levels now.
            record(payload(.vibrating(running, level: 0), at: vibration.timestamp, bank: bank), at: sample.timestamp)
        }
    }

    /// The end of a delivery: the attitudes older than ``historyLength`` dropped, and what it found.
    mutating func finishDelivery() -> Output? {
        attitudes.dropOlder(than: Self.historyLength)
        defer { found = Output() }
        return found.events.isEmpty && found.states.isEmpty ? nil : found
    }

    /// Makes `state` the one in force and the newest of its kind in what the delivery found.
    private mutating func record(_ state: MotionStatePayload, at time: Double) {
        states[state.name] = state
        found.states.removeAll { $0.name == state.name }
        found.states.append(state)
        if state.name == .vibration { levelsPublished = time }
    }

    private func payload(_ state: MotionState, at timestamp: Double, bank: borrowing MotionDetectorBank) -> MotionStatePayload {
        let value: MotionStatePayload.Value
        switch state {
        case .moving(let moving): value = .moving(moving)
        case .orientation(let orientation): value = .orientation(orientation.rawValue)
        case .tilted(let tilted, let angle): value = .tilt(tilted: tilted, angle: angle * 180 / .pi)
        case .vibrating(let running, _):
            let levels = bank.vibration?.levels ?? []
            value = .vibration(
                running: running, bands: zip(bands, levels).map { .init(low: $0.lowerBound, high: $0.upperBound, rms: $1) }, severity: nil)
        case .activity(let estimate): value = .activity(estimate.activity.rawValue, confidence: estimate.confidence.name)
        }
        // An activity holds since its own start, the others since the sample that changed them.
        let since = if case .activity(let estimate) = state { estimate.since } else { timestamp }
        return MotionStatePayload(value: value, timestamp: since, ts: wallClock.unixTime(of: since))
    }
}

/// The attitudes of the last seconds, oldest first: appended at the end and dropped from the front by
/// moving a start index, the storage compacted once 512 are dropped (at 1 kHz twice a second, so that it
/// holds at most half a second more than the history). A delivery then
/// costs what it adds, not a copy of the whole history (at 1 kHz, 3 s of attitudes moved a hundred times
/// a second were a third of the agent's instructions).
struct AttitudeHistory: Sendable {
    private var entries: [(timestamp: Double, attitude: Quaternion)] = []
    /// The first entry kept.
    private var start = 0

    /// Adds the attitude of a sample (s since boot), after the others.
    mutating func append(_ timestamp: Double, _ attitude: Quaternion) {
        entries.append((timestamp, attitude))
    }

    /// Drops the attitudes more than `seconds` older than the newest, from the oldest on.
    mutating func dropOlder(than seconds: Double) {
        guard let last = entries.last?.timestamp else { return }
        while start < entries.count && last - entries[start].timestamp > seconds { start += 1 }
        if start >= 512 {
            entries.removeFirst(start)
            start = 0
        }
    }

    /// The attitude of the first sample (oldest first) at or after `timestamp`, else the newest; nil when
    /// there is none.
    func attitude(at timestamp: Double) -> Quaternion? {
        let kept = entries[start...]
        return (kept.first { $0.timestamp >= timestamp } ?? kept.last)?.attitude
    }
}
