import Dispatch
import MotionEngine
import MotionFusion
import MotionSupervision
import MotionTestSupport
import Testing

/// The engine's detector host: one per engine, and its processors, each fed the attitude filter's output in
/// its own frame on the device's thread, start and stop the device like any subscriber.
@Suite struct MotionDetectorHostTests {
    /// A processor that keeps what it is stepped with and hands on the size of each delivery.
    struct Keeper: MotionDetectorProcessor {
        var fed: [FusedMotionSample] = []
        var found: [MotionDetectorBank.Output] = []
        private var delivery = 0

        mutating func step(_ sample: FusedMotionSample, found: MotionDetectorBank.Output, bank: borrowing MotionDetectorBank) {
            fed.append(sample)
            self.found.append(found)
            delivery += 1
        }

        mutating func finishDelivery() -> Int? {
            defer { delivery = 0 }
            return delivery
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
        let channel = try #require(engine.detectors.addProcessor(Keeper(), frame: .xMagneticNorthZVertical, detectors: MotionDetectorBank()) { delivered.append($0) })
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

    /// Listeners and a processor share one bank: it moves to the processor's frame while the processor
    /// runs and back without it, each sample analysed once, none lost while it changes frame.
    @Test func listenersAndAProcessorShareOneBankThatFollowsTheProcessorsFrame() throws {
        let (engine, device) = Self.engine()
        let host = engine.detectors
        var next: UInt64 = 1_000_000_000
        func emit(_ count: Int) {
            device.emit(.samples(device.restingSamples(count: count, from: next)))
            next += UInt64(count) * 5_000_000
        }
        let listener = try #require(host.addListener { _ in })
        emit(100)
        let alone = host.samplesAnalysed
        #expect(alone >= 99, "the listeners' bank reads every sample once the filter is ready")

        let bank = MotionDetectorBank()
        let channel = try #require(host.addProcessor(Keeper(), frame: .xMagneticNorthZVertical, detectors: bank) { _ in })
        emit(100)
        let shared = host.samplesAnalysed - alone
        let stepped = try #require(channel.withProcessor { $0.fed.count })
        #expect(shared == UInt64(stepped) && (99...100).contains(shared), "one bank, each sample once: \(shared), processor \(stepped)")
        #expect(engine.diagnostics.fusion.map(\.referenceFrame) == [.xMagneticNorthZVertical], "the bank reads the processor's frame only")

        let final = try #require(host.removeProcessor(channel))
        emit(100)
        #expect(final.fed.count == stepped)
        #expect((99...100).contains(host.samplesAnalysed - alone - shared), "back in the frame with no north, for the listener")
        #expect(engine.diagnostics.fusion.map(\.referenceFrame) == [.xArbitraryZVertical])
        host.removeListener(listener)
        #expect(!device.isRunning)
    }

    @Test func aSecondProcessorInAnotherFrameIsRefused() throws {
        let (engine, _) = Self.engine()
        let first = try #require(engine.detectors.addProcessor(Keeper(), frame: .xArbitraryZVertical, detectors: MotionDetectorBank()) { _ in })
        #expect(engine.detectors.addProcessor(Keeper(), frame: .xMagneticNorthZVertical, detectors: MotionDetectorBank()) { _ in } == nil)
        engine.detectors.removeProcessor(first)
    }

    @Test func withoutADeviceNoProcessorIsAdded() {
        let engine = MotionEngine(environment: MotionEngineEnvironment(variables: ["MOTION_DEVICE": "sim:rate=fast"]))
        #expect(engine.detectors.addProcessor(Keeper(), frame: .xArbitraryZVertical, detectors: MotionDetectorBank()) { _ in } == nil)
    }

    @Test func aListenerHearsAFaultOnceEvenWhenTheBankChangesStreamDuringIt() throws {
        let (engine, device) = Self.engine()
        let host = engine.detectors
        let faults = CallRecorder<MotionEngineFault>()
        let token = try #require(host.addListener { update in if let fault = update.fault { faults.append(fault) } })
        defer { host.removeListener(token) }
        device.emit(.samples(device.restingSamples(count: 20)))
        device.emit(.fault(.readFailed("bus timeout")))
        #expect(faults.count == 1)
        // A processor in another frame moves the bank to a new subscription, which the engine tells of the
        // episode in progress: the listener heard it already.
        let channel = try #require(host.addProcessor(Keeper(), frame: .xMagneticNorthZVertical, detectors: MotionDetectorBank()) { _ in })
        #expect(faults.count == 1)
        // Samples end the episode; the next fault is news.
        device.emit(.samples(device.restingSamples(count: 20, from: 2_000_000_000)))
        device.emit(.fault(.readFailed("FIFO overflow")))
        #expect(faults.count == 2)
        host.removeProcessor(channel)
    }
}
