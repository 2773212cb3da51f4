import MotionContract

/// `motionctl devices` output: a table for people, one line per device, and the JSON form for scripts.
public enum FleetTable {
    /// The table. Times are shown relative to `now` (`12s ago`) and in UTC.
    /// - Parameters:
    ///   - devices: the summaries, in the order to print.
    ///   - now: the current time, Unix time, s.
    public static func render(_ devices: [DeviceSummary], now: Double) -> String {
        let header = ["DEVICE", "STATE", "STARTED (UTC)", "LAST SEEN", "AGENT", "IMU",
                      "SERVICES (state configured Hz / measured msg/s)", "HEALTH"]
        var rows = [header]
        for device in devices {
            rows.append([
                DeviceText.id(device.deviceID), device.state.rawValue, device.started.map(shortTime) ?? "-",
                device.lastSeen.map { age(now - $0) } ?? "-", agent(device),
                device.imu.map { imu in
                    let text = DeviceText.text(imu, limit: 60)
                    return device.sampleRateHz.map { "\(text) @ \(number($0)) Hz" } ?? text
                } ?? "-",
                device.services.map(describe).joined(separator: "  "),
                device.health.map(describe) ?? "-",
            ])
        }
        return TextTable.render(rows)
    }

    /// The agent's version and the contract it speaks (`0.9.0, contract 1.7`), marked when its major
    /// version is not this program's (its payloads may not read as documented here); `, Sparkplug B` when
    /// it was heard there (alone, or `, + Sparkplug B` beside the contract).
    static func agent(_ device: DeviceSummary) -> String {
        var text = device.agentVersion.map { DeviceText.text($0, limit: 32) } ?? "-"
        if let contract = device.contractVersion {
            text += ", contract \(DeviceText.text(contract, limit: 16))"
            if contract.split(separator: ".").first.flatMap({ Int($0) }) != ContractVersion.major {
                text += " (not \(ContractVersion.major).x)"
            }
        }
        if device.sparkplug != nil { text += device.contractVersion == nil ? ", Sparkplug B" : ", + Sparkplug B" }
        return text
    }

    /// The JSON form: `{"devices":[{…}, …]}` (see ``DeviceSummary/write(into:)``).
    public static func json(_ devices: [DeviceSummary], now: Double) -> String {
        var writer = JSONWriter()
        writer.field("ts", (now * 1_000).rounded() / 1_000)
        writer.array("devices", objects: devices) { device, entry in device.write(into: &entry) }
        return writer.finished() + "\n"
    }

    private static let shortNames: [MotionService: String] = [
        .accelerometer: "acc", .gyro: "gyro", .magnetometer: "mag", .deviceMotion: "dm", .steps: "steps", .activity: "act",
        .altitude: "alt",
    ]

    private static func describe(_ service: DeviceSummary.Service) -> String {
        let name = shortNames[service.service] ?? service.service.topicName
        let measured = service.measuredRate.map { "/\(number(($0 * 10).rounded() / 10))" } ?? ""
        let lost = service.lost > 0 ? " (\(service.lost) lost)" : ""
        switch service.state {
        case "active": return "\(name) \(number(service.status?.publishedRateHz ?? 0))\(measured)\(lost)"
        case "stopped": return "\(name) stopped\(measured == "/0" ? "" : measured)"
        default: return "\(name) \(service.state)"
        }
    }

    private static func describe(_ health: DeviceSummary.Health) -> String {
        var parts: [String] = []
        if let fault = health.fault { parts.append("fault: \(DeviceText.text(fault, limit: 80))") }
        if health.faults > 0 { parts.append("\(health.faults) faults") }
        if health.reconnects > 0 { parts.append("\(health.reconnects) reconnects") }
        if health.queueDepth > 0 { parts.append("\(health.queueDepth) buffered") }
        if health.dropped > 0 { parts.append("\(health.dropped) dropped") }
        return parts.isEmpty ? "ok" : parts.joined(separator: ", ")
    }

    /// `2026-12-01T15:31:53Z` (or with a fraction or an offset) as `12-01 15:31:53`; anything else the
    /// device sent as `?`, so that a table cell cannot carry it.
    static func shortTime(_ iso8601: String) -> String {
        let characters = Array(iso8601.utf8.prefix(20))
        let digits = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18]
        let separators: [(Int, UInt8)] = [(4, UInt8(ascii: "-")), (7, UInt8(ascii: "-")), (10, UInt8(ascii: "T")), (13, UInt8(ascii: ":")), (16, UInt8(ascii: ":"))]
        guard characters.count >= 19, digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(characters[$0]) }),
              separators.allSatisfy({ characters[$0.0] == $0.1 })
        else { return "?" }
        return String(decoding: characters[5..<10], as: UTF8.self) + " " + String(decoding: characters[11..<19], as: UTF8.self)
    }

    /// An age in the largest unit that keeps it short: `4s ago`, `12m ago`, `3h ago`, `2d ago`.
    static func age(_ seconds: Double) -> String {
        let value = max(seconds, 0)
        if value < 120 { return "\(Int(value))s ago" }
        if value < 7_200 { return "\(Int(value / 60))m ago" }
        if value < 172_800 { return "\(Int(value / 3_600))h ago" }
        return "\(Int(value / 86_400))d ago"
    }

    /// A rate without needless decimals: `50`, `49.8`, `0.5`; `?` for one that is not a finite number
    /// (a status claiming an interval of 1e-320 s).
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "?" }
        return value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
