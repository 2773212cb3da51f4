import AgentTestSupport
import Foundation
import MotionContract
import MotionTestSupport
import RemoteMotion
import Synchronization
import Testing

/// RemoteMotion: Apple's CMMotionManager for a real agent across a real mosquitto: start commands with
/// the interval, handlers and pull mode with the board's timestamps, availability from the retained
/// statuses, two managers on one board, and the not-available error when the board goes offline.
@Suite(.serialized) struct RemoteMotionManagerTests {
    @Test("a remote board through Apple's API")
    func aRemoteBoardThroughApplesAPI() throws {
        let running = try RunningAgent.start(configuration: #"{"services": {"gyro": {"enabled": false}}}"#)
        defer { running.cleanUp() }
        #expect(running.subscriber.waitForMessage(on: running.topics.status(.gyro)) != nil)
        let manager = try CMMotionManager(linuxRemoteDevice: running.deviceID, broker: running.broker.url)
        #expect(manager.isAccelerometerAvailable && manager.isGyroAvailable && manager.isMagnetometerAvailable)
        #expect(manager.isDeviceMotionAvailable && !manager.isGyroActive)

        // Push mode: the start sends the interval; the board's status follows; samples carry its timestamps.
        let queue = OperationQueue()
        let received = Mutex<[Double]>([])
        let errors = Mutex<[NSError]>([])
        manager.gyroUpdateInterval = 0.05
        manager.startGyroUpdates(to: queue) { data, error in
            if let data { received.withLock { $0.append(data.timestamp) } }
            if let error { errors.withLock { $0.append(error as NSError) } }
        }
        #expect(manager.isGyroActive)
        let started = running.subscriber.waitForMessage(on: running.topics.status(.gyro)) { message in
            let status = try? ServiceStatus(payload: message.payload)
            return status?.active == true && status?.interval == 0.05
        }
        #expect(started != nil, "the board runs its gyro at the interval asked for")
        #expect(waitUntil { received.withLock { $0.count } >= 10 }, "gyro samples arrive")
        let published = Set(running.subscriber.messages(on: running.topics.data(.gyro)).compactMap { message in
            (try? SamplePayloadDecoder.vectors(message.payload, service: .gyro))?.samples.first?.timestamp
        })
        let first = received.withLock { $0.first }
        #expect(first.map(published.contains) == true, "the handler's timestamp is the board's")
        #expect(manager.gyroData != nil, "pull mode")
        // A new interval while running reaches the board, as Apple's managers change their rate.
        manager.gyroUpdateInterval = 0.1
        let slowed = running.subscriber.waitForMessage(on: running.topics.status(.gyro)) { message in
            (try? ServiceStatus(payload: message.payload))?.interval == 0.1
        }
        #expect(slowed != nil, "the board runs its gyro at the new interval")

        // Device motion in pull mode, in the board's 6-axis frame.
        manager.deviceMotionUpdateInterval = 0.05
        manager.startDeviceMotionUpdates(using: .xArbitraryZVertical)
        #expect(waitUntil { manager.deviceMotion != nil })
        if let gravity = manager.deviceMotion?.gravity {
            #expect(abs((gravity.x * gravity.x + gravity.y * gravity.y + gravity.z * gravity.z).squareRoot() - 1) < 0.05)
        }

        // A second manager on the same board; its stop leaves the first (and the board) running.
        let second = try CMMotionManager(linuxRemoteDevice: running.deviceID, broker: running.broker.url)
        let secondCount = Mutex(0)
        second.gyroUpdateInterval = 0.05
        second.startGyroUpdates(to: queue) { data, _ in if data != nil { secondCount.withLock { $0 += 1 } } }
        #expect(waitUntil { secondCount.withLock { $0 } >= 5 })
        second.stopGyroUpdates()
        let before = received.withLock { $0.count }
        #expect(waitUntil { received.withLock { $0.count } >= before + 10 }, "the first manager still receives")

        // The board goes offline: the handler gets Apple's not-available error once.
        running.agent.send(SIGTERM)
        #expect(waitUntil { !errors.withLock { $0.isEmpty } }, "an error reaches the handler")
        let error = errors.withLock { $0.first }
        #expect(error?.domain == CMErrorDomain && error?.code == Int(CMErrorNotAvailable.rawValue), "\(String(describing: error))")
        #expect(waitUntil { !manager.isGyroAvailable })
        manager.stopGyroUpdates()
        manager.stopDeviceMotionUpdates()
    }

    @Test("a board publishing CBOR reads the same through Apple's API")
    func aBoardPublishingCBOR() throws {
        let running = try RunningAgent.start(configuration: #"""
            {"services": {"accelerometer": {"rate_hz": 20, "format": "cbor"}, "device-motion": {"rate_hz": 20, "format": "cbor", "batch": 2}}}
            """#)
        defer { running.cleanUp() }
        #expect(running.subscriber.waitForCount(on: running.topics.data(.deviceMotion), count: 2, timeout: .seconds(10)))
        #expect(running.subscriber.messages(on: running.topics.data(.deviceMotion)).allSatisfy { PayloadFormat.of($0.payload) == .cbor })
        let manager = try CMMotionManager(linuxRemoteDevice: running.deviceID, broker: running.broker.url)
        let queue = OperationQueue()
        let motions = Mutex<[(timestamp: Double, gravity: SIMD3<Double>)]>([])
        manager.deviceMotionUpdateInterval = 0.05
        manager.startDeviceMotionUpdates(using: .xMagneticNorthZVertical, to: queue) { motion, _ in
            if let motion {
                let entry = (motion.timestamp, SIMD3(motion.gravity.x, motion.gravity.y, motion.gravity.z))
                motions.withLock { $0.append(entry) }
            }
        }
        manager.startAccelerometerUpdates()
        #expect(waitUntil { motions.withLock { $0.count } >= 6 && manager.accelerometerData != nil }, "CBOR samples arrive")
        let gravity = try #require(motions.withLock { $0.last }?.gravity)
        #expect(abs((gravity * gravity).sum().squareRoot() - 1) < 0.05)
        let published = Set(running.subscriber.messages(on: running.topics.data(.deviceMotion)).flatMap { message in
            ((try? SamplePayloadDecoder.deviceMotion(message.payload))?.samples ?? []).map(\.timestamp)
        })
        #expect(motions.withLock { $0.first }.map { published.contains($0.timestamp) } == true, "the board's timestamps, exactly")
        manager.stopDeviceMotionUpdates()
        manager.stopAccelerometerUpdates()
    }

    @Test func aBoardThatCannotBeReachedOrNamedThrows() {
        #expect(throws: RemoteMotionError.self) { try CMMotionManager(linuxRemoteDevice: "board-7", broker: "mqtt://127.0.0.1:1") }
        #expect(throws: RemoteMotionError.self) { try CMMotionManager(linuxRemoteDevice: "a/b", broker: "mqtt://127.0.0.1:1") }
        #expect(throws: RemoteMotionError.self) { try CMMotionManager(linuxRemoteDevice: "board-7", broker: "http://x") }
    }

    private func waitUntil(timeout: Double = 10, _ condition: () -> Bool) -> Bool {
        eventually(within: .milliseconds(Int(timeout * 1000)), condition)
    }
}
