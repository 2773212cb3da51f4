@testable import CoreMotion
import Foundation
import MotionHAL
import MotionMath
import Testing

/// Head motion from a second IMU, through apps' head trackers. The headphones are process-wide, so the
/// tests run one at a time; they never touch the board's IMU.
@Suite(.serialized) struct CMHeadphoneMotionManagerTests {
    @Test func connectionChangesAreReportedOnce() {
        var connection = HeadphoneConnection()
        #expect(connection.faulted() == nil, "a fault before any sample is no disconnection")
        #expect(connection.sampleArrived() == .connected)
        #expect(connection.sampleArrived() == nil)
        #expect(connection.faulted() == .disconnected)
        #expect(connection.faulted() == nil)
        #expect(connection.sampleArrived() == .connected)
        connection.reset()
        #expect(connection.sampleArrived() == .connected)
    }

    @Test func withoutAHeadphoneDeviceNothingIsAvailableAndTheBoardsIMUIsNotUsed() {
        let engine = HeadphoneDevice.makeEngine(variables: ["MOTION_DEVICE": "sim"])
        #expect(engine.deviceInfo == nil && !engine.hasSensors(for: .accelerometer), "MOTION_DEVICE is the board's, not the head's")
        let configured = HeadphoneDevice.makeEngine(variables: ["MOTION_HEADPHONE_DEVICE": "sim:rate=50"])
        #expect(configured.hasSensors(for: .deviceMotion(.xArbitraryZVertical)))
        #expect(HeadphoneDevice.location(named: "LEFT") == .headphoneLeft && HeadphoneDevice.location(named: "right") == .headphoneRight)
        #expect(HeadphoneDevice.location(named: nil) == .default && HeadphoneDevice.location(named: "middle") == .default)

        CMHeadphoneMotionManager.useLinuxHeadphoneDevice(nil)
        let tracker = HeadTracker()
        #expect(!tracker.isAvailable && !tracker.start(queue: OperationQueue()))
        #expect(!tracker.isTracking && tracker.latestPose == nil)
        let watcher = HeadphoneActivityWatcher()
        #expect(!watcher.canWatch)
    }

    @Test func aNodIsPitchInTheHeadphoneAxes() throws {
        // Nodding: the head turns about its x axis (to the right ear) at 0.5 rad/s.
        let nod = SimulatedIMU(configuration: .init(sampleRate: 100, motion: .rotation(axis: SIMD3(1, 0, 0), rate: 0.5), seed: 5))
        CMHeadphoneMotionManager.useLinuxHeadphoneDevice(nod, sensorLocation: .headphoneLeft)
        defer { CMHeadphoneMotionManager.useLinuxHeadphoneDevice(nil) }
        let tracker = HeadTracker()
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        #expect(tracker.start(queue: queue))
        #expect(tracker.isTracking)
        #expect(waitUntil(timeout: 10) { tracker.allPoses.count >= 25 })
        tracker.stop()
        #expect(!tracker.isTracking)
        let poses = tracker.allPoses
        #expect(poses.allSatisfy { $0.location == .headphoneLeft })
        // 25 Hz by default: about 1 s of nodding from the first pose to the 25th.
        let first = try #require(poses.first), last = poses[24]
        #expect(abs((last.pitch - first.pitch) - 0.5 * 24 / 25) < 0.05, "pitch rose \(last.pitch - first.pitch) rad")
        #expect(poses.prefix(25).allSatisfy { abs($0.roll) < 0.02 }, "no roll while nodding")
    }

    @Test func theDelegateHearsTheHeadphonesGoAndComeBack() throws {
        // The device vanishes 1 s after it starts and is back 1.5 s later; the engine reopens it.
        try CMHeadphoneMotionManager.useLinuxHeadphoneDevice(
            specification: "sim:rate=50,motion=stationary,fault=vanish,fault_after=1,fault_duration=1.5")
        defer { CMHeadphoneMotionManager.useLinuxHeadphoneDevice(nil) }
        let tracker = HeadTracker()
        tracker.watchConnection()
        #expect(tracker.isWatchingConnection && !tracker.isTracking)
        #expect(waitUntil(timeout: 15) { tracker.connections.count >= 3 }, "\(tracker.connections)")
        #expect(Array(tracker.connections.prefix(3)) == [true, false, true])
        tracker.stopWatchingConnection()
        #expect(!tracker.isWatchingConnection)
    }

    @Test func pullModeKeepsTheLatestHeadMotion() {
        CMHeadphoneMotionManager.useLinuxHeadphoneDevice(
            SimulatedIMU(configuration: .init(sampleRate: 100, motion: .stationary(attitude: .identity), seed: 2)))
        defer { CMHeadphoneMotionManager.useLinuxHeadphoneDevice(nil) }
        let tracker = HeadTracker()
        tracker.startPulling()
        #expect(waitUntil(timeout: 10) { tracker.latestPose != nil })
        #expect(tracker.allPoses.isEmpty, "pull mode calls no handler")
        tracker.stop()
    }

    @Test func theActivityManagerReportsTheConnectionAndTheActivity() {
        CMHeadphoneMotionManager.useLinuxHeadphoneDevice(
            SimulatedIMU(configuration: .init(sampleRate: 100, motion: .stationary(attitude: .identity), seed: 4)))
        defer { CMHeadphoneMotionManager.useLinuxHeadphoneDevice(nil) }
        let watcher = HeadphoneActivityWatcher()
        #expect(watcher.canWatch)
        watcher.start(queue: OperationQueue())
        #expect(watcher.isActive)
        #expect(waitUntil(timeout: 10) { watcher.allStatuses.first == .connected }, "connected at once: \(watcher.allStatuses)")
        #expect(waitUntil(timeout: 15) { watcher.allActivities.contains("stationary") }, "\(watcher.allActivities)")
        watcher.stop()
        #expect(!watcher.isActive)
    }
}
