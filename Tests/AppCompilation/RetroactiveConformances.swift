import CoreMotion
import Foundation

// What apps add to Apple's classes: a retroactive Sendable, so samples can cross into tasks, and the
// Sequence every CMSensorRecorder sample shows.
extension CMDeviceMotion: @retroactive @unchecked Sendable {}
extension CMAccelerometerData: @retroactive @unchecked Sendable {}
extension CMSensorDataList: @retroactive Sequence {
    public func makeIterator() -> NSFastEnumerationIterator {
        return NSFastEnumerationIterator(self)
    }
}

func meanMagnitude(of list: CMSensorDataList) -> Double {
    var sum = 0.0
    var count = 0
    for case let sample as CMRecordedAccelerometerData in list {
        let a = sample.acceleration
        sum += (a.x * a.x + a.y * a.y + a.z * a.z).squareRoot()
        count += 1
    }
    return count == 0 ? 0 : sum / Double(count)
}

func latestMotion(_ manager: CMMotionManager) async -> CMDeviceMotion? {
    let motion = manager.deviceMotion
    return await Task { motion }.value
}
