import Dispatch
import MotionEngine
import MotionFusion
import MotionSupervision
import MotionTestSupport
import Testing

/// The engine's detector host: one per engine, and its processors, each fed the attitude filter's output in
/// its own frame on the device's thread, start and stop the device like any subscriber.
@Suite struct MotionDetectorHostTests {
    /// A processor that keeps what it is fed and hands on the size of each delivery.
    struct Keeper: MotionDetectorProcessor {
        var fed: [FusedMotionSample] = []

        mutating func process(_ samples: [FusedMotionSample]) -> Int? {
            fed += samples
            return samples.count
        }
    }

    /// An engine on a manual clock with a scripted IMU (no environment, no /sys).
    static func engine() -> (MotionEngine, ScriptedIMU) {
        let clock = ManualClock()
        var environment = MotionEngineEnvironment(variables: [:])
        environment.clock = clock
        environment.monotonicNanoseconds = { [clock] in clock.nanoseconds }
        let engine = MotionEngine(environment: environment, supervisionQueue: DispatchQueue(label: "test.supervision"))
        let device = ScriptedIMU(sampleRate: 200)
        engine.setDevice(device)
        return (engine, device)
    }

    @Test func eachEngineHasOneHostAndTheSharedHostIsTheProcesssEngines() {
        let (engine, _) = Self.engine()
        #expect(engine.detectors === engine.detectors)
        #expect(engine.detectors !== Self.engine().0.detectors)
        #expect(MotionDetectorHost.shared === MotionEngine.shared.detectors)
    }

    @Test func aProcessorIsFedTheFiltersOutputInItsFrameAndStopsTheDeviceWhenRemoved() throws {
        let (engine, device) = Self.engine()
        let delivered = CallRecorder<Int>()
        let channel = try #require(engine.detectors.addProcessor(Keeper(), frame: .xMagneticNorthZVertical) { delivered.append($0) })
        #expect(device.isRunning, "a processor alone runs the device")
        // Device motion in the same frame, to compare with.
        let motions = CallRecorder<DeviceMotionSample>()
        let subscription = MotionSubscription(service: .deviceMotion(.xMagneticNorthZVertical), interval: 0, sink: .batch { _, samples, _ in
            for case .deviceMotion(let motion) in samples ?? [] { motions.append(motion) }
        })
        #expect(engine.subscribe(subscription))
        for delivery in 0..<4 {
            device.emit(.samples(device.restingSamples(count: 100, from: 1_000_000_000 + UInt64(delivery) * 500_000_000)))
        }
        engine.unsubscribe(subscription)
        let fed = try #require(channel.withProcessor { $0.fed })
        #expect(fed.count == motions.all.count && fed.count > 300, "every sample once the filter is ready")
        #expect(delivered.all.reduce(0, +) == fed.count && delivered.all.count == 4, "one output per delivery")
        #expect(zip(fed, motions.all).allSatisfy { $0.timestamp == $1.timestamp && $0.attitude == $1.attitude })
        #expect(zip(fed, motions.all).allSatisfy { MotionDetectorBank.Sample($0) == MotionDetectorBank.Sample($1) })

        let final = try #require(engine.detectors.removeProcessor(channel))
        #expect(final.fed.count == fed.count)
        #expect(!device.isRunning, "the last subscriber gone, the device stops")
        #expect(channel.withProcessor { $0.fed.count } == nil)
        #expect(engine.detectors.removeProcessor(channel) == nil, "removed once")
    }

    @Test func withoutADeviceNoProcessorIsAdded() {
        let engine = MotionEngine(environment: MotionEngineEnvironment(variables: ["MOTION_DEVICE": "sim:rate=fast"]))
        #expect(engine.detectors.addProcessor(Keeper(), frame: .xArbitraryZVertical) { _ in } == nil)
    }
}
