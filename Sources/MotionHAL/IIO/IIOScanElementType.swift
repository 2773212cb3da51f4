import MotionMath

/// How one channel is stored in an IIO buffer record, as its `scan_elements/*_type` attribute says.
///
/// The text form is the kernel's (`iio_show_fixed_type` in drivers/iio/industrialio-buffer.c, documented
/// in Documentation/ABI/testing/sysfs-bus-iio under `scan_elements/<type>[_name]_type`):
/// `[be|le]:[s|u]BITS/STORAGE>>SHIFT`, or `[be|le]:[s|u]BITS/STORAGEXREPEAT>>SHIFT` for a repeated
/// element. Examples: `le:s16/16>>0` (a little-endian 16-bit signed value), `be:s12/16>>4` (12 signed bits
/// in the top of a big-endian 16-bit word), `le:s64/64>>0` (the timestamp).
///
/// Decoding is the kernel tools' (tools/iio/iio_generic_buffer.c): the storage word in its byte order,
/// shifted right by `shift`, masked to `bits`, sign-extended from bit `bits − 1` when signed.
public struct IIOScanElementType: Sendable, Equatable, CustomStringConvertible {
    /// Byte order of the storage word.
    public enum Endianness: String, Sendable {
        /// Least significant byte first (`le`).
        case little = "le"
        /// Most significant byte first (`be`).
        case big = "be"
    }

    /// Byte order of the storage word.
    public var endianness: Endianness
    /// Whether the value is two's complement (`s`) rather than unsigned (`u`).
    public var isSigned: Bool
    /// Bits that carry the value ("realbits"), 1...`storageBits`.
    public var bits: Int
    /// Size of the storage word in bits: 8, 16, 32 or 64.
    public var storageBits: Int
    /// How many values of this type the element holds (1 unless the text has `X`).
    public var repeatCount: Int
    /// How far the value sits above bit 0 of the storage word.
    public var shift: Int

    /// Creates a type from its fields (no check; ``init(parsing:file:)`` checks).
    /// - Parameters:
    ///   - endianness: byte order of the storage word.
    ///   - isSigned: two's complement.
    ///   - bits: bits carrying the value.
    ///   - storageBits: size of the storage word, bits.
    ///   - repeatCount: values in the element.
    ///   - shift: position of the value's lowest bit.
    public init(
        endianness: Endianness, isSigned: Bool, bits: Int, storageBits: Int, repeatCount: Int = 1, shift: Int = 0
    ) {
        self.endianness = endianness
        self.isSigned = isSigned
        self.bits = bits
        self.storageBits = storageBits
        self.repeatCount = repeatCount
        self.shift = shift
    }

    /// Parses the text of a `*_type` attribute (trailing line break ignored).
    /// - Parameters:
    ///   - text: the attribute's contents, e.g. `le:s16/16>>0`.
    ///   - file: the attribute's path, named in the error.
    /// - Throws: ``IMUDeviceError/unavailable(_:)`` naming `file`, quoting `text` and saying what is wrong.
    public init(parsing text: String, file: String) throws(IMUDeviceError) {
        func failure(_ why: String) -> IMUDeviceError {
            .unavailable("\(file): '\(text)' is not a scan element type ([be|le]:[s|u]BITS/STORAGE>>SHIFT): \(why)")
        }
        let trimmed = Substring(text).trimmingBlanks()
        guard let colon = trimmed.firstIndex(of: ":") else { throw failure("no ':' after the byte order") }
        guard let endianness = Endianness(rawValue: String(trimmed[..<colon])) else {
            throw failure("byte order '\(trimmed[..<colon])' is neither 'le' nor 'be'")
        }
        var rest = trimmed[trimmed.index(after: colon)...]
        guard let sign = rest.first, sign == "s" || sign == "u" else {
            throw failure("sign '\(rest.prefix(1))' is neither 's' nor 'u'")
        }
        rest = rest.dropFirst()
        guard let slash = rest.firstIndex(of: "/"), let bits = Int(rest[..<slash]) else {
            throw failure("no number of bits before '/'")
        }
        rest = rest[rest.index(after: slash)...]
        guard let marker = rest.firstIndex(of: ">"), rest[marker...].hasPrefix(">>") else {
            throw failure("no '>>SHIFT' at the end")
        }
        let shiftText = rest[rest.index(marker, offsetBy: 2)...]
        guard let shift = Int(shiftText) else { throw failure("shift '\(shiftText)' is not a number") }
        let storage = rest[..<marker]
        var repeatCount = 1
        let storageText: Substring
        if let repeatMarker = storage.firstIndex(of: "X") {
            let countText = storage[storage.index(after: repeatMarker)...]
            guard let count = Int(countText), count >= 1 else {
                throw failure("repeat count '\(countText)' is not a positive number")
            }
            repeatCount = count
            storageText = storage[..<repeatMarker]
        } else {
            storageText = storage
        }
        guard let storageBits = Int(storageText) else { throw failure("storage size '\(storageText)' is not a number") }
        guard [8, 16, 32, 64].contains(storageBits) else {
            throw failure("storage of \(storageBits) bits (8, 16, 32 or 64)")
        }
        guard (1...storageBits).contains(bits) else {
            throw failure("\(bits) bits do not fit \(storageBits) bits of storage")
        }
        guard shift >= 0, shift + bits <= storageBits else {
            throw failure("\(bits) bits shifted by \(shift) do not fit \(storageBits) bits of storage")
        }
        self.init(
            endianness: endianness, isSigned: sign == "s", bits: bits, storageBits: storageBits,
            repeatCount: repeatCount, shift: shift)
    }

    /// Bytes the element takes in a record: the storage word times the repeat count.
    public var storageBytes: Int { storageBits / 8 * repeatCount }

    /// The smallest and largest value the element can hold.
    public var valueRange: ClosedRange<Int64> {
        if isSigned {
            let magnitude = Int64(1) << (bits - 1)
            return bits == 64 ? Int64.min...Int64.max : -magnitude...(magnitude - 1)
        }
        return bits >= 63 ? 0...Int64.max : 0...((Int64(1) << bits) - 1)
    }

    /// Decodes the (first) value of the element that starts at `offset` in `record`.
    /// - Parameters:
    ///   - record: a buffer record.
    ///   - offset: where the element starts, bytes; `offset + storageBits / 8` must not exceed the record.
    /// - Returns: the value, sign-extended when signed (an unsigned 64-bit value keeps its bit pattern).
    public func decode(_ record: UnsafeRawBufferPointer, at offset: Int) -> Int64 {
        let count = storageBits / 8
        var word: UInt64 = 0
        for index in 0..<count {
            let byte = UInt64(record[offset + (endianness == .big ? index : count - 1 - index)])
            word = word << 8 | byte
        }
        word >>= UInt64(shift)
        if bits < 64 { word &= (UInt64(1) << UInt64(bits)) - 1 }
        guard isSigned, bits < 64 else { return Int64(bitPattern: word) }
        let unused = UInt64(64 - bits)
        return Int64(bitPattern: word << unused) >> unused
    }

    /// The kernel's text form, e.g. `le:s16/16>>0`.
    public var description: String {
        let repeatPart = repeatCount > 1 ? "X\(repeatCount)" : ""
        return "\(endianness.rawValue):\(isSigned ? "s" : "u")\(bits)/\(storageBits)\(repeatPart)>>\(shift)"
    }
}
