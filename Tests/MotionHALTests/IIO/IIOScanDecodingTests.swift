import MotionHAL
import Testing

/// Parsing `scan_elements/*_type`, decoding values exactly as the kernel stores them, and the record layout.
@Suite struct IIOScanDecodingTests {
    private func type(_ text: String) throws -> IIOScanElementType {
        try IIOScanElementType(parsing: text, file: "in_accel_x_type")
    }

    private func decode(_ text: String, _ bytes: [UInt8]) throws -> Int64 {
        let type = try type(text)
        return bytes.withUnsafeBytes { type.decode($0, at: 0) }
    }

    @Test func parsesEveryForm() throws {
        typealias T = IIOScanElementType
        #expect(try type("le:s16/16>>0") == T(endianness: .little, isSigned: true, bits: 16, storageBits: 16))
        #expect(try type("be:s12/16>>4\n") == T(endianness: .big, isSigned: true, bits: 12, storageBits: 16, shift: 4))
        #expect(try type("le:u10/16>>6") == T(endianness: .little, isSigned: false, bits: 10, storageBits: 16, shift: 6))
        #expect(try type("le:s64/64>>0") == T(endianness: .little, isSigned: true, bits: 64, storageBits: 64))
        let repeated = try type("be:u24/32X3>>8")
        #expect(repeated == T(endianness: .big, isSigned: false, bits: 24, storageBits: 32, repeatCount: 3, shift: 8))
        #expect(repeated.storageBytes == 12)
        #expect(repeated.description == "be:u24/32X3>>8")
        #expect(try type("le:s16/16>>0").description == "le:s16/16>>0")
    }

    @Test func littleAndBigEndianSigned16() throws {
        #expect(try decode("le:s16/16>>0", [0x34, 0x12]) == 0x1234)
        #expect(try decode("le:s16/16>>0", [0x00, 0x80]) == -32768)
        #expect(try decode("le:s16/16>>0", [0xFF, 0x7F]) == 32767)
        #expect(try decode("be:s16/16>>0", [0x12, 0x34]) == 0x1234)
        #expect(try decode("be:s16/16>>0", [0xFF, 0xFE]) == -2)
    }

    @Test func twelveBitsInSixteenShifted() throws {
        // be:s12/16>>4: the value in the top 12 bits of a big-endian word, the low 4 bits ignored.
        #expect(try decode("be:s12/16>>4", [0x80, 0x00]) == -2048)
        #expect(try decode("be:s12/16>>4", [0x7F, 0xF0]) == 2047)
        #expect(try decode("be:s12/16>>4", [0xFF, 0xF0]) == -1)
        #expect(try decode("be:s12/16>>4", [0x12, 0x3F]) == 0x123)
        // le:s12/16>>0: the top 4 bits are masked off before the sign is extended from bit 11.
        #expect(try decode("le:s12/16>>0", [0xFF, 0xF7]) == 2047)
        #expect(try decode("le:s12/16>>0", [0x00, 0x08]) == -2048)
    }

    @Test func unsignedValuesAreMaskedNotExtended() throws {
        #expect(try decode("le:u16/16>>0", [0xFF, 0xFF]) == 65535)
        #expect(try decode("le:u12/16>>0", [0xFF, 0xFF]) == 4095)
        #expect(try decode("le:u10/16>>6", [0xC0, 0xFF]) == 1023)
        #expect(try decode("le:u8/8>>0", [0x80]) == 128)
        #expect(try decode("le:s8/8>>0", [0x80]) == -128)
    }

    @Test func thirtyTwoAndSixtyFourBits() throws {
        #expect(try decode("le:s24/32>>8", [0x00, 0x56, 0x34, 0x12]) == 0x123456)
        #expect(try decode("le:s24/32>>8", [0x00, 0x00, 0x00, 0x80]) == -8_388_608)
        #expect(try decode("be:s32/32>>0", [0xFF, 0xFF, 0xFF, 0xFB]) == -5)
        let nanoseconds: Int64 = 1_234_567_890_123_456_789
        #expect(try decode("le:s64/64>>0", littleEndian(nanoseconds)) == nanoseconds)
        #expect(try decode("be:s64/64>>0", littleEndian(nanoseconds).reversed()) == nanoseconds)
        #expect(try decode("le:s64/64>>0", littleEndian(Int64(-1))) == -1)
    }

    @Test(arguments: [
        ("", "no ':' after the byte order"),
        ("le:s16", "no number of bits before '/'"),
        ("xe:s16/16>>0", "byte order 'xe' is neither 'le' nor 'be'"),
        ("le:f32/32>>0", "sign 'f' is neither 's' nor 'u'"),
        ("le:s16/16", "no '>>SHIFT' at the end"),
        ("le:s16/12>>0", "storage of 12 bits (8, 16, 32 or 64)"),
        ("le:s17/16>>0", "17 bits do not fit 16 bits of storage"),
        ("le:s0/16>>0", "0 bits do not fit 16 bits of storage"),
        ("le:s12/16>>5", "12 bits shifted by 5 do not fit 16 bits of storage"),
        ("le:s16/16X0>>0", "repeat count '0' is not a positive number"),
        ("le:s16/16>>x", "shift 'x' is not a number"),
    ])
    func malformedTypesAreRejectedNamingFileAndText(text: String, why: String) {
        #expect(throws: IMUDeviceError.unavailable(
            "in_accel_x_type: '\(text)' is not a scan element type ([be|le]:[s|u]BITS/STORAGE>>SHIFT): \(why)")
        ) { try IIOScanElementType(parsing: text, file: "in_accel_x_type") }
    }

    @Test func elementsAlignToTheirSizeAndTheRecordToTheLargest() throws {
        let s16 = try type("le:s16/16>>0")
        // Given out of order: laid out by index. x y z (6 bytes), 2 bytes padding, then the 8-byte timestamp.
        let imu = IIOScanLayout(channels: [
            ("in_timestamp", 3, try type("le:s64/64>>0")), ("in_accel_z", 2, s16),
            ("in_accel_x", 0, s16), ("in_accel_y", 1, s16),
        ])
        #expect(imu.elements.map(\.name) == ["in_accel_x", "in_accel_y", "in_accel_z", "in_timestamp"])
        #expect(imu.elements.map(\.offset) == [0, 2, 4, 8])
        #expect(imu.recordSize == 16)
        // u8, s16, s32, s16: 0, 2, 4, 8, 10 bytes, padded to a multiple of 4.
        let mixed = IIOScanLayout(channels: [
            ("a", 0, try type("le:u8/8>>0")), ("b", 1, s16), ("c", 2, try type("le:s32/32>>0")), ("d", 3, s16),
        ])
        #expect(mixed.elements.map(\.offset) == [0, 2, 4, 8])
        #expect(mixed.recordSize == 12)
        // Same sizes only: no padding.
        #expect(IIOScanLayout(channels: [("x", 0, s16), ("y", 1, s16), ("z", 2, s16)]).recordSize == 6)
    }

    @Test func decodesARecordSkippingPadding() throws {
        let layout = IIOScanLayout(channels: [
            ("in_accel_x", 0, try type("be:s12/16>>4")), ("in_accel_y", 1, try type("le:s16/16>>0")),
            ("in_accel_z", 2, try type("le:u8/8>>0")), ("in_timestamp", 5, try type("le:s64/64>>0")),
        ])
        #expect(layout.recordSize == 16)
        let timestamp: Int64 = 987_654_321_000
        // x at 0 (be, 12 bits shifted), y at 2, z at 4, padding 5…7 (0xEE), timestamp at 8.
        let record: [UInt8] = [0xFF, 0xF0, 0x2C, 0x01, 0x07, 0xEE, 0xEE, 0xEE] + littleEndian(timestamp)
        let values = record.withUnsafeBytes { layout.decode($0, at: 0) }
        #expect(values == [-1, 300, 7, timestamp])
        // Two records back to back: the second starts at recordSize.
        let twice = record + record
        #expect(twice.withUnsafeBytes { layout.decode($0, at: layout.recordSize) } == values)
    }
}
