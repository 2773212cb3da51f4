/// The datatype of a Sparkplug B metric or property (Sparkplug 3.0, section 6.4.16 "Datatypes"): the values
/// the payload's `datatype` and `type` fields hold.
public enum SparkplugDataType: UInt32, Sendable, CaseIterable {
    case unknown = 0
    case int8 = 1, int16 = 2, int32 = 3, int64 = 4
    case uint8 = 5, uint16 = 6, uint32 = 7, uint64 = 8
    case float = 9, double = 10, boolean = 11, string = 12
    /// Milliseconds since the Unix epoch (UTC), carried as a `long_value`.
    case dateTime = 13
    case text = 14
    case uuid = 15
    case dataSet = 16
    case bytes = 17
    case file = 18
    case template = 19
    case propertySet = 20
    case propertySetList = 21
    case int8Array = 22, int16Array = 23, int32Array = 24, int64Array = 25
    case uint8Array = 26, uint16Array = 27, uint32Array = 28, uint64Array = 29
    case floatArray = 30, doubleArray = 31, booleanArray = 32, stringArray = 33, dateTimeArray = 34

    /// The specification's name (`Int8`, `UInt64`, `DateTime`, …).
    public var name: String {
        switch self {
        case .unknown: "Unknown"
        case .int8: "Int8"
        case .int16: "Int16"
        case .int32: "Int32"
        case .int64: "Int64"
        case .uint8: "UInt8"
        case .uint16: "UInt16"
        case .uint32: "UInt32"
        case .uint64: "UInt64"
        case .float: "Float"
        case .double: "Double"
        case .boolean: "Boolean"
        case .string: "String"
        case .dateTime: "DateTime"
        case .text: "Text"
        case .uuid: "UUID"
        case .dataSet: "DataSet"
        case .bytes: "Bytes"
        case .file: "File"
        case .template: "Template"
        case .propertySet: "PropertySet"
        case .propertySetList: "PropertySetList"
        case .int8Array: "Int8Array"
        case .int16Array: "Int16Array"
        case .int32Array: "Int32Array"
        case .int64Array: "Int64Array"
        case .uint8Array: "UInt8Array"
        case .uint16Array: "UInt16Array"
        case .uint32Array: "UInt32Array"
        case .uint64Array: "UInt64Array"
        case .floatArray: "FloatArray"
        case .doubleArray: "DoubleArray"
        case .booleanArray: "BooleanArray"
        case .stringArray: "StringArray"
        case .dateTimeArray: "DateTimeArray"
        }
    }
}
