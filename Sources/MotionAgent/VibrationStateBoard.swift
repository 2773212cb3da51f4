import MQTT
import MotionContract
import Synchronization

/// `{base}/state/vibration` has two sources: the vibration detector (running or stopped, its bands' levels)
/// and the vibration service (the zone). The parts in force, merged into the one retained message.
/// Pure value.
struct VibrationStateParts: Sendable, Equatable {
    /// The detector's state (a `.vibration` value with `running`), nil while it is off.
    var detector: MotionStatePayload?
    /// The service's zone and since when it holds (s since boot), nil while the service is off.
    var severity: (value: MotionStatePayload.Severity, since: Double)?
    /// Where the Unix times (`ts`) come from.
    let wallClock: WallClockAnchor

    /// The merged message: the detector's with the zone added, or the zone alone; nil when neither source
    /// runs (the retained message is then removed).
    var merged: MotionStatePayload? {
        if var detector, case .vibration(let running, let bands, _) = detector.value {
            detector.value = .vibration(running: running, bands: bands, severity: severity?.value)
            return detector
        }
        guard let severity else { return nil }
        return MotionStatePayload(
            value: .vibration(running: nil, bands: [], severity: severity.value), timestamp: severity.since, ts: wallClock.unixTime(of: severity.since))
    }

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.detector == rhs.detector && lhs.severity?.value == rhs.severity?.value && lhs.severity?.since == rhs.severity?.since
            && lhs.wallClock === rhs.wallClock
    }
}

/// The parts of `{base}/state/vibration` behind a lock, published as one message: each change publishes
/// the merged message while holding the lock, so the broker keeps the newest.
///
/// Threading: any thread (the detectors' publishing queue, the device's thread).
final class VibrationStateBoard: Sendable {
    private let parts: Mutex<VibrationStateParts>
    private let topic: String

    /// A board for `topics`' vibration state.
    init(topics: TopicLayout, wallClock: WallClockAnchor) {
        parts = Mutex(VibrationStateParts(wallClock: wallClock))
        topic = topics.state(.vibration)
    }

    /// The parts now.
    var current: VibrationStateParts { parts.withLock { $0 } }

    /// Changes the parts and publishes the merged message (retained; empty when neither part is left).
    func update(on client: (any MessageTransport)?, _ change: (inout VibrationStateParts) -> Void) {
        parts.withLock { parts in
            change(&parts)
            guard let client else { return }
            publish(parts.merged, on: client)
        }
    }

    /// Publishes the merged message again (after a reconnect).
    func republish(on client: any MessageTransport) {
        parts.withLock { publish($0.merged, on: client) }
    }

    private func publish(_ state: MotionStatePayload?, on client: any MessageTransport) {
        let message = state.map {
            MQTTMessage(topic: topic, string: $0.json(), qos: .atLeastOnce, retain: true, contentType: PayloadFormat.json.contentType)
        } ?? MQTTMessage(topic: topic, payload: [], qos: .atLeastOnce, retain: true)
        _ = try? client.publish(message)
    }
}
