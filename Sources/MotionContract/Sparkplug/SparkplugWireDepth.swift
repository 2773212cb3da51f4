import CSparkplugB

/// How deeply a Sparkplug B payload's messages nest, read from the protobuf wire format without building
/// anything, before protobuf-c unpacks it.
///
/// protobuf-c's `unpack` recurses once per nested message, and the schema lets messages nest without end:
/// a metric's template holds metrics (`Metric.template_value` → `Template.metrics`), a property's value is a
/// property set (`PropertyValue.propertyset_value` → `PropertySet.values`). A crafted command of 256 KiB
/// could nest some 40 000 deep and exhaust the stack of the thread that reads it. This walk is iterative
/// (its stack is an array) and learns which field of which message is a message from protobuf-c's own
/// generated descriptors (the schema's one source), so it measures the depth protobuf-c would reach and
/// refuses the payload first. Unknown fields are skipped as protobuf-c skips them (kept as bytes, not
/// parsed).
enum SparkplugWireDepth {
    /// The deepest nesting read, in messages below the payload: a template in a template in a metric with
    /// a property set of property sets is 8; real user-defined types stay well inside.
    static let maximumDepth = 32

    /// A message type: its generated descriptor (static C data; the copy's field pointers point into it).
    private typealias Message = ProtobufCMessageDescriptor

    /// The message a length-delimited field of `message` holds, or nil for strings, bytes, packed
    /// repeated scalars and unknown fields.
    private static func child(of message: Message, field: UInt64) -> Message? {
        for index in 0..<Int(message.n_fields) {
            let member = message.fields[index]
            guard UInt64(member.id) == field else { continue }
            guard member.type == PROTOBUF_C_TYPE_MESSAGE, let child = member.descriptor else { return nil }
            return child.assumingMemoryBound(to: ProtobufCMessageDescriptor.self).pointee
        }
        return nil
    }

    /// A message being read: which it is and the offset where its bytes end.
    private struct OpenMessage {
        let message: Message
        let end: Int
    }

    /// What is wrong with a payload's nesting: nil when protobuf-c may read it. (A returned error, not a
    /// thrown one: the caller runs it inside `withUnsafeBufferPointer`, which Swift 6.0 rethrows untyped.)
    /// - Returns: a ``PayloadError`` when messages nest deeper than ``maximumDepth``, or the wire format is
    ///   broken (a truncated field, a length past its message, a group or an unknown wire type).
    static func problem(in bytes: UnsafeBufferPointer<UInt8>) -> PayloadError? {
        // The open messages: what each is and where it ends. The payload itself is the bottom.
        var open: [OpenMessage] = [OpenMessage(message: org__eclipse__tahu__protobuf__payload__descriptor, end: bytes.count)]
        var position = 0
        while let top = open.last {
            let (message, end) = (top.message, top.end)
            if position == end {
                open.removeLast()
                continue
            }
            guard let tag = varint(bytes, at: &position, end: end) else { return cutVarint }
            switch tag & 7 {
            case 0:
                guard varint(bytes, at: &position, end: end) != nil else { return cutVarint }
            case 1, 5:
                let size = tag & 7 == 1 ? 8 : 4
                guard end - position >= size else { return broken("a fixed-size field is cut off") }
                position += size
            case 2:
                guard let length = varint(bytes, at: &position, end: end) else { return cutVarint }
                guard length <= UInt64(end - position) else { return broken("a field's length runs past its message") }
                if let child = child(of: message, field: tag >> 3) {
                    guard open.count <= maximumDepth else {
                        return PayloadError(fieldPath: "", reason: "messages nested deeper than \(maximumDepth)")
                    }
                    open.append(OpenMessage(message: child, end: position + Int(length)))
                } else {
                    position += Int(length)
                }
            default: return broken("wire type \(tag & 7) (groups are not protobuf 2's Sparkplug)")
            }
        }
        return nil
    }

    /// A varint at `position` (moved past it); nil when it is cut off by `end` or longer than 10 bytes.
    private static func varint(_ bytes: UnsafeBufferPointer<UInt8>, at position: inout Int, end: Int) -> UInt64? {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while position < end, shift < 64 {
            let byte = bytes[position]
            position += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return value }
            shift += 7
        }
        return nil
    }

    private static var cutVarint: PayloadError { broken("a varint is cut off or longer than 10 bytes") }

    private static func broken(_ what: String) -> PayloadError {
        PayloadError(fieldPath: "", reason: "not a Sparkplug B payload (protobuf): \(what)")
    }
}
