import CCBOR

/// One record of a Sensor Measurement List (SenML, RFC 8428 section 4): a named value with its unit and
/// time; the first record of a pack also carries the base name and base time.
public struct SenMLRecord: Sendable, Equatable {
    /// A record's value: `v` (a number), `vs` (a string) or `vb` (a boolean).
    public enum Value: Sendable, Equatable {
        /// `v`: a measurement, written in single precision (as the native contract's measurements).
        case number(Double)
        /// `v`: a count, written exactly.
        case count(UInt64)
        /// `vs`.
        case string(String)
        /// `vb`.
        case bool(Bool)
    }

    /// `bn`: the base name, prefixed to this and later records' names.
    public var baseName: String?
    /// `bt`: the base time, Unix time, s, added to this and later records' times.
    public var baseTime: Double?
    /// `n`: the name (after the base name).
    public var name: String
    /// `u`: a unit from SenML's registry (`m/s2`, `rad/s`, `T`, `Pa`, …); `nil` for none.
    public var unit: String?
    /// The value.
    public var value: Value
    /// `t`: the time relative to the base time, s; `nil` for 0.
    public var time: Double?

    /// Whether the value can be written: a number must be finite and within single precision's range.
    public var hasWritableValue: Bool {
        guard case .number(let number) = value else { return true }
        return number.isFinite && abs(number) <= Double(Float.greatestFiniteMagnitude)
    }

    /// Creates a record.
    /// - Parameters:
    ///   - name: `n`.
    ///   - unit: `u`.
    ///   - value: `v`, `vs` or `vb`.
    ///   - time: `t`, s relative to the base time.
    public init(name: String, unit: String? = nil, value: Value, time: Double? = nil) {
        self.name = name
        self.unit = unit
        self.value = value
        self.time = time
    }
}

/// A SenML pack: records written as `application/senml+json` (RFC 8428 section 5) or
/// `application/senml+cbor` (section 6, with its integer labels: bn −2, bt −3, n 0, u 1, v 2, vs 3, vb 4,
/// t 6).
///
/// Numbers: base times in double precision; `t` to the microsecond; measurements as the shortest decimal
/// that reads back as the same single-precision float (JSON) or as that float (CBOR), so both encodings
/// carry the same float value (RFC 8428 asks for the same double; a measurement's float is exact in
/// both, and MEMS readings have nothing beyond it).
public struct SenMLPack: Sendable, Equatable {
    /// The records, in order.
    public var records: [SenMLRecord]

    /// A pack of `records`.
    public init(_ records: [SenMLRecord] = []) {
        self.records = records
    }

    /// The pack as SenML JSON: an array of objects.
    public func json() -> [UInt8] {
        JSONWriter.arrayOfObjects(records) { record, writer in
            if let baseName = record.baseName { writer.field("bn", baseName) }
            if let baseTime = record.baseTime { writer.field("bt", baseTime) }
            writer.field("n", record.name)
            if let unit = record.unit { writer.field("u", unit) }
            switch record.value {
            case .number(let number): writer.measurement("v", number)
            case .count(let count): writer.field("v", count)
            case .string(let string): writer.field("vs", string)
            case .bool(let bool): writer.field("vb", bool)
            }
            if let time = record.time { writer.field("t", Self.microseconds(time)) }
        }
    }

    /// The pack as SenML CBOR: an array of maps with integer labels, definite lengths.
    public func cbor() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(records.count * 24)
        func append(_ encode: (UnsafeMutablePointer<UInt8>, Int) -> Int) { bytes.appendCBOR(encode) }
        func label(_ value: Int) {
            if value >= 0 { append { cbor_encode_uint(UInt64(value), $0, $1) } } else { append { cbor_encode_negint(UInt64(-1 - value), $0, $1) } }
        }
        func text(_ string: String) { bytes.appendCBORText(string) }
        func number(_ value: Double) {
            guard value.isFinite else { return append { cbor_encode_null($0, $1) } }
            append { cbor_encode_double(value, $0, $1) }
        }
        append { cbor_encode_array_start(records.count, $0, $1) }
        for record in records {
            let entries = 2 + [record.baseName != nil, record.baseTime != nil, record.unit != nil, record.time != nil].filter { $0 }.count
            append { cbor_encode_map_start(entries, $0, $1) }
            if let baseName = record.baseName {
                label(-2)
                text(baseName)
            }
            if let baseTime = record.baseTime {
                label(-3)
                number(baseTime)
            }
            label(0)
            text(record.name)
            if let unit = record.unit {
                label(1)
                text(unit)
            }
            switch record.value {
            case .number(let value):
                label(2)
                if value.isFinite, abs(value) <= Double(Float.greatestFiniteMagnitude) {
                    append { cbor_encode_single(Float(value), $0, $1) }
                } else {
                    append { cbor_encode_null($0, $1) }
                }
            case .count(let count):
                label(2)
                append { cbor_encode_uint(count, $0, $1) }
            case .string(let string):
                label(3)
                text(string)
            case .bool(let bool):
                label(4)
                append { cbor_encode_bool(bool, $0, $1) }
            }
            if let time = record.time {
                label(6)
                number(Self.microseconds(time))
            }
        }
        return bytes
    }

    /// A relative time rounded to the microsecond (so `0.01` is written as such, not as the float
    /// difference of two Unix times).
    static func microseconds(_ seconds: Double) -> Double { (seconds * 1e6).rounded() / 1e6 }
}
