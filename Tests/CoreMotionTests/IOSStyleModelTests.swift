import CoreMotion
import MotionHAL
import Observation
import Testing

/// Code as an iOS app writes it (Swift 6, `@Observable @MainActor` model, handler touching `self` on
/// `.main`): it must compile unchanged against this module.
@Observable @MainActor final class RotationModel {
    var rate = 0.0
    var updates = 0
    var allOnMainQueue = true
    let manager = CMMotionManager()

    func start(on queue: OperationQueue = .main) {
        guard manager.isGyroAvailable else { return }
        manager.gyroUpdateInterval = 0.05
        manager.startGyroUpdates(to: queue) { data, _ in
            self.rate = data!.rotationRate.x
            self.updates += 1
            self.allOnMainQueue = self.allOnMainQueue && OperationQueue.current === OperationQueue.main
        }
    }

    func stop() {
        manager.stopGyroUpdates()
    }
}

/// Subclassing patterns of iOS code: a manager subclass and a mocked sample.
final class AppMotionManager: CMMotionManager {
    override init() {
        super.init()
        deviceMotionUpdateInterval = 1.0 / 60
    }

    override var isDeviceMotionAvailable: Bool { super.isDeviceMotionAvailable }
}

final class MockDeviceMotion: CMDeviceMotion {
    override var userAcceleration: CMAcceleration { CMAcceleration(x: 0.1, y: 0, z: 0) }
}

extension CMMotionManagerDeviceTests {
    @MainActor @Test func observableMainActorModelReceivesUpdatesOnMain() async throws {
        CMLinuxMotionDevice.use(
            SimulatedIMU(configuration: .init(sampleRate: 200, motion: .rotation(axis: SIMD3(1, 0, 0), rate: 0.5))))
        let model = RotationModel()
        model.start()
        // The test runs on the main actor, i.e. inside the main queue: suspending lets the main queue run
        // the handler operations (a nested RunLoop.main.run cannot, the queue being serial).
        let deadline = Date().addingTimeInterval(3)
        while model.updates < 5, Date() < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        model.stop()
        #expect(model.updates >= 5)
        // (In this test process the main queue, the main actor's executor, is serviced off the process's
        // first thread, so `Thread.isMainThread` is not the check; the queue identity is.)
        #expect(model.allOnMainQueue)
        #expect(abs(model.rate - 0.5) < 0.05, "rate about x 0.5 rad/s (+ bias 0.005)")
    }
}
