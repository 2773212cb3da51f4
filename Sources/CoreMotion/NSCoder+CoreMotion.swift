import Foundation

// The keyed values the data classes archive themselves with (NSSecureCoding): doubles under their own
// names, a vector as three (`acceleration.x`, …), a date as seconds since 1970. An archive written on
// Linux is read on Linux (Apple's archives name Apple's classes and keys).
extension NSCoder {
    /// Writes `x`, `y` and `z` under `key.x`, `key.y` and `key.z`.
    func encodeVector(x: Double, y: Double, z: Double, forKey key: String) {
        encode(x, forKey: key + ".x")
        encode(y, forKey: key + ".y")
        encode(z, forKey: key + ".z")
    }

    /// The vector under `key`, or nil when a component is missing.
    func decodeVector(forKey key: String) -> (x: Double, y: Double, z: Double)? {
        guard let x = decodeRequiredDouble(forKey: key + ".x"), let y = decodeRequiredDouble(forKey: key + ".y"),
            let z = decodeRequiredDouble(forKey: key + ".z")
        else { return nil }
        return (x, y, z)
    }

    /// The double under `key`, or nil when the archive has none (`decodeDouble` would say 0).
    func decodeRequiredDouble(forKey key: String) -> Double? {
        containsValue(forKey: key) ? decodeDouble(forKey: key) : nil
    }

    /// Writes `value` under `key` when there is one (absent keys decode as nil).
    func encodeIfPresent(_ value: Double?, forKey key: String) {
        if let value { encode(value, forKey: key) }
    }

    /// Writes a date as seconds since 1970 under `key`.
    func encode(date: Date, forKey key: String) {
        encode(date.timeIntervalSince1970, forKey: key)
    }

    /// The date under `key`, or nil when the archive has none.
    func decodeDate(forKey key: String) -> Date? {
        decodeRequiredDouble(forKey: key).map(Date.init(timeIntervalSince1970:))
    }

    /// Writes a recorded sample's batch (`identifier`, its bits as a signed 64-bit integer) and wall-clock
    /// time (`startDate`).
    func encodeRecording(identifier: UInt64, startDate: Date) {
        encode(Int64(bitPattern: identifier), forKey: "identifier")
        encode(date: startDate, forKey: "startDate")
    }

    /// A recorded sample's batch and wall-clock time, or nil when either is missing.
    func decodeRecording() -> (identifier: UInt64, startDate: Date)? {
        guard containsValue(forKey: "identifier"), let startDate = decodeDate(forKey: "startDate") else { return nil }
        return (UInt64(bitPattern: decodeInt64(forKey: "identifier")), startDate)
    }
}
