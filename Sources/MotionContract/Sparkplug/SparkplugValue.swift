/// The value of a Sparkplug B metric or property, typed as its datatype says (Sparkplug 3.0, section 6.4.16).
///
/// On the wire the 8-to-32-bit integers travel in `int_value` (uint32; a negative value as its two's
/// complement in its own width: Int8 −1 is 0xFF; one sign-extended to 32 bits is read too), the 64-bit integers and `DateTime` in `long_value`, `Text`
/// and `UUID` in `string_value`, `File` and the arrays in `bytes_value`. The structured datatypes (data
/// sets, templates, property sets as metric values) are not produced by MotionBridge: a received one
/// decodes as ``unsupported(_:)``.
public enum SparkplugValue: Sendable, Equatable {
    case int8(Int8), int16(Int16), int32(Int32), int64(Int64)
    case uint8(UInt8), uint16(UInt16), uint32(UInt32), uint64(UInt64)
    case float(Float), double(Double), boolean(Bool)
    case string(String), text(String), uuid(String)
    /// Milliseconds since the Unix epoch (UTC).
    case dateTime(UInt64)
    case bytes([UInt8])
    /// A value of a datatype this implementation does not read (data set, template, array, …).
    case unsupported(SparkplugDataType)

    /// The datatype the value is of. A value read from a metric that gave no datatype (a command or data
    /// message leaves it to the birth) has the wire's: `UInt32`, `UInt64`, `Float`, `Double`, `Boolean`,
    /// `String` or `Bytes`.
    public var dataType: SparkplugDataType {
        switch self {
        case .int8: .int8
        case .int16: .int16
        case .int32: .int32
        case .int64: .int64
        case .uint8: .uint8
        case .uint16: .uint16
        case .uint32: .uint32
        case .uint64: .uint64
        case .float: .float
        case .double: .double
        case .boolean: .boolean
        case .string: .string
        case .text: .text
        case .uuid: .uuid
        case .dateTime: .dateTime
        case .bytes: .bytes
        case .unsupported(let type): type
        }
    }

    /// The value as a number, for a command that takes one whatever integer or float datatype the host
    /// chose; nil for the others.
    public var number: Double? {
        switch self {
        case .int8(let value): Double(value)
        case .int16(let value): Double(value)
        case .int32(let value): Double(value)
        case .int64(let value): Double(value)
        case .uint8(let value): Double(value)
        case .uint16(let value): Double(value)
        case .uint32(let value): Double(value)
        case .uint64(let value): Double(value)
        case .float(let value): Double(value)
        case .double(let value): value
        default: nil
        }
    }

    /// The value as a whole number, for an integer datatype whose value fits (`bdSeq` is Int64); nil for
    /// the others.
    public var integer: Int64? {
        switch self {
        case .int8(let value): Int64(value)
        case .int16(let value): Int64(value)
        case .int32(let value): Int64(value)
        case .int64(let value): value
        case .uint8(let value): Int64(value)
        case .uint16(let value): Int64(value)
        case .uint32(let value): Int64(value)
        case .uint64(let value): Int64(exactly: value)
        default: nil
        }
    }

    /// The text of a String, Text or UUID value; nil for the others.
    public var text: String? {
        switch self {
        case .string(let text), .text(let text), .uuid(let text): text
        default: nil
        }
    }
}

/// One entry of a metric's property set (Sparkplug 3.0, section 6.4.10): a key and its typed value, for
/// example `engUnit` = `m/s2`.
public struct SparkplugProperty: Sendable, Equatable {
    /// The property's key.
    public var key: String
    /// Its value; `nil` for an explicit null.
    public var value: SparkplugValue?

    /// A property.
    public init(_ key: String, _ value: SparkplugValue?) {
        self.key = key
        self.value = value
    }

    /// The key of a metric's engineering unit, the one property Sparkplug hosts (Ignition among them) read
    /// as the unit.
    public static let engineeringUnitKey = "engUnit"
}

/// A Sparkplug B metric (Sparkplug 3.0, section 6.4.4): a name (in births and commands) or an alias (in
/// data), the time the value was acquired and the value with its datatype.
public struct SparkplugMetric: Sendable, Equatable {
    /// The metric's name, `/` separating folders (`Control/Interval`); nil when only the alias is sent.
    public var name: String?
    /// The alias a birth ties to the name, unique in the edge node; nil when none is used.
    public var alias: UInt64?
    /// When the value was acquired, ms since the Unix epoch (UTC).
    public var timestamp: UInt64?
    /// The metric's datatype (also for a null value).
    public var dataType: SparkplugDataType
    /// Whether the value was stored and is forwarded late: a host records it but does not take it as the
    /// live value.
    public var isHistorical = false
    /// Whether a host should not store the value.
    public var isTransient = false
    /// The value; nil for `is_null` (a metric declared in a birth before it has a value).
    public var value: SparkplugValue?
    /// The metric's properties (the engineering unit, …).
    public var properties: [SparkplugProperty] = []

    /// A metric with a value (its datatype the value's).
    public init(name: String?, alias: UInt64? = nil, timestamp: UInt64? = nil, value: SparkplugValue) {
        self.name = name
        self.alias = alias
        self.timestamp = timestamp
        self.dataType = value.dataType
        self.value = value
    }

    /// A metric with no value yet (`is_null`).
    public init(name: String?, alias: UInt64? = nil, timestamp: UInt64? = nil, nullOf dataType: SparkplugDataType) {
        self.name = name
        self.alias = alias
        self.timestamp = timestamp
        self.dataType = dataType
        self.value = nil
    }

    /// The `engUnit` property's text, if the metric has one.
    public var engineeringUnit: String? {
        for property in properties where property.key == SparkplugProperty.engineeringUnitKey {
            if case .string(let unit) = property.value { return unit }
        }
        return nil
    }
}
