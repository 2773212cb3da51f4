/// The LSM6DSOX registers and bit fields ``LSM6DSOXDriver`` uses.
///
/// Sources: ST datasheet DS13082 (LSM6DSOX), §6.5 "FIFO" and §8–9 "Register mapping / description", which
/// shares this part of its register map with the LSM6DSO (DS12140); ST's `lsm6dsox_reg.h` (STMems standard C
/// drivers) for the bit fields; Linux `drivers/iio/imu/st_lsm6dsx/st_lsm6dsx_core.c` (the `ST_LSM6DSOX_ID`
/// entry: WHO_AM_I 0x6c, reset 0x12 bit 0, BDU 0x12 bit 6, ODR fields 0x10/0x11 bits 7:4, full-scale fields
/// bits 3:2, batch rates 0x09, FIFO difference 0x3a bits 9:0, `max_fifo_size = 512`) and
/// `st_lsm6dsx_buffer.c` (`st_lsm6dsx_read_tagged_fifo`: 7-byte words, tag in bits 7:3).
enum LSM6DSOXRegisterMap {
    /// The 7-bit addresses the chip can have: SA0 (SDO) low 0x6A, high 0x6B.
    static let addresses: [UInt8] = [0x6A, 0x6B]
    /// The value of WHO_AM_I.
    static let identity: UInt8 = 0x6C

    /// FIFO_CTRL3: batch data rates, BDR_GY in bits 7:4, BDR_XL in bits 3:0 (same codes as the ODR).
    static let fifoControl3: UInt8 = 0x09
    /// FIFO_CTRL4: FIFO_MODE in bits 2:0.
    static let fifoControl4: UInt8 = 0x0A
    /// WHO_AM_I.
    static let whoAmI: UInt8 = 0x0F
    /// CTRL1_XL: accelerometer ODR_XL in bits 7:4, FS_XL in bits 3:2.
    static let accelerometerControl: UInt8 = 0x10
    /// CTRL2_G: gyroscope ODR_G in bits 7:4, FS_G in bits 3:2, FS_125 in bit 1.
    static let gyroscopeControl: UInt8 = 0x11
    /// CTRL3_C: BOOT bit 7, BDU bit 6, IF_INC bit 2, SW_RESET bit 0 (reset value 0x04: IF_INC set).
    static let control3: UInt8 = 0x12
    /// FIFO_STATUS1: DIFF_FIFO bits 7:0, the number of unread words.
    static let fifoStatus1: UInt8 = 0x3A
    /// FIFO_STATUS2: FIFO_WTM_IA bit 7, FIFO_OVR_IA bit 6, FIFO_FULL_IA bit 5, COUNTER_BDR_IA bit 4,
    /// FIFO_OVR_LATCHED bit 3, DIFF_FIFO bits 9:8 in bits 1:0.
    static let fifoStatus2: UInt8 = 0x3B
    /// FIFO_DATA_OUT_TAG, followed by the word's six data bytes FIFO_DATA_OUT_X_L (0x79) … Z_H (0x7E). With
    /// IF_INC a read past 0x7E wraps to 0x78, so one burst read returns consecutive words.
    static let fifoDataOutTag: UInt8 = 0x78

    /// CTRL3_C SW_RESET: resets the control registers; clears itself when done.
    static let softwareReset: UInt8 = 1 << 0
    /// CTRL3_C IF_INC: register address auto-increment in multi-byte transfers.
    static let autoIncrement: UInt8 = 1 << 2
    /// CTRL3_C BDU: output registers not updated until both bytes of a value were read.
    static let blockDataUpdate: UInt8 = 1 << 6

    /// FIFO_CTRL4 FIFO_MODE 000: bypass, the FIFO is off and emptied.
    static let fifoModeBypass: UInt8 = 0b000
    /// FIFO_CTRL4 FIFO_MODE 110: continuous, the newest word overwrites the oldest when the FIFO is full.
    static let fifoModeContinuous: UInt8 = 0b110

    /// FIFO_STATUS2 FIFO_OVR_IA: the FIFO is full and at least one word was overwritten.
    static let fifoOverrun: UInt8 = 1 << 6
    /// FIFO_STATUS2 FIFO_OVR_LATCHED: an overrun happened since FIFO_STATUS2 was last read.
    static let fifoOverrunLatched: UInt8 = 1 << 3

    /// Bytes in one FIFO word: the tag and three 16-bit little-endian values.
    static let fifoWordSize = 7
    /// Words the FIFO holds uncompressed: 3 kbytes of 6-byte data (the "9 kbytes" of the datasheet's front
    /// page count compressed words); Linux's `max_fifo_size = 512`.
    static let fifoCapacity = 512
}
