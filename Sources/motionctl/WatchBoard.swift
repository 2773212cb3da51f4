import MotionContract
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
    }

    private struct ServiceView: Sendable {
        var status = ""
        var values = ""
        var arrivals: [Double] = []
        var lastSequence: UInt64?
        var lostMessages: UInt64 = 0
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
        guard topic.hasPrefix(prefix + "/") else { return }
        let levels = topic.dropFirst(prefix.count + 1).split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard let deviceID = levels.first, levels.count >= 2 else { return }
        let text = String(decoding: payload, as: UTF8.self)
        devices.withLock { devices in
            var device = devices[deviceID] ?? DeviceView()
            switch (levels.count, levels[1]) {
            case (2, "status"):
                device.status = text
            case (2, "info"):
                device.deviceDescription = Self.describeInfo(payload)
            case (2, _):
                if let service = MotionService(topicName: levels[1]) {
                    var view = device.services[service] ?? ServiceView()
                    view.arrivals.append(arrival)
                    view.arrivals.removeAll { $0 < arrival - rateWindow }
                    let object = Self.jsonObject(payload)
                    if let sequence = (object?["seq"] as? NSNumber)?.uint64Value {
                        if let last = view.lastSequence, sequence > last + 1 { view.lostMessages += sequence - last - 1 }
                        view.lastSequence = sequence
                    }
                    view.values = object.map { Self.describeValues(service, $0) } ?? "unreadable payload"
                    device.services[service] = view
                }
            case (3, _) where levels[2] == "status":
                if let service = MotionService(topicName: levels[1]) {
                    device.services[service, default: ServiceView()].status = Self.describeStatus(payload)
                }
            default:
                break
            }
            devices[deviceID] = device
        }
    }

    /// The table: one block per device, one line per service.
    /// - Parameter now: the current time on the clock used for arrivals, s.
    public func render(now: Double) -> String {
        let snapshot = devices.withLock { $0 }
        guard !snapshot.isEmpty else { return "waiting for devices under \(prefix)/…\n" }
        var lines: [String] = []
        for deviceID in snapshot.keys.sorted() {
            let device = snapshot[deviceID]!
            lines.append("\(prefix)/\(deviceID)  [\(device.status)]  \(device.deviceDescription)")
            lines.append(Self.pad("service", 15) + Self.pad("status", 30) + Self.pad("msg/s", 8) + "latest values")
            for service in MotionService.allCases {
                let view = device.services[service] ?? ServiceView()
                let recent = view.arrivals.filter { $0 >= now - rateWindow }.count
                let rate = String(format: "%.1f", Double(recent) / rateWindow)
                let lost = view.lostMessages > 0 ? "  (\(view.lostMessages) lost)" : ""
                lines.append(Self.pad(service.topicName, 15) + Self.pad(view.status, 30) + Self.pad(rate, 8) + view.values + lost)
            }
            lines.append("")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: - Formatting

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }

    private static func jsonObject(_ payload: [UInt8]) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(payload))) as? [String: Any]
    }

    private static func number(_ object: [String: Any]?, _ key: String) -> Double {
        (object?[key] as? NSNumber)?.doubleValue ?? .nan
    }

    private static func vector(_ object: [String: Any], _ key: String, unit: String) -> String {
        let vector = object[key] as? [String: Any]
        return String(format: "x %+8.3f  y %+8.3f  z %+8.3f ",
                      number(vector, "x"), number(vector, "y"), number(vector, "z")) + unit
    }

    private static func describeValues(_ service: MotionService, _ object: [String: Any]) -> String {
        switch service {
        case .accelerometer: return vector(object, "acceleration", unit: "g")
        case .gyro: return vector(object, "rotationRate", unit: "rad/s")
        case .magnetometer: return vector(object, "magneticField", unit: "µT")
        case .deviceMotion:
            let attitude = object["attitude"] as? [String: Any]
            let degrees = 180 / Double.pi
            let heading = number(object, "heading")
            return String(format: "roll %+7.1f°  pitch %+7.1f°  yaw %+7.1f°  heading ",
                          number(attitude, "roll") * degrees, number(attitude, "pitch") * degrees,
                          number(attitude, "yaw") * degrees)
                + (heading >= 0 ? String(format: "%.1f°", heading) : "n/a")
        }
    }

    private static func describeStatus(_ payload: [UInt8]) -> String {
        guard let object = jsonObject(payload) else { return "unreadable status" }
        if (object["available"] as? NSNumber)?.boolValue == false {
            return "unavailable: \(object["error"] as? String ?? "?")"
        }
        let active = (object["active"] as? NSNumber)?.boolValue == true
        let rate = number(object, "rate_hz")
        return active ? String(format: "active @ %g Hz", rate) : "stopped"
    }

    private static func describeInfo(_ payload: [UInt8]) -> String {
        guard let object = jsonObject(payload), let device = object["device"] as? [String: Any] else { return "" }
        let chip = device["chip"] as? String ?? device["spec"] as? String ?? "?"
        let rate = number(device, "sample_rate_hz")
        let version = object["version"] as? String ?? "?"
        return "\(chip) at \(String(format: "%g", rate)) Hz, agent \(version)"
    }
}
