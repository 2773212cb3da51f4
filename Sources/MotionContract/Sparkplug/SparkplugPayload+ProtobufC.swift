import CSparkplugB

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

private typealias CPayload = Org__Eclipse__Tahu__Protobuf__Payload
private typealias CMetric = Org__Eclipse__Tahu__Protobuf__Payload__Metric
private typealias CPropertySet = Org__Eclipse__Tahu__Protobuf__Payload__PropertySet
private typealias CPropertyValue = Org__Eclipse__Tahu__Protobuf__Payload__PropertyValue

// The payload through protobuf-c: encoding builds the generated C structures in memory that lives for the
// call, `pack`s them into one array and frees them; decoding `unpack`s (protobuf-c checks the wire format
// and the UTF-8 of strings) and converts, checking that each value is of its metric's datatype.
extension SparkplugPayload {
    /// The payload's bytes (protobuf wire format).
    public func encoded() -> [UInt8] {
        let memory = CAllocations()
        defer { memory.freeAll() }
        var payload = CPayload()
        org__eclipse__tahu__protobuf__payload__init(&payload)
        if let timestamp {
            payload.has_timestamp = 1
            payload.timestamp = timestamp
        }
        if let seq {
            payload.has_seq = 1
            payload.seq = seq
        }
        payload.uuid = uuid.map(memory.string)
        if let body {
            payload.has_body = 1
            payload.body = memory.binary(body)
        }
        payload.n_metrics = metrics.count
        payload.metrics = memory.pointers(to: metrics.map { memory.metric($0) })
        let size = org__eclipse__tahu__protobuf__payload__get_packed_size(&payload)
        var bytes = [UInt8](repeating: 0, count: size)
        let written = bytes.withUnsafeMutableBufferPointer { buffer in
            org__eclipse__tahu__protobuf__payload__pack(&payload, buffer.baseAddress)
        }
        precondition(written == size, "protobuf-c packed \(written) of \(size) bytes")
        return bytes
    }

    /// Reads a payload.
    /// - Throws: ``PayloadError`` when the bytes are not a Sparkplug B payload, are larger than
    ///   ``maximumDecodedSize``, nest messages deeper than protobuf-c may safely recurse (see
    ///   `SparkplugWireDepth`), or a metric's value is not of its datatype.
    public init(decoding bytes: [UInt8]) throws(PayloadError) {
        guard bytes.count <= Self.maximumDecodedSize else {
            throw PayloadError(fieldPath: "", reason: "payload of \(bytes.count) bytes exceeds \(Self.maximumDecodedSize)")
        }
        // Not a typed throw through the closure: Swift 6.0's withUnsafeBufferPointer rethrows `any Error`.
        var problem: PayloadError?
        let unpacked = bytes.withUnsafeBufferPointer { buffer in
            problem = SparkplugWireDepth.problem(in: buffer)
            return problem == nil ? org__eclipse__tahu__protobuf__payload__unpack(nil, buffer.count, buffer.baseAddress) : nil
        }
        if let problem { throw problem }
        guard let unpacked else { throw PayloadError(fieldPath: "", reason: "not a Sparkplug B payload (protobuf)") }
        defer { org__eclipse__tahu__protobuf__payload__free_unpacked(unpacked, nil) }
        let payload = unpacked.pointee
        self.init(
            timestamp: payload.has_timestamp != 0 ? payload.timestamp : nil, seq: payload.has_seq != 0 ? payload.seq : nil)
        uuid = payload.uuid.map { String(cString: $0) }
        if payload.has_body != 0 { body = Array(UnsafeBufferPointer(start: payload.body.data, count: payload.body.len)) }
        metrics.reserveCapacity(payload.n_metrics)
        for index in 0..<payload.n_metrics {
            guard let metric = payload.metrics[index] else { continue }
            metrics.append(try SparkplugMetric(metric.pointee, fieldPath: "metrics[\(index)]"))
        }
    }
}

extension SparkplugMetric {
    fileprivate init(_ metric: CMetric, fieldPath: String) throws(PayloadError) {
        guard let dataType = SparkplugDataType(rawValue: metric.has_datatype != 0 ? metric.datatype : 0) else {
            throw PayloadError(fieldPath: "\(fieldPath).datatype", reason: "\(metric.datatype) is not a Sparkplug datatype")
        }
        self.init(name: metric.name.map { String(cString: $0) }, nullOf: dataType)
        if metric.has_alias != 0 { alias = metric.alias }
        if metric.has_timestamp != 0 { timestamp = metric.timestamp }
        isHistorical = metric.has_is_historical != 0 && metric.is_historical != 0
        isTransient = metric.has_is_transient != 0 && metric.is_transient != 0
        if let set = metric.properties {
            properties = try SparkplugProperty.decode(set.pointee, fieldPath: "\(fieldPath).properties")
        }
        guard metric.has_is_null == 0 || metric.is_null == 0 else { return }
        let scalar: CScalar?
        switch metric.value_case {
        case ORG__ECLIPSE__TAHU__PROTOBUF__PAYLOAD__METRIC__VALUE_INT_VALUE: scalar = .int(metric.int_value)
        case ORG__ECLIPSE__TAHU__PROTOBUF__PAYLOAD__METRIC__VALUE_LONG_VALUE: scalar = .long(metric.long_value)
        case ORG__ECLIPSE__TAHU__PROTOBUF__PAYLOAD__METRIC__VALUE_FLOAT_VALUE: scalar = .float(metric.float_value)
        case ORG__ECLIPSE__TAHU__PROTOBUF__PAYLOAD__METRIC__VALUE_DOUBLE_VALUE: scalar = .double(metric.double_value)
        case ORG__ECLIPSE__TAHU__PROTOBUF__PAYLOAD__METRIC__VALUE_BOOLEAN_VALUE: scalar = .boolean(metric.boolean_value != 0)
        case ORG__ECLIPSE__TAHU__PROTOBUF__PAYLOAD__METRIC__VALUE_STRING_VALUE: scalar = .string(String(cString: metric.string_value))
        case ORG__ECLIPSE__TAHU__PROTOBUF__PAYLOAD__METRIC__VALUE_BYTES_VALUE:
            scalar = .bytes(Array(UnsafeBufferPointer(start: metric.bytes_value.data, count: metric.bytes_value.len)))
        case ORG__ECLIPSE__TAHU__PROTOBUF__PAYLOAD__METRIC__VALUE__NOT_SET: scalar = nil
        default: scalar = .structured
        }
        guard let scalar else {
            throw PayloadError(fieldPath: fieldPath, reason: "has neither a value nor is_null")
        }
        value = try scalar.value(as: dataType, fieldPath: fieldPath)
    }
}

extension SparkplugProperty {
    fileprivate static func decode(_ set: CPropertySet, fieldPath: String) throws(PayloadError) -> [SparkplugProperty] {
        guard set.n_keys == set.n_values else {
            throw PayloadError(fieldPath: fieldPath, reason: "\(set.n_keys) keys for \(set.n_values) values")
        }
        var properties: [SparkplugProperty] = []
        for index in 0..<set.n_keys {
            guard let key = set.keys[index], let value = set.values[index]?.pointee else { continue }
            let name = String(cString: key)
            guard let dataType = SparkplugDataType(rawValue: value.has_type != 0 ? value.type : 0) else {
                throw PayloadError(fieldPath: "\(fieldPath).\(name)", reason: "\(value.type) is not a Sparkplug datatype")
            }
            if value.has_is_null != 0, value.is_null != 0 {
                // A value a property cannot carry (bytes, arrays, files, nested sets) is written as null of its
                // datatype, and read back as unsupported: so it writes again as it was read.
                let scalar = dataType.rawValue < SparkplugDataType.dataSet.rawValue
                properties.append(SparkplugProperty(name, scalar ? nil : .unsupported(dataType)))
                continue
            }
            let scalar: CScalar
            switch value.value_case {
            case ORG__ECLIPSE__TAHU__PROTOBUF__PAYLOAD__PROPERTY_VALUE__VALUE_INT_VALUE: scalar = .int(value.int_value)
            case ORG__ECLIPSE__TAHU__PROTOBUF__PAYLOAD__PROPERTY_VALUE__VALUE_LONG_VALUE: scalar = .long(value.long_value)
            case ORG__ECLIPSE__TAHU__PROTOBUF__PAYLOAD__PROPERTY_VALUE__VALUE_FLOAT_VALUE: scalar = .float(value.float_value)
            case ORG__ECLIPSE__TAHU__PROTOBUF__PAYLOAD__PROPERTY_VALUE__VALUE_DOUBLE_VALUE: scalar = .double(value.double_value)
            case ORG__ECLIPSE__TAHU__PROTOBUF__PAYLOAD__PROPERTY_VALUE__VALUE_BOOLEAN_VALUE: scalar = .boolean(value.boolean_value != 0)
            case ORG__ECLIPSE__TAHU__PROTOBUF__PAYLOAD__PROPERTY_VALUE__VALUE_STRING_VALUE: scalar = .string(String(cString: value.string_value))
            case ORG__ECLIPSE__TAHU__PROTOBUF__PAYLOAD__PROPERTY_VALUE__VALUE__NOT_SET:
                throw PayloadError(fieldPath: "\(fieldPath).\(name)", reason: "has neither a value nor is_null")
            default: scalar = .structured
            }
            properties.append(SparkplugProperty(name, try scalar.value(as: dataType, fieldPath: "\(fieldPath).\(name)")))
        }
        return properties
    }
}

/// A value as the wire carries it, before its datatype says what it is.
private enum CScalar {
    case int(UInt32), long(UInt64), float(Float), double(Double), boolean(Bool), string(String), bytes([UInt8])
    /// A data set, template, property set or extension.
    case structured

    /// How `value` travels: an 8- or 16-bit integer as its own bits (Int8 −1 is 0xFF), a 32-bit one as its
    /// bit pattern; a value this implementation cannot write as `structured` (sent as null).
    init(_ value: SparkplugValue) {
        switch value {
        case .int8(let value): self = .int(UInt32(UInt8(bitPattern: value)))
        case .int16(let value): self = .int(UInt32(UInt16(bitPattern: value)))
        case .int32(let value): self = .int(UInt32(bitPattern: value))
        case .uint8(let value): self = .int(UInt32(value))
        case .uint16(let value): self = .int(UInt32(value))
        case .uint32(let value): self = .int(value)
        case .int64(let value): self = .long(UInt64(bitPattern: value))
        case .uint64(let value), .dateTime(let value): self = .long(value)
        case .float(let value): self = .float(value)
        case .double(let value): self = .double(value)
        case .boolean(let value): self = .boolean(value)
        case .string(let text), .text(let text), .uuid(let text): self = .string(text)
        case .bytes(let bytes): self = .bytes(bytes)
        case .unsupported: self = .structured
        }
    }

    func value(as dataType: SparkplugDataType, fieldPath: String) throws(PayloadError) -> SparkplugValue {
        switch (dataType, self) {
        case (.int8, .int(let bits)): return .int8(Int8(truncatingIfNeeded: Int32(bitPattern: bits)))
        case (.int16, .int(let bits)): return .int16(Int16(truncatingIfNeeded: Int32(bitPattern: bits)))
        case (.int32, .int(let bits)): return .int32(Int32(bitPattern: bits))
        case (.uint8, .int(let bits)): return .uint8(UInt8(truncatingIfNeeded: bits))
        case (.uint16, .int(let bits)): return .uint16(UInt16(truncatingIfNeeded: bits))
        case (.uint32, .int(let bits)): return .uint32(bits)
        case (.int64, .long(let bits)): return .int64(Int64(bitPattern: bits))
        case (.uint64, .long(let bits)): return .uint64(bits)
        case (.dateTime, .long(let bits)): return .dateTime(bits)
        case (.float, .float(let value)): return .float(value)
        case (.double, .double(let value)): return .double(value)
        case (.boolean, .boolean(let value)): return .boolean(value)
        case (.string, .string(let value)): return .string(value)
        case (.text, .string(let value)): return .text(value)
        case (.uuid, .string(let value)): return .uuid(value)
        case (.bytes, .bytes(let value)): return .bytes(value)
        // No datatype (a command or data message leaves it to the birth): the wire's type.
        case (.unknown, .int(let bits)): return .uint32(bits)
        case (.unknown, .long(let bits)): return .uint64(bits)
        case (.unknown, .float(let value)): return .float(value)
        case (.unknown, .double(let value)): return .double(value)
        case (.unknown, .boolean(let value)): return .boolean(value)
        case (.unknown, .string(let value)): return .string(value)
        case (.unknown, .bytes(let value)): return .bytes(value)
        case (.file, _), (.dataSet, _), (.template, _), (.propertySet, _), (.propertySetList, _), (.unknown, .structured):
            return .unsupported(dataType)
        case (_, .bytes) where dataType.rawValue >= SparkplugDataType.int8Array.rawValue: return .unsupported(dataType)
        default: throw PayloadError(fieldPath: fieldPath, reason: "the value is not of its datatype \(dataType.name)")
        }
    }
}

/// The C memory of one encoding: every block is freed by ``freeAll()``.
private final class CAllocations {
    private var blocks: [UnsafeMutableRawPointer] = []

    func freeAll() {
        for block in blocks { free(block) }
        blocks.removeAll()
    }

    private func allocate<T>(_ type: T.Type, count: Int) -> UnsafeMutablePointer<T> {
        guard let raw = calloc(max(count, 1), MemoryLayout<T>.stride) else { fatalError("out of memory") }
        blocks.append(raw)
        return raw.bindMemory(to: T.self, capacity: max(count, 1))
    }

    func string(_ text: String) -> UnsafeMutablePointer<CChar> {
        let utf8 = Array(text.utf8)
        let pointer = allocate(CChar.self, count: utf8.count + 1)
        for (index, byte) in utf8.enumerated() { pointer[index] = CChar(bitPattern: byte) }
        return pointer
    }

    func binary(_ bytes: [UInt8]) -> ProtobufCBinaryData {
        let pointer = allocate(UInt8.self, count: bytes.count)
        pointer.update(from: bytes, count: bytes.count)
        return ProtobufCBinaryData(len: bytes.count, data: pointer)
    }

    func pointers<T>(to items: [UnsafeMutablePointer<T>]) -> UnsafeMutablePointer<UnsafeMutablePointer<T>?> {
        let array = allocate(UnsafeMutablePointer<T>?.self, count: items.count)
        for (index, item) in items.enumerated() { array[index] = item }
        return array
    }

    func metric(_ metric: SparkplugMetric) -> UnsafeMutablePointer<CMetric> {
        let pointer = allocate(CMetric.self, count: 1)
        org__eclipse__tahu__protobuf__payload__metric__init(pointer)
        pointer.pointee.name = metric.name.map(string)
        if let alias = metric.alias {
            pointer.pointee.has_alias = 1
            pointer.pointee.alias = alias
        }
        if let timestamp = metric.timestamp {
            pointer.pointee.has_timestamp = 1
            pointer.pointee.timestamp = timestamp
        }
        // A metric sent by alias alone leaves its datatype to the birth (Sparkplug 3.0: data and commands
        // should omit it).
        if metric.name != nil || metric.alias == nil {
            pointer.pointee.has_datatype = 1
            pointer.pointee.datatype = metric.dataType.rawValue
        }
        if metric.isHistorical {
            pointer.pointee.has_is_historical = 1
            pointer.pointee.is_historical = 1
        }
        if metric.isTransient {
            pointer.pointee.has_is_transient = 1
            pointer.pointee.is_transient = 1
        }
        if !metric.properties.isEmpty { pointer.pointee.properties = propertySet(metric.properties) }
        guard let value = metric.value else {
            pointer.pointee.has_is_null = 1
            pointer.pointee.is_null = 1
            return pointer
        }
        switch CScalar(value) {
        case .int(let bits):
            pointer.pointee.value_case = ORG__ECLIPSE__TAHU__PROTOBUF__PAYLOAD__METRIC__VALUE_INT_VALUE
            pointer.pointee.int_value = bits
        case .long(let bits):
            pointer.pointee.value_case = ORG__ECLIPSE__TAHU__PROTOBUF__PAYLOAD__METRIC__VALUE_LONG_VALUE
            pointer.pointee.long_value = bits
        case .float(let value):
            pointer.pointee.value_case = ORG__ECLIPSE__TAHU__PROTOBUF__PAYLOAD__METRIC__VALUE_FLOAT_VALUE
            pointer.pointee.float_value = value
        case .double(let value):
            pointer.pointee.value_case = ORG__ECLIPSE__TAHU__PROTOBUF__PAYLOAD__METRIC__VALUE_DOUBLE_VALUE
            pointer.pointee.double_value = value
        case .boolean(let value):
            pointer.pointee.value_case = ORG__ECLIPSE__TAHU__PROTOBUF__PAYLOAD__METRIC__VALUE_BOOLEAN_VALUE
            pointer.pointee.boolean_value = value ? 1 : 0
        case .string(let text):
            pointer.pointee.value_case = ORG__ECLIPSE__TAHU__PROTOBUF__PAYLOAD__METRIC__VALUE_STRING_VALUE
            pointer.pointee.string_value = string(text)
        case .bytes(let bytes):
            pointer.pointee.value_case = ORG__ECLIPSE__TAHU__PROTOBUF__PAYLOAD__METRIC__VALUE_BYTES_VALUE
            pointer.pointee.bytes_value = binary(bytes)
        case .structured:
            pointer.pointee.has_is_null = 1
            pointer.pointee.is_null = 1
        }
        return pointer
    }

    private func propertySet(_ properties: [SparkplugProperty]) -> UnsafeMutablePointer<CPropertySet> {
        let set = allocate(CPropertySet.self, count: 1)
        org__eclipse__tahu__protobuf__payload__property_set__init(set)
        set.pointee.n_keys = properties.count
        set.pointee.keys = pointers(to: properties.map { string($0.key) })
        set.pointee.n_values = properties.count
        set.pointee.values = pointers(to: properties.map { propertyValue($0.value) })
        return set
    }

    private func propertyValue(_ value: SparkplugValue?) -> UnsafeMutablePointer<CPropertyValue> {
        let pointer = allocate(CPropertyValue.self, count: 1)
        org__eclipse__tahu__protobuf__payload__property_value__init(pointer)
        pointer.pointee.has_type = 1
        pointer.pointee.type = value?.dataType.rawValue ?? SparkplugDataType.unknown.rawValue
        switch value.map(CScalar.init) {
        case .int(let bits):
            pointer.pointee.value_case = ORG__ECLIPSE__TAHU__PROTOBUF__PAYLOAD__PROPERTY_VALUE__VALUE_INT_VALUE
            pointer.pointee.int_value = bits
        case .long(let bits):
            pointer.pointee.value_case = ORG__ECLIPSE__TAHU__PROTOBUF__PAYLOAD__PROPERTY_VALUE__VALUE_LONG_VALUE
            pointer.pointee.long_value = bits
        case .float(let value):
            pointer.pointee.value_case = ORG__ECLIPSE__TAHU__PROTOBUF__PAYLOAD__PROPERTY_VALUE__VALUE_FLOAT_VALUE
            pointer.pointee.float_value = value
        case .double(let value):
            pointer.pointee.value_case = ORG__ECLIPSE__TAHU__PROTOBUF__PAYLOAD__PROPERTY_VALUE__VALUE_DOUBLE_VALUE
            pointer.pointee.double_value = value
        case .boolean(let value):
            pointer.pointee.value_case = ORG__ECLIPSE__TAHU__PROTOBUF__PAYLOAD__PROPERTY_VALUE__VALUE_BOOLEAN_VALUE
            pointer.pointee.boolean_value = value ? 1 : 0
        case .string(let text):
            pointer.pointee.value_case = ORG__ECLIPSE__TAHU__PROTOBUF__PAYLOAD__PROPERTY_VALUE__VALUE_STRING_VALUE
            pointer.pointee.string_value = string(text)
        case .bytes, .structured, nil:
            // A property cannot carry bytes: written as null.
            pointer.pointee.has_is_null = 1
            pointer.pointee.is_null = 1
        }
        return pointer
    }
}
