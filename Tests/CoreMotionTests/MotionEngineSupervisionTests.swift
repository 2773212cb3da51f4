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
        let engine: MotionEngine

        init() {
            var environment = MotionEngineEnvironment()
            environment.logger = Logger(label: "engine", handler: capture, minimumPriority: .debug)
            environment.clock = clock
            engine = MotionEngine(environment: environment)
        }
    }

    @Test func aFailedStartIsRetriedAfterHalfASecondThenASecondWithTheRetriesLogged() throws {
        let test = Engine()
        let device = ScriptedIMU(sampleRate: 200, failingStarts: 2)
        test.engine.setDevice(device)
        let faults = Recorder<MotionEngineFault>()
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
        #expect(device.startAttempts == 3 && device.isRunning && test.clock.pendingDelays.isEmpty)
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
}
