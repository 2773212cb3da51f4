import CoreMotion
import Foundation

// Delegates as watchOS apps write them: only the methods they need, some with the async form.
final class FallAlertHandler: NSObject, CMFallDetectionDelegate {
    let manager = CMFallDetectionManager()

    override init() {
        super.init()
        manager.delegate = self
    }

    func fallDetectionManager(_ fallDetectionManager: CMFallDetectionManager, didDetect event: CMFallDetectionEvent) async {
        if event.resolution == .unresponsive {
            print("fall at \(event.date), no answer")
        }
    }
}

final class DepthGauge: NSObject, CMWaterSubmersionManagerDelegate {
    let manager = CMWaterSubmersionManager()
    private(set) var depth: Measurement<UnitLength>?

    override init() {
        super.init()
        if CMWaterSubmersionManager.waterSubmersionAvailable {
            manager.delegate = self
        }
    }

    func manager(_ manager: CMWaterSubmersionManager, didUpdate measurement: CMWaterSubmersionMeasurement) {
        depth = measurement.depth
    }

    func manager(_ manager: CMWaterSubmersionManager, errorOccurred error: Error) {
        print("depth gauge failed: \(error.localizedDescription)")
    }
}

final class HeadphoneWatcher: NSObject, CMHeadphoneMotionManagerDelegate {
    let manager = CMHeadphoneMotionManager()

    func start() {
        manager.delegate = self
        guard manager.isDeviceMotionAvailable else { return }
        manager.startDeviceMotionUpdates(to: .main) { motion, _ in
            guard let motion else { return }
            print(motion.attitude.yaw, motion.sensorLocation == .headphoneLeft)
        }
    }

    func headphoneMotionManagerDidConnect(_ manager: CMHeadphoneMotionManager) {
        print("connected")
    }
}
