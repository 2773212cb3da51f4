import Dispatch
import MotionEngine
import MotionLog
import MotionSupervision
import MotionTestSupport
import Testing

/// The engine's start retries on a manual clock: the back-off's times exactly, without waiting, and the
/// debug lines the engine logs through its injected logger (the fault itself reaches every subscription).
@Suite struct MotionEngineSupervisionTests {
    struct Engine {
        let clock = ManualClock()
        let capture = CapturingLogHandler()
        /// Where the engine reports faults: the test waits on it after advancing the clock.
        let supervisionQueue = DispatchQueue(label: "test.supervision")
        let engine: MotionEngine

        /// An engine whose supervision clock and sample clock are both the manual clock.
        init() {
            var environment = MotionEngineEnvironment()
            environment.logger = Logger(label: "engine", handler: capture, minimumPriority: .debug)
            environment.clock = clock
            environment.monotonicNanoseconds = { [clock] in clock.nanoseconds }
            engine = MotionEngine(environment: environment, supervisionQueue: supervisionQueue)
        }

        /// Moves both clocks on and lets the faults found on the way reach the subscribers.
        func advance(by seconds: Double) {
            clock.advance(by: seconds)
            supervisionQueue.sync {}
        }
    }

    @Test func aFailedStartIsRetriedAfterHalfASecondThenASecondWithTheRetriesLogged() throws {
        let test = Engine()
        let device = ScriptedIMU(sampleRate: 200, failingStarts: 2)
        test.engine.setDevice(device)
        let faults = CallRecorder<MotionEngineFault>()
        let subscription = MotionSubscription(service: .accelerometer, interval: 0.01) { _, _, fault in
            if let fault { faults.append(fault) }
        }
        #expect(test.engine.subscribe(subscription))
        defer { test.engine.unsubscribe(subscription) }
        #expect(device.startAttempts == 1 && test.clock.pendingDelays == [0.5])
        test.clock.advance(by: 0.499)
        #expect(device.startAttempts == 1)
        test.clock.advance(by: 0.001)
        #expect(device.startAttempts == 2 && test.clock.pendingDelays == [1])
        test.clock.advance(by: 1)
        // No retry pending: only the stall watchdog's check, every 0.25 s.
        #expect(device.startAttempts == 3 && device.isRunning && test.clock.pendingDelays == [0.25])
        #expect(faults.count == 1, "the failed starts are one fault episode")
        #expect(test.capture.messages(.debug) == ["device test script: starting again in 0.5 s", "device test script: starting again in 1.0 s"])
        #expect(test.capture.records.allSatisfy { $0.label == "engine" })
    }

    @Test func theLastSubscriberLeavingOrANewDeviceAbandonsTheRetries() throws {
        let test = Engine()
        let failing = ScriptedIMU(sampleRate: 200, failingStarts: 100)
        test.engine.setDevice(failing)
        let subscription = MotionSubscription(service: .gyroscope, interval: 0.01) { _, _, _ in }
        _ = test.engine.subscribe(subscription)
        test.clock.advance(by: 0.5 + 1 + 2)
        #expect(failing.startAttempts == 4 && test.clock.pendingDelays == [4], "0.5, 1, 2, then 4 s")
        test.engine.unsubscribe(subscription)
        test.clock.advance(by: 60)
        #expect(failing.startAttempts == 4, "no retry without a subscriber")
        // Back with a subscriber: the back-off starts over; a new device replaces the retries.
        _ = test.engine.subscribe(subscription)
        #expect(failing.startAttempts == 5 && test.clock.pendingDelays == [0.5])
        let working = ScriptedIMU(sampleRate: 200)
        test.engine.setDevice(working)
        test.clock.advance(by: 60)
        #expect(failing.startAttempts == 5 && working.startCount == 1 && working.isRunning)
        test.engine.unsubscribe(subscription)
    }

    @Test func aStallIsReportedOnceAfterFiveDeliveryIntervalsAndHalfASecondAndClearsWithData() throws {
        let test = Engine()
        let device = ScriptedIMU(sampleRate: 200)
        test.engine.setDevice(device)
        let faults = CallRecorder<MotionEngineFault>()
        let samples = CallRecorder<Double>()
        let subscription = MotionSubscription(service: .accelerometer, interval: 0) { _, sample, fault in
            if let fault { faults.append(fault) }
            if case .vector(let reading)? = sample { samples.append(reading.timestamp) }
        }
        #expect(test.engine.subscribe(subscription))
        defer { test.engine.unsubscribe(subscription) }
        // 0.3 s of deliveries every 10 ms (the last at 0.29 s), then silence. The watchdog looks every
        // 0.25 s from the start; the threshold is 5 × 10 ms + 0.5 s = 0.55 s of silence.
        var next: UInt64 = 1_000_000_000
        for _ in 0..<30 {
            device.emit(.samples(device.restingSamples(count: 2, from: next)))
            next += 10_000_000
            test.advance(by: 0.01)
        }
        test.advance(by: 0.75 - 0.3)
        #expect(faults.count == 0 && test.engine.diagnostics.lastFault == nil, "0.46 s of silence is no stall")
        test.advance(by: 0.25)
        #expect(faults.count == 1, "found by the check at 1.0 s, after 0.71 s of silence")
        #expect(test.engine.diagnostics.lastFault == "read failed: no samples for 0.7 s")
        // A longer silence is the same episode.
        test.advance(by: 60)
        #expect(faults.count == 1 && test.engine.diagnostics.faultsSeen == 1)
        // Samples again: the fault clears and data flows.
        let before = samples.count
        device.emit(.samples(device.restingSamples(count: 4, from: next)))
        #expect(test.engine.diagnostics.lastFault == nil)
        #expect(samples.count == before + 4)
        test.advance(by: 0.25)
        #expect(faults.count == 1)
    }

    /// A subscription to `service`, batched per delivery, that records the faults it is told.
    private static func faultRecorder(_ service: MotionStream) -> (MotionSubscription, CallRecorder<MotionEngineFault>) {
        let faults = CallRecorder<MotionEngineFault>()
        let subscription = MotionSubscription(service: service, interval: 0) { _, _, fault in
            if let fault { faults.append(fault) }
        }
        return (subscription, faults)
    }

    @Test func aSubscriberWhoJoinsDuringAFaultIsToldAtOnceWhoJoinsAfterItIsNot() throws {
        let test = Engine()
        let device = ScriptedIMU(sampleRate: 200)
        test.engine.setDevice(device)
        let (first, firstFaults) = Self.faultRecorder(.accelerometer)
        #expect(test.engine.subscribe(first))
        defer { test.engine.unsubscribe(first) }
        device.emit(.samples(device.restingSamples(count: 2)))
        device.emit(.fault(.readFailed("bus timeout")))
        let told = try #require(firstFaults.all.first)
        #expect(told == MotionEngineFault(.unknown, "The motion device failed: read failed: bus timeout"))

        // The device is down when the gyroscope joins: it hears so in `subscribe`, as the first did.
        let (second, secondFaults) = Self.faultRecorder(.gyroscope)
        #expect(test.engine.subscribe(second))
        defer { test.engine.unsubscribe(second) }
        #expect(secondFaults.all == [told])
        #expect(firstFaults.count == 1 && test.engine.diagnostics.faultsSeen == 1, "one episode, told once to each")

        // Samples end the episode: a subscriber who joins now is told nothing, the next fault reaches all.
        device.emit(.samples(device.restingSamples(count: 2, from: 2_000_000_000)))
        let (third, thirdFaults) = Self.faultRecorder(.magnetometer)
        #expect(test.engine.subscribe(third))
        defer { test.engine.unsubscribe(third) }
        #expect(thirdFaults.count == 0)
        device.emit(.fault(.readFailed("FIFO overflow")))
        #expect(firstFaults.count == 2 && secondFaults.count == 2 && thirdFaults.count == 1)
    }

    @Test func aFaultEndsWithItsRunOrItsDeviceAndTheNextRunsFaultIsReported() throws {
        let test = Engine()
        let device = ScriptedIMU(sampleRate: 200)
        test.engine.setDevice(device)
        let (subscription, faults) = Self.faultRecorder(.accelerometer)
        #expect(test.engine.subscribe(subscription))
        device.emit(.fault(.readFailed("bus timeout")))
        #expect(faults.count == 1 && test.engine.diagnostics.lastFault == "read failed: bus timeout")

        // Everyone who was told left: the next run starts healthy and reports its own first fault.
        test.engine.unsubscribe(subscription)
        #expect(test.engine.diagnostics.lastFault == nil)
        let (again, againFaults) = Self.faultRecorder(.accelerometer)
        #expect(test.engine.subscribe(again))
        #expect(againFaults.count == 0 && device.startCount == 2)
        device.emit(.fault(.readFailed("bus timeout")))
        #expect(againFaults.count == 1)

        // A new device does not inherit the old one's fault: its own first fault is reported.
        let replacement = ScriptedIMU(sampleRate: 200)
        test.engine.setDevice(replacement)
        #expect(test.engine.diagnostics.lastFault == nil && replacement.isRunning)
        replacement.emit(.fault(.readFailed("bus timeout")))
        #expect(againFaults.count == 2 && test.engine.diagnostics.faultsSeen == 3)
        test.engine.unsubscribe(again)
    }

    @Test func aSubscriberWhoJoinsWhileStartsFailIsToldTheDeviceIsNotAvailable() throws {
        let test = Engine()
        let device = ScriptedIMU(sampleRate: 200, failingStarts: 100)
        test.engine.setDevice(device)
        let (first, firstFaults) = Self.faultRecorder(.accelerometer)
        #expect(test.engine.subscribe(first), "a device that fails to start keeps its subscriptions")
        defer { test.engine.unsubscribe(first) }
        let (second, secondFaults) = Self.faultRecorder(.gyroscope)
        #expect(test.engine.subscribe(second))
        defer { test.engine.unsubscribe(second) }
        #expect(device.startAttempts == 2, "the second subscriber tries a start too")
        #expect(firstFaults.count == 1 && secondFaults.all == firstFaults.all)
        #expect(secondFaults.all.first?.kind == .notAvailable)
    }

    @Test func aNewcomerWhoseStartSucceedsIsNotToldTheFailedStarts() throws {
        let test = Engine()
        let device = ScriptedIMU(sampleRate: 200, failingStarts: 1)
        test.engine.setDevice(device)
        let (first, firstFaults) = Self.faultRecorder(.accelerometer)
        #expect(test.engine.subscribe(first))
        defer { test.engine.unsubscribe(first) }
        #expect(firstFaults.count == 1 && !device.isRunning)
        // The second subscriber's own start works: the device runs, and "could not be started" would be wrong.
        let (second, secondFaults) = Self.faultRecorder(.gyroscope)
        #expect(test.engine.subscribe(second))
        defer { test.engine.unsubscribe(second) }
        #expect(device.isRunning && secondFaults.count == 0)
    }

    @Test func aSinkMayLeaveTheEngineFromItsFaultCallback() throws {
        let test = Engine()
        let device = ScriptedIMU(sampleRate: 200, failingStarts: 100)
        test.engine.setDevice(device)
        // Like a handler that stops its updates on an error: the fault comes without an engine lock held.
        let faults = CallRecorder<MotionEngineFault>()
        let engine = test.engine
        let leaving = MotionSubscription(service: .accelerometer, interval: 0) { subscription, _, fault in
            guard let fault else { return }
            faults.append(fault)
            engine.unsubscribe(subscription)
        }
        #expect(engine.subscribe(leaving))
        #expect(faults.count == 1 && engine.diagnostics.lastFault == nil, "it left, and the episode with it")
        // A newcomer during an episode, leaving likewise.
        let (staying, _) = Self.faultRecorder(.gyroscope)
        #expect(engine.subscribe(staying))
        defer { engine.unsubscribe(staying) }
        let newcomer = MotionSubscription(service: .magnetometer, interval: 0) { subscription, _, fault in
            guard let fault else { return }
            faults.append(fault)
            engine.unsubscribe(subscription)
        }
        #expect(engine.subscribe(newcomer))
        #expect(faults.count == 2)
    }
}
