extension ChipModel where Driver == any I2CChipDriver {
    /// The InvenSense MPU-6050 (WHO_AM_I 0x68) at 0x68 or 0x69, ±8 g and ±2000 °/s.
    public static var mpu6050: I2CChipModel { invenSense(.mpu6050) }
    /// The InvenSense MPU-6500 (WHO_AM_I 0x70) at 0x68 or 0x69, ±8 g and ±2000 °/s.
    public static var mpu6500: I2CChipModel { invenSense(.mpu6500) }
    /// The InvenSense MPU-9250 (WHO_AM_I 0x71) with its AK8963 magnetometer, ±8 g and ±2000 °/s.
    public static var mpu9250: I2CChipModel { invenSense(.mpu9250) }
    /// The InvenSense MPU-9255 (WHO_AM_I 0x73) with its AK8963 magnetometer, ±8 g and ±2000 °/s.
    public static var mpu9255: I2CChipModel { invenSense(.mpu9255) }

    /// A catalog entry for an InvenSense part with chosen full-scale ranges.
    /// - Parameters:
    ///   - variant: the part, recognised by its WHO_AM_I.
    ///   - accelerometerRange: full scale to configure (default ±8 g).
    ///   - gyroscopeRange: full scale to configure (default ±2000 °/s).
    public static func invenSense(
        _ variant: InvenSenseVariant, accelerometerRange: InvenSenseAccelerometerRange = .g8,
        gyroscopeRange: InvenSenseGyroscopeRange = .dps2000
    ) -> I2CChipModel {
        I2CChipModel(name: variant.name, addresses: variant.addresses) {
            (bus, address, time) throws(IMUDeviceError) -> (any I2CChipDriver)? in
            try InvenSenseMPU.probe(
                bus: bus, address: address, variant: variant, accelerometerRange: accelerometerRange,
                gyroscopeRange: gyroscopeRange, time: time)
        }
    }
}
