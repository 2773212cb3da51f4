/// The tag byte of an LSM6DSOX FIFO word (FIFO_DATA_OUT_TAG, 0x78), decoded.
///
/// Bits 7:3 TAG_SENSOR say what the word holds (datasheet DS13082 table "FIFO tag"; ST's `lsm6dsox_fifo_tag_t`:
/// 0x01 gyroscope, 0x02 accelerometer, 0x03 temperature, 0x04 timestamp, 0x05 configuration change, … up to
/// 0x19 sensor-hub NACK); bits 2:1 TAG_CNT count the time slot the word belongs to, so the gyroscope and
/// accelerometer words measured together carry the same count; bit 0 TAG_PARITY is a parity bit over the tag.
public struct LSM6DSOXFIFOTag: Sendable, Equatable {
    /// What a word holds.
    public enum Sensor: Sendable, Equatable {
        /// Gyroscope, not compressed (TAG_SENSOR 0x01).
        case gyroscope
        /// Accelerometer, not compressed (TAG_SENSOR 0x02).
        case accelerometer
        /// Any other defined tag (temperature, timestamp, configuration change, compressed data, sensor hub):
        /// the driver enables none of them and skips such words.
        case other(UInt8)
    }

    /// TAG_SENSOR, bits 7:3.
    public let sensorCode: UInt8
    /// TAG_CNT, bits 2:1: the time slot, counting 0, 1, 2, 3, 0, …
    public let slot: UInt8
    /// TAG_PARITY, bit 0. The datasheet does not say which parity it keeps, so it is decoded but not checked.
    public let parity: UInt8

    /// The largest TAG_SENSOR value the datasheet defines (0x19, sensor-hub NACK).
    static let largestSensorCode: UInt8 = 0x19

    /// Decodes a tag byte.
    /// - Parameter byte: the value read from FIFO_DATA_OUT_TAG.
    public init(_ byte: UInt8) {
        sensorCode = byte >> 3
        slot = (byte >> 1) & 0b11
        parity = byte & 1
    }

    /// What the word holds; `nil` for a TAG_SENSOR the chip never writes (0 or above 0x19), which means the
    /// read lost its alignment with the 7-byte words.
    public var sensor: Sensor? {
        switch sensorCode {
        case 0x01: .gyroscope
        case 0x02: .accelerometer
        case 0x03...Self.largestSensorCode: .other(sensorCode)
        default: nil
        }
    }
}
