import Foundation
import MQTT
import Synchronization
import MotionTestSupport

/// Collects the events of an ``MQTTClient`` for assertions (the handler runs on libmosquitto's thread).
final class EventLog: Sendable {
    private let events = Mutex<[MQTTClientEvent]>([])

    /// The handler to pass to ``MQTTClient/init(configuration:events:)``.
    var handler: @Sendable (MQTTClientEvent) -> Void {
        { event in self.events.withLock { $0.append(event) } }
    }

    /// Everything recorded so far, oldest first.
    var all: [MQTTClientEvent] { events.withLock { $0 } }

    /// One short word per event (`connected`, `disconnected`, `message`, ...), oldest first.
    var kinds: [String] { all.map(Self.kind) }

    /// Polls every 5 ms until `isSatisfied` holds for the recorded events, or `timeout` passes.
    @discardableResult
    func wait(timeout: Duration = .seconds(5), until isSatisfied: ([MQTTClientEvent]) -> Bool) -> Bool {
        eventually(within: timeout) { isSatisfied(all) }
    }

    /// Waits until `count` events of `kind` are recorded.
    @discardableResult
    func wait(for kind: String, count: Int = 1, timeout: Duration = .seconds(5)) -> Bool {
        wait(timeout: timeout) { $0.filter { Self.kind($0) == kind }.count >= count }
    }

    static func kind(_ event: MQTTClientEvent) -> String {
        switch event {
        case .connected: "connected"
        case .connectionRefused: "connectionRefused"
        case .disconnected: "disconnected"
        case .message: "message"
        case .published: "published"
        case .offlineBufferProblem: "offlineBufferProblem"
        }
    }
}
