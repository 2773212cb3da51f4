import MotionHAL
import Synchronization

/// A register-level emulation of the AK8963 magnetometer (AK8963 datasheet MS1356-E) as found inside the
/// MPU-9250, at 0x0C.
///
/// - WIA 0x48, INFO, ST1 (DRDY, DOR), HXL ... HZH (little-endian int16), ST2 (HOFL, BITM), CNTL1 (MODE,
///   BIT), CNTL2 (SRST), ASAX ... ASAZ; reads auto-increment.
/// - Modes: power-down, continuous measurement 1 (8 Hz) and 2 (100 Hz) timed by an
///   ``EmulatedSampleClock``, fuse ROM access (only then the ASA registers read their values, otherwise 0).
///   Single, external-trigger and self-test modes act as power-down.
/// - A measurement takes the field of ``EmulatedMotion`` in the MPU-9250's axes and stores it in the
///   AK8963's own (x = MPU y, y = MPU x, z = −MPU z) divided by the sensitivity and this chip's
///   adjustment, so that a driver applying (ASA − 128) / 256 + 1 gets the field back; 16-bit output
///   0.15 µT/LSB saturating at ±32760, 14-bit 0.6 µT/LSB at ±8190. |X| + |Y| + |Z| ≥ 4912 µT sets HOFL.
/// - A new measurement sets DRDY (and DOR when the previous was not read). Reading a data register clears
///   DRDY and protects the data until ST2 is read (a measurement made meanwhile waits); reading ST2 ends the
///   read and clears DOR. SRST restores the reset values.
public final class EmulatedAK8963: EmulatedI2CChip {
    /// The AK8963's 7-bit address.
    public static let address: UInt8 = 0x0C
    /// The fuse ROM's sensitivity adjustment values ASAX, ASAY, ASAZ.
    public let sensitivityAdjustment: SIMD3<UInt8>

    private let motion: EmulatedMotion
    private let state: Mutex<State>
    /// The chip\'s time, `CLOCK_MONOTONIC` ns.
    private let time: @Sendable () -> UInt64

    private struct State {
        var registers = [UInt8](repeating: 0, count: 0x13)
        var clock: EmulatedSampleClock
        var clockRate: Double?
        /// A data register was read and ST2 was not yet: the data may not change.
        var isReading = false
        /// A measurement made while the data was protected: HXL ... HZH and ST2.
        var waiting: [UInt8]?
    }

    private enum Register {
        static let deviceID = 0x00
        static let information = 0x01
        static let status1 = 0x02
        static let measurement = 0x03
        static let status2 = 0x09
        static let control1 = 0x0A
        static let control2 = 0x0B
        static let sensitivityAdjustment = 0x10
    }

    /// Creates a powered-down AK8963.
    /// - Parameters:
    ///   - motion: what it measures; the magnetic field in the MPU-9250's axes, µT.
    ///   - sensitivityAdjustment: the fuse ROM values (default 176, 177, 165, a typical part).
    ///   - oscillatorError: relative error of its measurement clock.
    ///   - now: the chip's time, `CLOCK_MONOTONIC` ns (a test's manual clock makes it sample without waiting).
    public init(
        motion: EmulatedMotion, sensitivityAdjustment: SIMD3<UInt8> = SIMD3(176, 177, 165), oscillatorError: Double = 0,
        now: @escaping @Sendable () -> UInt64 = MonotonicClock.now
    ) {
        time = now
        self.motion = motion
        self.sensitivityAdjustment = sensitivityAdjustment
        var state = State(clock: EmulatedSampleClock(oscillatorError: oscillatorError))
        Self.reset(&state)
        self.state = Mutex(state)
    }

    /// The current mode, CNTL1 bits 3:0.
    public var mode: UInt8 { state.withLock { $0.registers[Register.control1] & 0x0F } }

    public func read(startingAt register: UInt8, count: Int) -> [UInt8] {
        state.withLock { state in
            advance(&state, to: time())
            return (0..<count).map { offset in readByte(&state, (Int(register) + offset) & 0xFF) }
        }
    }

    public func write(startingAt register: UInt8, bytes: [UInt8]) {
        state.withLock { state in
            let now = time()
            advance(&state, to: now)
            for (offset, value) in bytes.enumerated() {
                writeByte(&state, Int(register) + offset, value)
            }
            let rate: Double? =
                switch state.registers[Register.control1] & 0x0F {
                case 0x02: 8
                case 0x06: 100
                default: nil
                }
            if rate != state.clockRate {
                state.clockRate = rate
                if let rate { state.clock.start(rate: rate, at: now) } else { state.clock.stop() }
            }
        }
    }

    private static func reset(_ state: inout State) {
        state.registers = [UInt8](repeating: 0, count: 0x13)
        state.registers[Register.deviceID] = 0x48
        state.registers[Register.information] = 0x9A
        state.isReading = false
        state.waiting = nil
    }

    private func readByte(_ state: inout State, _ register: Int) -> UInt8 {
        switch register {
        case Register.measurement..<Register.status2:
            state.isReading = true
            state.registers[Register.status1] &= ~0x01
            return state.registers[register]
        case Register.status2:
            let value = state.registers[register]
            state.isReading = false
            state.registers[Register.status1] = 0
            if let waiting = state.waiting {
                state.waiting = nil
                latch(&state, waiting)
            }
            return value
        case Register.sensitivityAdjustment..<Register.sensitivityAdjustment + 3:
            guard state.registers[Register.control1] & 0x0F == 0x0F else { return 0 }
            return sensitivityAdjustment[register - Register.sensitivityAdjustment]
        case 0..<Register.sensitivityAdjustment:
            return state.registers[register]
        default:
            return 0
        }
    }

    private func writeByte(_ state: inout State, _ register: Int, _ value: UInt8) {
        switch register {
        case Register.control1:
            state.registers[register] = value & 0x1F
        case Register.control2 where value & 0x01 != 0:
            Self.reset(&state)
        case 0x0C, 0x0F:  // ASTC, I2CDIS
            state.registers[register] = value
        default:
            break  // read-only
        }
    }

    /// Makes the measurements due by `now`; only the newest matters, earlier ones were overwritten.
    private func advance(_ state: inout State, to now: UInt64) {
        let times = state.clock.due(at: now)
        guard let newest = times.last else { return }
        let measurement = measure(state, at: newest)
        if state.isReading {
            state.waiting = measurement
        } else {
            let overran = times.count > 1 || state.registers[Register.status1] & 0x01 != 0
            if overran { state.registers[Register.status1] |= 0x02 }  // DOR: a measurement was never read
            latch(&state, measurement)
        }
    }

    private func latch(_ state: inout State, _ measurement: [UInt8]) {
        state.registers.replaceSubrange(Register.measurement...Register.status2, with: measurement)
        state.registers[Register.status1] |= 0x01
    }

    /// HXL ... HZH and ST2 for the field at `time`.
    private func measure(_ state: State, at time: UInt64) -> [UInt8] {
        let field = motion.truth(time).magneticField ?? .zero
        let ownAxes = SIMD3(field.y, field.x, -field.z)
        let sixteenBit = state.registers[Register.control1] & 0x10 != 0
        let (sensitivity, limit) = sixteenBit ? (0.15, 32760.0) : (0.6, 8190.0)
        let adjustment = SIMD3<Double>(sensitivityAdjustment) - 128
        let codes = ownAxes / (sensitivity * (adjustment / 256 + 1))
        let overflow = abs(ownAxes.x) + abs(ownAxes.y) + abs(ownAxes.z) >= 4912
        var bytes: [UInt8] = []
        for axis in 0..<3 {
            let code = UInt16(bitPattern: Int16(min(max(codes[axis].rounded(), -limit), limit)))
            bytes += [UInt8(code & 0xFF), UInt8(code >> 8)]
        }
        bytes.append((overflow ? 0x08 : 0) | (sixteenBit ? 0x10 : 0))
        return bytes
    }
}
