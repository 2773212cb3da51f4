/// The parts ``EmulatedInvenSenseMPU`` can be, with the facts the emulation needs, written from the
/// register maps independently of the driver's table.
public enum EmulatedInvenSenseModel: Sendable, CaseIterable {
    /// MPU-6050: WHO_AM_I 0x68, 1024-byte FIFO that overwrites its oldest bytes, PWR_MGMT_1 resets to SLEEP.
    case mpu6050
    /// MPU-6500: WHO_AM_I 0x70, 512-byte FIFO (CONFIG FIFO_MODE decides what a full FIFO does).
    case mpu6500
    /// MPU-9250: an MPU-6500 with WHO_AM_I 0x71 and an AK8963 magnetometer behind the bypass switch.
    case mpu9250
    /// MPU-9255: the MPU-9250 with WHO_AM_I 0x73.
    case mpu9255

    /// What WHO_AM_I (0x75) reads.
    public var whoAmI: UInt8 {
        switch self {
        case .mpu6050: 0x68
        case .mpu6500: 0x70
        case .mpu9250: 0x71
        case .mpu9255: 0x73
        }
    }

    /// FIFO size, bytes (PS-MPU-6000A: 1024; PS-MPU-9250A: 512).
    public var fifoCapacity: Int { self == .mpu6050 ? 1024 : 512 }

    /// Whether the part has the MPU-6500 family's registers: ACCEL_CONFIG2, FCHOICE_B, CONFIG FIFO_MODE.
    public var isMPU6500Family: Bool { self != .mpu6050 }

    /// Whether an AK8963 is in the package.
    public var hasMagnetometer: Bool { self == .mpu9250 || self == .mpu9255 }

    /// PWR_MGMT_1's reset value: 0x40 (asleep) on the MPU-6050, 0x01 (awake, auto clock) on the others.
    var powerManagement1Reset: UInt8 { self == .mpu6050 ? 0x40 : 0x01 }

    /// TEMP_OUT for a die temperature in °C: RM-MPU-6000A section 4.18, (T − 36.53) × 340; RM-MPU-9250A
    /// TEMP_OUT, (T − 21) × 333.87 (room-temperature offset 0).
    func temperatureCode(_ celsius: Double) -> Double {
        self == .mpu6050 ? (celsius - 36.53) * 340 : (celsius - 21) * 333.87
    }
}
