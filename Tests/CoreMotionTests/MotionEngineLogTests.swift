import MotionEngine
import MotionLog
import MotionTestSupport
import Testing

/// The engine logs its own supervision through the injected logger (debug lines: the fault itself reaches
/// every subscription).
@Suite struct MotionEngineLogTests {
    @Test func aFailedStartLogsTheRetryItSchedules() throws {
        let capture = CapturingLogHandler()
        var environment = MotionEngineEnvironment()
        environment.logger = Logger(label: "engine", handler: capture, minimumPriority: .debug)
        let engine = MotionEngine(environment: environment)
        let device = ScriptedIMU(sampleRate: 200, failingStarts: 1)
        engine.setDevice(device)
        let subscription = MotionSubscription(service: .accelerometer, interval: 0.01) { _, _, _ in }
        _ = engine.subscribe(subscription)
        defer { engine.unsubscribe(subscription) }
        #expect(waitUntil(timeout: 3) { device.isRunning })
        #expect(capture.messages(.debug) == ["device test script: starting again in 0.5 s"])
        #expect(capture.records.allSatisfy { $0.label == "engine" })
    }
}
