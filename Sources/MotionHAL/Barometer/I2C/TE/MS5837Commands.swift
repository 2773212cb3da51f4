/// The MS5837's I²C protocol, as ``MS5837Driver`` uses it: one-byte commands, no registers.
///
/// Sources: TE datasheets MS5837-30BA (10/2015 and REV C2 12/2019, "Commands", "Conversion sequence") and
/// MS5837-02BA (09/2017, same sections), whose tables give the maximum conversion time per
/// oversampling ratio used below. A command is a write of its byte alone
/// (``I2CBus/sendCommand(address:_:)``); a read is the command byte, a repeated start and the answer
/// (``I2CBus/readRegisters(address:startingAt:count:)``), which the chip takes as the command followed by
/// a read.
enum MS5837Commands {
    /// The only 7-bit address (1110110x): 0x76, which is also a BMP280 / BME280 address.
    static let address: UInt8 = 0x76

    /// Reset: reloads the calibration PROM into the chip's internal register; needed once after power-on.
    static let reset: UInt8 = 0x1E
    /// How long the reload after ``reset`` is given, s. The datasheets give no figure; Blue Robotics'
    /// libraries wait 10 ms, the MS5611 family's datasheets specify 2.8 ms.
    static let resetTime = 0.010
    /// ADC read: the 24-bit result of the last conversion, most significant byte first; 0 when no
    /// conversion was started, when it was already read, or while a conversion runs (which then ends with
    /// a wrong result).
    static let adcRead: UInt8 = 0x00
    /// Bytes of an ADC read.
    static let adcLength = 3
    /// Convert D1 (pressure) at OSR 256; ``MS5837Oversampling/commandOffset`` is added for the others.
    static let convertPressure: UInt8 = 0x40
    /// Convert D2 (temperature) at OSR 256; ``MS5837Oversampling/commandOffset`` is added for the others.
    static let convertTemperature: UInt8 = 0x50
    /// PROM read of word 0; word `i` is at `0xA0 + 2·i` (a2…a0 in bits 3…1). Each answer is 16 bits,
    /// most significant byte first.
    static let promRead: UInt8 = 0xA0
    /// The PROM words used: word 0 (CRC-4 and version) and C1…C6 (112 bits).
    static let promWords = 7

    /// The PROM read command of word `index` (0…7).
    static func promRead(word index: Int) -> UInt8 {
        promRead + UInt8(2 * index)
    }
}

/// An oversampling ratio of the MS5837's ADC: more is less noise and a longer conversion.
///
/// Threading: a value, any.
public enum MS5837Oversampling: Int, Sendable, CaseIterable, Comparable {
    /// OSR 256: 0.60 ms at most.
    case x256 = 256
    /// OSR 512: 1.17 ms at most.
    case x512 = 512
    /// OSR 1024: 2.28 ms at most.
    case x1024 = 1024
    /// OSR 2048: 4.54 ms at most.
    case x2048 = 2048
    /// OSR 4096: 9.04 ms at most.
    case x4096 = 4096
    /// OSR 8192: 18.08 ms at most (in the -02BA's datasheet and the -30BA's of 2015, not in the -30BA's
    /// REV C2 of 2019).
    case x8192 = 8192

    /// What is added to a convert command's OSR-256 byte: 0, 2, 4, 6, 8 or 10 (bits 3…1).
    public var commandOffset: UInt8 {
        UInt8(2 * Self.allCases.firstIndex(of: self)!)
    }

    /// The longest a conversion takes at this ratio, s: the datasheet's maximum.
    public var maximumConversionTime: Double {
        switch self {
        case .x256: 0.000_60
        case .x512: 0.001_17
        case .x1024: 0.002_28
        case .x2048: 0.004_54
        case .x4096: 0.009_04
        case .x8192: 0.018_08
        }
    }

    /// Ordered by ratio: 256 < 512 < … < 8192.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
