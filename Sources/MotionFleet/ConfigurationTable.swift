import MotionContract
import MotionMath

/// `motionctl config get`'s table of a ``ConfigurationReport``: one line per setting with its value and
/// source, under a header with the version, hash and since when it is in force.
public enum ConfigurationTable {
    /// The report of `deviceID` as text.
    public static func render(_ report: ConfigurationReport, deviceID: String) -> String {
        var lines = [
            DeviceText.escaped("device \(DeviceText.id(deviceID))  version \(report.version)  hash \(DeviceText.text(report.hash.prefix(12)))  since \(UTCDateTime(unixTime: report.ts).iso8601())")
        ]
        if let error = report.error { lines.append("remote configuration not in force: \(DeviceText.text(error, limit: 300))") }
        var rows = [["SETTING", "VALUE", "SOURCE"]]
        for (path, value) in leaves(report.settings, path: "") {
            rows.append([DeviceText.text(path), DeviceText.text(text(value)), source(of: path, in: report)])
        }
        return lines.joined(separator: "\n") + "\n" + TextTable.render(rows)
    }

    /// Every non-object value under `members`, by dotted path: services in the contract's order, then the
    /// other fields sorted.
    static func leaves(_ members: [String: JSONValue], path: String) -> [(String, JSONValue)] {
        let order = ["services"] + MotionService.allCases.map(\.topicName)
        let keys = members.keys.sorted { a, b in
            switch (order.firstIndex(of: a), order.firstIndex(of: b)) {
            case let (x?, y?): x < y
            case (_?, nil): true
            case (nil, _?): false
            case (nil, nil): a < b
            }
        }
        return keys.flatMap { key -> [(String, JSONValue)] in
            let child = path.isEmpty ? key : "\(path).\(key)"
            if case .object(let nested) = members[key]! { return leaves(nested, path: child) }
            return [(child, members[key]!)]
        }
    }

    private static func text(_ value: JSONValue) -> String {
        switch value {
        case .string(let string): string
        case .integer(let integer): String(integer)
        case .real(let real): real == real.rounded() && abs(real) < 1e15 ? String(Int64(real)) : String(real)
        case .bool(let flag): String(flag)
        case .null: "null"
        case .array, .object: String(decoding: JSONWriter.canonical(value: value), as: UTF8.self)
        }
    }

    /// The source of the part `path` belongs to (`services.gyro.qos` → `services.gyro`).
    private static func source(of path: String, in report: ConfigurationReport) -> String {
        let part = ConfigurationReport.parts.first { path == $0 || path.hasPrefix($0 + ".") }
        return part.flatMap { report.sources[$0]?.rawValue } ?? "file"
    }
}
