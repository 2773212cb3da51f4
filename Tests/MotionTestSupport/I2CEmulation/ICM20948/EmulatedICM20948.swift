import MotionHAL
import Synchronization

/// A register-level emulation of the TDK InvenSense ICM-20948 and the AK09916 magnetometer inside it, for
/// driver tests on an ``EmulatedI2CBus``.
///
/// What it does, as the datasheet DS-000189 describes the chip: four user banks behind REG_BANK_SEL (0x7F);
/// reset values (asleep at power-on); DEVICE_RESET resetting every register and clearing itself; SLEEP and
/// PWR_MGMT_2 stopping the sensors; GYRO_SMPLRT_DIV, ACCEL_SMPLRT_DIV and FCHOICE deciding the output data
/// rate on an ``EmulatedSampleClock`` with an oscillator error; FS_SEL deciding how ``EmulatedMotion`` values
/// are quantised (rounded, saturated at the int16 limits); a 512-byte FIFO fed from the data registers
/// FIFO_EN_2 selects once USER_CTRL FIFO_EN is set, FIFO_COUNT, overflow in stream or snapshot mode
/// flagged in INT_STATUS_2 (cleared by reading), FIFO_R_W popping a byte per byte read (a burst stays on it,
/// an empty FIFO reads 0xFF), other registers incrementing within the bank. The AK09916 answers at 0x0C
/// only while INT_PIN_CFG BYPASS_EN is set and the I²C master is off.
///
/// The motion is in the accelerometer's and gyroscope's axes, the magnetic field too: the emulated AK09916
/// measures it in its own axes, x along the accelerometer's x, y and z opposite (the datasheet's orientation
/// figures).
public final class EmulatedICM20948: EmulatedI2CChip {
    /// The magnetometer die, measuring this chip's field in its own axes.
    public let magnetometer: EmulatedAK09916
    private let state: Mutex<EmulatedICM20948State>
    /// The chip\'s time, `CLOCK_MONOTONIC` ns.
    private let time: @Sendable () -> UInt64

    /// Creates a chip as it is at power-on (asleep).
    /// - Parameters:
    ///   - motion: what it measures, in the accelerometer's axes (default: at rest, face up).
    ///   - oscillatorError: relative error of its sample clock, 0.02 runs 2 % fast (default 0).
    ///   - whoAmI: what WHO_AM_I reads (default the ICM-20948's 0xEA).
    ///   - now: the chip's time, `CLOCK_MONOTONIC` ns (a test's manual clock makes it sample without waiting).
    public init(
        motion: EmulatedMotion = .atRest(), oscillatorError: Double = 0, whoAmI: UInt8 = 0xEA,
        now: @escaping @Sendable () -> UInt64 = MonotonicClock.now
    ) {
        time = now
        state = Mutex(EmulatedICM20948State(motion: motion, oscillatorError: oscillatorError, identity: whoAmI))
        magnetometer = EmulatedAK09916(motion: Self.magnetometerMotion(motion), now: now)
    }

    /// What the chip measures, in the accelerometer's axes; may be changed while it runs.
    public var motion: EmulatedMotion {
        get { state.withLock { $0.motion } }
        set {
            state.withLock { $0.motion = newValue }
            magnetometer.motion = Self.magnetometerMotion(newValue)
        }
    }

    /// Attaches the chip at `address` (0x68 or 0x69) and its magnetometer at 0x0C behind the bypass.
    public func attach(to bus: EmulatedI2CBus, at address: UInt8 = 0x68) {
        bus.attach(self, at: address)
        bus.attach(magnetometer, at: 0x0C) { [weak self] in self?.isBypassOpen ?? false }
    }

    /// Whether the magnetometer is reachable: INT_PIN_CFG BYPASS_EN set and USER_CTRL I2C_MST_EN clear.
    public var isBypassOpen: Bool { state.withLock { $0.isBypassOpen } }

    /// A register of a bank as it is now, read without the side effects of a bus read (no FIFO pop, no
    /// status clearing).
    /// - Parameters:
    ///   - bank: user bank 0...3.
    ///   - address: register address.
    public func peek(bank: Int, _ address: UInt8) -> UInt8 {
        let now = time()
        return state.withLock { state in
            state.advance(to: now)
            return state.peek(bank: bank, address)
        }
    }

    /// The bank REG_BANK_SEL selects.
    public var selectedBank: Int { state.withLock { $0.bank } }

    /// Bytes in the FIFO now.
    public var fifoCount: Int {
        let now = time()
        return state.withLock { state in
            state.advance(to: now)
            return state.fifo.count
        }
    }

    /// The rate samples are taken at as configured, Hz (before the oscillator error); `nil` while asleep.
    public var outputDataRate: Double? { state.withLock { $0.timing?.frameRate } }

    public func read(startingAt register: UInt8, count: Int) -> [UInt8] {
        let now = time()
        return state.withLock { $0.read(startingAt: register, count: count, at: now) }
    }

    public func write(startingAt register: UInt8, bytes: [UInt8]) {
        let now = time()
        state.withLock { $0.write(startingAt: register, bytes: bytes, at: now) }
    }

    /// The motion as the AK09916 die sees it: field (x, y, z) in the accelerometer's axes is (x, −y, −z).
    private static func magnetometerMotion(_ motion: EmulatedMotion) -> EmulatedMotion {
        EmulatedMotion { time in
            var truth = motion.truth(time)
            truth.magneticField = truth.magneticField.map { SIMD3($0.x, -$0.y, -$0.z) }
            return truth
        }
    }
}
