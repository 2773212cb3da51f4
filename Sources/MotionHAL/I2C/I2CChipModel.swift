/// One kind of IMU chip the I²C driver (``I2CIMU``) knows: its catalog is ``all``, and the InvenSense,
/// ICM-20948 and LSM6DSOX models are made with their full scales by the functions beside them.
public typealias I2CChipModel = ChipModel<any I2CChipDriver>

extension ChipModel where Driver == any I2CChipDriver {
    /// Every IMU chip the driver supports, in the order they are probed.
    public static var all: [I2CChipModel] { [.mpu6050, .mpu6500, .mpu9250, .mpu9255, .icm20948, .lsm6dsox] }
}
