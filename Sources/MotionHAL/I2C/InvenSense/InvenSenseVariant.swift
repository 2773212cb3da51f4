/// One member of the MPU-6050 / MPU-6500 family: what distinguishes it for the driver. The register
/// protocol is the same for all, so the differences are data, as in the Linux driver's `hw_info` table
/// (`drivers/iio/imu/inv_mpu6050/inv_mpu_core.c`).
public struct InvenSenseVariant: Sendable, Equatable {
    /// Short name, the catalog's and the device string's `chip=` name: `mpu6050`, `mpu9250`, ...
    public var name: String
    /// The part's name for people: `InvenSense MPU-6050`.
    public var chip: String
    /// What WHO_AM_I (0x75) reads.
    public var whoAmI: UInt8
    /// The FIFO's size, bytes.
    public var fifoCapacity: Int
    /// Whether the package holds an AK8963 magnetometer, reached in bypass mode at 0x0C.
    public var hasMagnetometer: Bool
    /// Whether the accelerometer has its own low-pass register, ACCEL_CONFIG2 (the MPU-6500 family).
    public var hasAccelerometerLowPassRegister: Bool
    /// How long the gyroscope takes to give valid data after waking, s (Linux `inv_mpu_iio.h`).
    public var gyroscopeStartupTime: Double
    /// The digital low-pass settings 1...6, widest first.
    public var lowPassFilters: [InvenSenseLowPassFilter]
    /// The 7-bit addresses the AD0 pin selects.
    public var addresses: [UInt8] { [0x68, 0x69] }

    /// The MPU-6050: 1024-byte FIFO, one low-pass setting for both sensors (RM-MPU-6000A section 4.3).
    public static let mpu6050 = InvenSenseVariant(
        name: "mpu6050", chip: "InvenSense MPU-6050", whoAmI: 0x68, fifoCapacity: 1024, hasMagnetometer: false,
        hasAccelerometerLowPassRegister: false, gyroscopeStartupTime: 0.060,
        lowPassFilters: [
            .init(configuration: 1, gyroscopeBandwidth: 188, accelerometerBandwidth: 184),
            .init(configuration: 2, gyroscopeBandwidth: 98, accelerometerBandwidth: 94),
            .init(configuration: 3, gyroscopeBandwidth: 42, accelerometerBandwidth: 44),
            .init(configuration: 4, gyroscopeBandwidth: 20, accelerometerBandwidth: 21),
            .init(configuration: 5, gyroscopeBandwidth: 10, accelerometerBandwidth: 10),
            .init(configuration: 6, gyroscopeBandwidth: 5, accelerometerBandwidth: 5),
        ])

    /// The MPU-6500: 512-byte FIFO, separate accelerometer low-pass (RM-MPU-6500A, CONFIG and ACCEL_CONFIG 2).
    public static let mpu6500 = InvenSenseVariant(
        name: "mpu6500", chip: "InvenSense MPU-6500", whoAmI: 0x70, fifoCapacity: 512, hasMagnetometer: false,
        hasAccelerometerLowPassRegister: true, gyroscopeStartupTime: 0.070, lowPassFilters: mpu6500LowPassFilters)

    /// The MPU-9250: an MPU-6500 with an AK8963 magnetometer in the package (RM-MPU-9250A).
    public static let mpu9250 = InvenSenseVariant(
        name: "mpu9250", chip: "InvenSense MPU-9250", whoAmI: 0x71, fifoCapacity: 512, hasMagnetometer: true,
        hasAccelerometerLowPassRegister: true, gyroscopeStartupTime: 0.070, lowPassFilters: mpu6500LowPassFilters)

    /// The MPU-9255: the MPU-9250 with another identity.
    public static let mpu9255 = InvenSenseVariant(
        name: "mpu9255", chip: "InvenSense MPU-9255", whoAmI: 0x73, fifoCapacity: 512, hasMagnetometer: true,
        hasAccelerometerLowPassRegister: true, gyroscopeStartupTime: 0.070, lowPassFilters: mpu6500LowPassFilters)

    /// Every variant the driver knows.
    public static let all: [InvenSenseVariant] = [.mpu6050, .mpu6500, .mpu9250, .mpu9255]

    /// The MPU-6500 family's DLPF_CFG (FCHOICE_B = 0) and A_DLPF_CFG (ACCEL_FCHOICE_B = 0) tables
    /// (RM-MPU-9250A, CONFIG and ACCEL_CONFIG 2).
    private static let mpu6500LowPassFilters: [InvenSenseLowPassFilter] = [
        .init(configuration: 1, gyroscopeBandwidth: 184, accelerometerBandwidth: 218.1),
        .init(configuration: 2, gyroscopeBandwidth: 92, accelerometerBandwidth: 99),
        .init(configuration: 3, gyroscopeBandwidth: 41, accelerometerBandwidth: 44.8),
        .init(configuration: 4, gyroscopeBandwidth: 20, accelerometerBandwidth: 21.2),
        .init(configuration: 5, gyroscopeBandwidth: 10, accelerometerBandwidth: 10.2),
        .init(configuration: 6, gyroscopeBandwidth: 5, accelerometerBandwidth: 5.05),
    ]
}
