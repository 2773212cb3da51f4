extension ChipModel where Driver == any I2CChipDriver {
    /// The ST LSM6DSOX at 0x6A or 0x6B, with a LIS3MDL magnetometer at 0x1C or 0x1E on the same bus when there
    /// is one (9-axis, as on Adafruit's LSM6DSOX + LIS3MDL FeatherWing), else 6-axis: see ``LSM6DSOXDriver``.
    /// Default full scales ±8 g, ±2000 dps, ±4 gauss.
    public static var lsm6dsox: I2CChipModel { lsm6dsox() }

    /// The LSM6DSOX model with other full scales or a magnetometer mounted differently.
    /// - Parameters:
    ///   - accelerometerScale: accelerometer full scale (default ±8 g).
    ///   - gyroscopeScale: gyroscope full scale (default ±2000 dps).
    ///   - magnetometerScale: LIS3MDL full scale (default ±4 gauss).
    ///   - magnetometerAlignment: LIS3MDL axes → LSM6DSOX axes (default identity).
    public static func lsm6dsox(
        accelerometerScale: LSM6DSOXAccelerometerScale = .g8, gyroscopeScale: LSM6DSOXGyroscopeScale = .dps2000,
        magnetometerScale: LIS3MDLScale = .gauss4, magnetometerAlignment: MountMatrix = .identity
    ) -> I2CChipModel {
        I2CChipModel(name: "lsm6dsox", addresses: LSM6DSOXRegisterMap.addresses) {
            bus, address, time throws(IMUDeviceError) in
            try LSM6DSOXDriver.probe(
                bus: bus, address: address, accelerometerScale: accelerometerScale, gyroscopeScale: gyroscopeScale,
                magnetometerScale: magnetometerScale, magnetometerAlignment: magnetometerAlignment, time: time)
        }
    }
}
