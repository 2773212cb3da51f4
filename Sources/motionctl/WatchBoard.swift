import MotionContract
import MotionFleet
import Foundation
import Synchronization

/// What `motionctl watch` knows about the devices under a topic prefix, built from the messages it
/// receives, and its rendering as a text table.
///
/// Thread-safe: messages arrive on the MQTT client's thread, rendering happens on another.
public final class WatchBoard: Sendable {
    /// The first topic level watched (`motion`).
    public let prefix: String
    /// The window over which message rates are measured, s.
    public let rateWindow: Double
    private let devices = Mutex<[String: DeviceView]>([:])

    private struct DeviceView: Sendable {
        var status = "?"
        var deviceDescription = ""
        var services: [MotionService: ServiceView] = [:]
        /// The detectors' states, by name (retained, so known from the start).
        var states: [MotionStateName: MotionStatePayload.Value] = [:]
        /// The newest event and when it arrived.
        var lastEvent: (event: MotionEventPayload, arrival: Double)?
    }

    private struct ServiceView: Sendable {
        var status = ""
        var values = ""
        var arrivals: [Double] = []
        var sequence = SequenceGapCounter()
    }

    /// Creates an empty board.
    /// - Parameters:
    ///   - prefix: the first topic level of the devices watched.
    ///   - rateWindow: the window for the message rate, s.
    public init(prefix: String, rateWindow: Double = 2) {
        self.prefix = prefix
        self.rateWindow = rateWindow
    }

    /// Takes in one message.
    /// - Parameters:
    ///   - topic: the topic it arrived on.
    ///   - payload: its payload.
    ///   - arrival: when it arrived, s of any monotonic clock (the same for ``render(now:)``).
    public func receive(topic: String, payload: [UInt8], arrival: Double) {
        guard let deviceID = TopicLayout.deviceID(inTopic: topic, prefix: prefix),
            let kind = TopicLayout(prefix: prefix, deviceID: deviceID).kind(ofTopic: topic)
        else { return }
        devices.withLock { devices in
            var device = devices[deviceID] ?? DeviceView()
            switch kind {
            case .availability:
                device.status = DeviceText.text(String(decoding: payload, as: UTF8.self), limit: 16)
            case .info:
                device.deviceDescription = (try? InfoPayload(payload: payload)).map(Self.describe) ?? ""
            case .data(let service):
                var view = device.services[service] ?? ServiceView()
                view.arrivals.append(arrival)
                view.arrivals.removeAll { $0 < arrival - rateWindow }
                let decoded = Self.latestValues(service, payload)
                if let sequence = decoded?.sequence {
                    view.sequence.record(sequence)
                }
                view.values = decoded?.text ?? "unreadable payload"
                device.services[service] = view
            case .status(let service):
                device.services[service, default: ServiceView()].status =
                    (try? ServiceStatus(payload: payload)).map(Self.describe) ?? "unreadable status"
            case .state(let name):
                device.states[name] = payload.isEmpty ? nil : (try? MotionStatePayload(payload: payload, name: name))?.value
            case .events:
                // The contract: a subscriber skips an event type it does not know.
                if let event = try? MotionEventPayload(payload: payload), event.eventType != nil { device.lastEvent = (event, arrival) }
            case .health, .error, .control, .configuration, .configurationControl, .vibrationSpectrum:
                break
            }
            devices[deviceID] = device
        }
    }

    /// The table: one block per device, one line per service. Whatever a device sent is escaped
    /// (``DeviceText``): no line of it can draw another device's row or move the cursor.
    /// - Parameter now: the current time on the clock used for arrivals, s.
    public func render(now: Double) -> String {
        let snapshot = devices.withLock { $0 }
        guard !snapshot.isEmpty else { return "waiting for devices under \(prefix)/…\n" }
        var lines: [String] = []
        for deviceID in snapshot.keys.sorted() {
            let device = snapshot[deviceID]!
            lines.append("\(prefix)/\(DeviceText.id(deviceID))  [\(device.status)]  \(device.deviceDescription)")
            lines.append(Self.pad("service", 15) + Self.pad("status", 30) + Self.pad("msg/s", 8) + "latest values")
            for service in MotionService.allCases {
                let view = device.services[service] ?? ServiceView()
                let recent = view.arrivals.filter { $0 >= now - rateWindow }.count
                let rate = String(format: "%.1f", Double(recent) / rateWindow)
                let lost = view.sequence.lost > 0 ? "  (\(view.sequence.lost) lost)" : ""
                lines.append(Self.pad(service.topicName, 15) + Self.pad(view.status, 30) + Self.pad(rate, 8) + view.values + lost)
            }
            if !device.states.isEmpty || device.lastEvent != nil {
                let states = MotionStateName.allCases.compactMap { device.states[$0].map(FleetEventLog.describe) }
                let event = device.lastEvent.map { last in
                    "last event \(last.event.type) \(FleetEventLog.describe(last.event)), \(Int(max(0, now - last.arrival))) s ago"
                } ?? "no event yet"
                lines.append(Self.pad("detectors", 15) + states.joined(separator: " · ") + "   " + event)
            }
            lines.append("")
        }
        return lines.map(DeviceText.escaped).joined(separator: "\n") + "\n"
    }

    // MARK: - Formatting

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }

    private static func vector(_ value: SIMD3<Double>, unit: String) -> String {
        String(format: "x %+8.3f  y %+8.3f  z %+8.3f ", value.x, value.y, value.z) + unit
    }

    /// The sequence number of a data message and its newest sample as text.
    private static func latestValues(_ service: MotionService, _ payload: [UInt8]) -> (sequence: UInt64, text: String)? {
        if service == .deviceMotion {
            guard let message = try? SamplePayloadDecoder.deviceMotion(payload), let motion = message.samples.last else {
                return nil
            }
            let angles = motion.eulerAngles, degrees = 180 / Double.pi
            let text = String(format: "roll %+7.1f°  pitch %+7.1f°  yaw %+7.1f°  heading ",
                              angles.roll * degrees, angles.pitch * degrees, angles.yaw * degrees)
                + (motion.heading >= 0 ? String(format: "%.1f°", motion.heading) : "n/a")
            return (message.sequence, text)
        }
        switch service {
        case .steps:
            guard let message = try? SamplePayloadDecoder.steps(payload), let sample = message.samples.last else { return nil }
            var text = String(format: "%llu steps  %.1f m", sample.steps, sample.distance)
            if let cadence = sample.cadence { text += String(format: "  %.2f steps/s", cadence) }
            if let up = sample.floorsAscended, let down = sample.floorsDescended { text += "  floors ↑\(up) ↓\(down)" }
            return (message.sequence, text)
        case .activity:
            guard let message = try? SamplePayloadDecoder.activity(payload), let sample = message.samples.last else { return nil }
            let duration = (sample.timestamp - sample.since).isFinite ? Int(max(0, min(sample.timestamp - sample.since, 1e9))) : 0
            return (message.sequence, "\(DeviceText.text(sample.activity, limit: 32)) (\(DeviceText.text(sample.confidence, limit: 32))) for \(duration) s")
        case .altitude:
            guard let message = try? SamplePayloadDecoder.altitude(payload), let sample = message.samples.last else { return nil }
            return (message.sequence, String(format: "%+.2f m  %.3f kPa  (%.0f m standard atmosphere)", sample.relativeAltitude, sample.pressure, sample.absoluteAltitude))
        case .vibration:
            guard let message = try? VibrationPayload(payload: payload) else { return nil }
            var text = String(format: "%.2f mm/s  zone %@  %.3f g RMS", message.velocityRMS, DeviceText.text(message.zone, limit: 1), message.levels.accelerationRMS)
            if let speed = message.runningSpeed { text += String(format: "  %.0f rpm", speed.rpm) }
            return (message.seq, text)
        default:
            break
        }
        guard let message = try? SamplePayloadDecoder.vectors(payload, service: service), let sample = message.samples.last else {
            return nil
        }
        let unit = switch service {
            case .accelerometer: "g"
            case .magnetometer: "µT"
            default: "rad/s"
            }
        return (message.sequence, vector(sample.value, unit: unit))
    }

    private static func describe(_ status: ServiceStatus) -> String {
        guard status.available else { return "unavailable: \(DeviceText.text(status.error ?? "?", limit: 80))" }
        return status.active ? String(format: "active @ %g Hz", status.publishedRateHz) : "stopped"
    }

    private static func describe(_ info: InfoPayload) -> String {
        let rate = info.device.sampleRateHz ?? .nan
        return "\(DeviceText.text(info.device.chip ?? info.device.specification, limit: 60)) at \(String(format: "%g", rate)) Hz, agent \(DeviceText.text(info.version, limit: 32))"
    }
}
