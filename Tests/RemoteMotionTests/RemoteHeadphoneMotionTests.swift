import AgentTestSupport
import Foundation
import MotionTestSupport
import RemoteMotion
import Synchronization
import Testing

/// RemoteMotion's headphones: a head-worn board running the real agent across a real mosquitto, read with
/// Apple's CMHeadphoneMotionManager: its device motion as the head's, its availability as the connection.
@Suite(.serialized) struct RemoteHeadphoneMotionTests {
    /// A delegate keeping the connection reports, as a head-tracking app's would.
    final class ConnectionLog: NSObject, CMHeadphoneMotionManagerDelegate {
        private let events = Mutex<[Bool]>([])
        var all: [Bool] { events.withLock { $0 } }

        func headphoneMotionManagerDidConnect(_ manager: CMHeadphoneMotionManager) { events.withLock { $0.append(true) } }
        func headphoneMotionManagerDidDisconnect(_ manager: CMHeadphoneMotionManager) { events.withLock { $0.append(false) } }
    }

    @Test func aHeadWornBoardIsTheHeadphones() throws {
        let running = try RunningAgent.start()
        defer { running.cleanUp() }
        #expect(running.subscriber.waitForMessage(on: running.topics.status(.deviceMotion)) != nil)
        let manager = try CMHeadphoneMotionManager(linuxRemoteDevice: running.deviceID, broker: running.broker.url)
        let log = ConnectionLog()
        manager.delegate = log
        #expect(manager.isDeviceMotionAvailable)
        let gravities = Mutex<[Double]>([])
        manager.startDeviceMotionUpdates(to: OperationQueue()) { motion, _ in
            guard let gravity = motion?.gravity else { return }
            gravities.withLock { $0.append((gravity.x * gravity.x + gravity.y * gravity.y + gravity.z * gravity.z).squareRoot()) }
        }
        #expect(waitUntil { gravities.withLock { $0.count } >= 10 }, "the board's device motion arrives")
        #expect(gravities.withLock { $0 }.allSatisfy { abs($0 - 1) < 0.05 })
        #expect(waitUntil { log.all == [true] }, "connected: \(log.all)")

        // The board goes offline: the headphones disconnect.
        running.agent.send(SIGTERM)
        #expect(waitUntil { log.all == [true, false] }, "disconnected: \(log.all)")
        manager.stopDeviceMotionUpdates()
        #expect(!manager.isDeviceMotionActive)
    }

    @Test func aBoardThatCannotBeReachedThrows() {
        #expect(throws: RemoteMotionError.self) { try CMHeadphoneMotionManager(linuxRemoteDevice: "helmet-3", broker: "mqtt://127.0.0.1:1") }
    }

    private func waitUntil(timeout: Double = 10, _ condition: () -> Bool) -> Bool {
        eventually(within: .milliseconds(Int(timeout * 1000)), condition)
    }
}
