/// Any key of a JSON object, for listing the keys a file gives.
struct AnyCodingKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        intValue = nil
    }

    init(intValue: Int) {
        stringValue = String(intValue)
        self.intValue = intValue
    }
}

extension Decoder {
    /// Refuses an object with a key that `Key` does not name. Codable's containers skip unknown keys, so a
    /// misspelt optional part (`magnetomter`) would be read as absent without a word; calibration files,
    /// like every other file of ours, refuse it, naming its path.
    /// - Throws: `DecodingError.dataCorrupted` at the unknown key's path.
    func rejectUnknownKeys<Key: CodingKey & CaseIterable>(_: Key.Type) throws {
        let container = try container(keyedBy: AnyCodingKey.self)
        let known = Key.allCases.map(\.stringValue)
        let unknown = container.allKeys.filter { !known.contains($0.stringValue) }.min { $0.stringValue < $1.stringValue }
        if let unknown {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: codingPath + [unknown],
                debugDescription: "is not a known key (one of \(known.sorted().joined(separator: ", ")))"))
        }
    }
}
