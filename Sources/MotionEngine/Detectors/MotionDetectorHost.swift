import MotionFusion
import Synchronization

/// The motion detectors of one device, in its engine (``MotionEngine/detectors``): what CoreMotion's
/// `CMPedometer`, `CMMotionActivityManager` and the Linux motion-event API read, and what the agent's steps,
/// activity, events and states come from.
///
/// One bank of detectors (every detector by default, or ``setDetectors(_:)``'s), with the pedometer's and the
/// activity's history, serves two kinds of client. **Listeners** are told what each delivery brought.
/// **Processors** (``addProcessor(_:frame:detectors:deliver:)``, the agent's events and states) keep a state
/// of their own and are stepped with each sample, the bank's findings in it and the bank after it. The bank
/// runs while a listener or a processor is added, over the attitude filter's SI output
/// (``MotionStream/fusedMotion(_:)``), every sample: in the processors' frame, whose attitude their events
/// carry, else in the frame with no north (the detectors need gravity only, and the two filters' gravities
/// differ only in digits no payload carries). The history is kept across runs, for ``retention`` seconds,
/// but covers only the time the bank ran. Over another ``MotionSource`` (a remote board's), listeners read
/// its device motion in Apple's units, and processors cannot be added.
///
/// Thread safety: every member may be called from any thread; listeners are called on the source's delivery
/// thread, one update at a time, without a lock held, and must return quickly.
public final class MotionDetectorHost: Sendable {
    /// What one batch of samples brought, for listeners.
    public struct Update: Sendable, Equatable {
        /// Events found, oldest first (times on the samples' clock, s since boot).
        public var events: [MotionEvent] = []
        /// States that changed, each with the time of the sample that changed it (s since boot).
        public var states: [(time: Double, state: MotionState)] = []
        /// Steps counted with this batch.
        public var newSteps = 0
        /// The source's fault, when the batch is one (no samples until it recovers).
        public var fault: MotionEngineFault?

        public static func == (lhs: Update, rhs: Update) -> Bool {
            lhs.events == rhs.events && lhs.newSteps == rhs.newSteps && lhs.fault == rhs.fault
                && lhs.states.elementsEqual(rhs.states) { $0.time == $1.time && $0.state == $1.state }
        }
    }

    /// A registered listener; pass it to ``removeListener(_:)``.
    public struct ListenerToken: Sendable, Hashable {
        fileprivate let id: UInt64
    }

    /// The detectors of this process's IMU (``MotionEngine/shared``'s).
    public static var shared: MotionDetectorHost { MotionEngine.shared.detectors }

    /// How long the activity history is kept, s (7 days).
    public let retention = 7 * 86_400.0

    /// Everything the host holds; the delivery path takes its lock for one delivery at a time.
    struct State {
        /// The bank as configured (``setDetectors(_:)``), what ``bank`` starts afresh from.
        var detectors: MotionDetectorBank
        var bank: MotionDetectorBank
        var pedometer = PedometerLedger()
        var activities: [MotionActivityEstimate] = []
        var listeners: [UInt64: @Sendable (Update) -> Void] = [:]
        /// The processors by id, oldest first (they are stepped in that order).
        var processors: [(id: UInt64, slot: any ProcessorSlot)] = []
        var nextID: UInt64 = 0
        /// The subscription feeding the bank.
        var subscription: MotionSubscription?
        /// The one it replaces while the stream changes: its batches still count, samples already seen
        /// through the other are skipped.
        var retiring: MotionSubscription?
        /// Whether the listeners were told of a fault that no sample has ended yet: a new subscription told
        /// the same episode when the stream changes does not tell them twice.
        var isFaulted = false
        var lastSampleTime: Double?
        var samplesAnalysed: UInt64 = 0
    }

    /// The source when the host does not belong to it (another source than an engine, or a test's).
    private let ownSource: (any MotionSource)?
    /// The engine the host belongs to (``MotionEngine/detectors``), which outlives it.
    private unowned let engine: MotionEngine?
    let state: Mutex<State>
    /// Held while the subscription is changed (engine calls included), so that changes happen one at a
    /// time; never taken on the delivery path.
    let subscribing = Mutex(())

    /// Where the samples come from.
    var source: any MotionSource { ownSource ?? engine! }

    /// Creates a host over `source` with the given detectors (default: every one with its defaults). An
    /// engine's own host is ``MotionEngine/detectors``; make one this way for another source.
    /// - Parameters:
    ///   - source: where device motion comes from.
    ///   - detectors: the listeners' detectors; one switched off (nil) finds nothing.
    public init(source: any MotionSource, detectors: MotionDetectorBank = MotionDetectorBank()) {
        ownSource = source
        engine = nil
        state = Mutex(State(detectors: detectors, bank: detectors))
    }

    /// The host of `engine`, held by it.
    init(engine: MotionEngine) {
        ownSource = nil
        self.engine = engine
        let detectors = MotionDetectorBank()
        state = Mutex(State(detectors: detectors, bank: detectors))
    }

    /// Whether the source can give device motion (an accelerometer and a gyroscope).
    public var isAvailable: Bool { source.hasSensors(for: .deviceMotion(.xArbitraryZVertical)) }

    /// Adds a listener and starts the listeners' bank if it was not running.
    /// - Parameter listener: called with each update that brought something, on the source's thread.
    /// - Returns: its token, or nil when the source cannot deliver device motion now.
    public func addListener(_ listener: @escaping @Sendable (Update) -> Void) -> ListenerToken? {
        addListenerWithSnapshot(listener)?.token
    }

    /// What the host knew when a listener was added: what that listener is told first.
    public struct Snapshot: Sendable {
        /// The states then (``currentStates``).
        public var states: [MotionState]
        /// The activity then (nil before the first estimate).
        public var activity: MotionActivityEstimate?
        /// The last sample's time then, s since boot (nil before the first sample).
        public var lastSampleTime: Double?
    }

    /// Adds a listener as ``addListener(_:)`` does, and takes a ``Snapshot`` in the same critical section,
    /// so that what the listener is told first is never newer than its first update.
    /// - Parameter listener: called with each update that brought something, on the source's thread.
    /// - Returns: the token and the snapshot, or nil when the source cannot deliver device motion now.
    public func addListenerWithSnapshot(_ listener: @escaping @Sendable (Update) -> Void) -> (token: ListenerToken, snapshot: Snapshot)? {
        let (token, snapshot) = state.withLock { state -> (ListenerToken, Snapshot) in
            state.nextID += 1
            state.listeners[state.nextID] = listener
            let snapshot = Snapshot(states: state.bank.currentStates, activity: state.activities.last, lastSampleTime: state.lastSampleTime)
            return (ListenerToken(id: state.nextID), snapshot)
        }
        guard updateSubscription() else {
            removeListener(token)
            return nil
        }
        return (token, snapshot)
    }

    /// Removes a listener; the bank stops with the last listener and processor. After it returns the
    /// listener is not called again (except by an update already being delivered).
    public func removeListener(_ token: ListenerToken) {
        state.withLock { _ = $0.listeners.removeValue(forKey: token.id) }
        updateSubscription()
    }

    /// Forgets the pedometer's and the activity's history and starts the detectors afresh (what a user's
    /// "reset" asks for; listeners stay).
    public func forgetHistory() {
        state.withLock { state in
            state.bank = state.detectors
            state.pedometer = PedometerLedger(retention: state.pedometer.retention, capacity: state.pedometer.capacity)
            state.activities = []
            state.lastSampleTime = nil
        }
    }

    /// Replaces the detectors (new thresholds): they start afresh from the next sample; the history, the
    /// listeners and the processors stay.
    /// - Parameter detectors: the new bank.
    public func setDetectors(_ detectors: MotionDetectorBank) {
        state.withLock { state in
            state.detectors = detectors
            state.bank = detectors
        }
    }

    /// The activity that holds now (nil before the first estimate).
    public var currentActivity: MotionActivityEstimate? { state.withLock { $0.activities.last } }

    /// The pedometer's totals between two times on the samples' clock (s since boot).
    public func pedometerTotals(from start: Double, to end: Double) -> PedometerLedger.Totals {
        state.withLock { $0.pedometer.totals(from: start, to: end) }
    }

    /// The time of the oldest step or floor kept, s since boot (nil when none).
    public var oldestPedometerTime: Double? { state.withLock { $0.pedometer.oldestTime } }

    /// The activities since `start` (s since boot), oldest first, with the one that held at `start`.
    public func activities(since start: Double) -> [MotionActivityEstimate] {
        state.withLock { state in
            let later = state.activities.filter { $0.since >= start }
            let before = state.activities.last { $0.since < start }
            return (before.map { [$0] } ?? []) + later
        }
    }

    /// The states as they are now (moving, orientation, tilt, vibration, activity), one per detector.
    public var currentStates: [MotionState] { state.withLock { $0.bank.currentStates } }

    /// The cadence now, steps/s: nil when the last step is over 2 s older than the last sample (standing
    /// still) or there is none.
    public var cadence: Double? {
        state.withLock { state in
            guard let steps = state.bank.steps, let last = state.lastSampleTime, last - steps.lastStep <= 2 else { return nil }
            return steps.cadence
        }
    }

    /// The samples the listeners' bank has analysed since the host was made (a watchdog's measure of
    /// progress).
    public var samplesAnalysed: UInt64 { state.withLock { $0.samplesAnalysed } }

    /// Time of the last sample seen, s since boot.
    public var lastSampleTime: Double? { state.withLock { $0.lastSampleTime } }

    /// Records a floor climbed or descended (the altimeter's ``FloorCounter``), for the pedometer's totals.
    /// - Parameters:
    ///   - time: s since boot.
    ///   - up: climbed rather than descended.
    /// Counted only while walking (a step in the 10 s before), as Apple's floors are "ascended by walking":
    /// an elevator's or a car's climb is no floor.
    /// - Returns: whether it was counted.
    @discardableResult
    public func recordFloor(at time: Double, up: Bool) -> Bool {
        state.withLock { state in
            guard let steps = state.bank.steps, abs(time - steps.lastStep) <= 10 else { return false }
            state.pedometer.recordFloor(at: time, up: up)
            return true
        }
    }
}
