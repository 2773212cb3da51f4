extension ChipModel where Driver == any I2CChipDriver {
    /// The TDK InvenSense ICM-20948 with its AK09916 magnetometer, at 0x68 or 0x69, with the default full
    /// scales ±8 g and ±2000 °/s.
    public static var icm20948: I2CChipModel { icm20948(configuration: ICM20948Configuration()) }

    /// The ICM-20948 with the full scales of `configuration`.
    /// - Parameter configuration: accelerometer and gyroscope full scales.
    public static func icm20948(configuration: ICM20948Configuration) -> I2CChipModel {
        I2CChipModel(name: "icm20948", addresses: [0x68, 0x69]) {
            (bus, address, time) throws(IMUDeviceError) -> (any I2CChipDriver)? in
            try ICM20948Driver.probe(bus: bus, address: address, configuration: configuration, time: time)
        }
    }
}
