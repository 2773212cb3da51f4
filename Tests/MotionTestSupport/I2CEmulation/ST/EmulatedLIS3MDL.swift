import MotionHAL
import Synchronization

/// A register-level LIS3MDL magnetometer for an ``EmulatedI2CBus``, written from ST's datasheet DocID024204
/// independently of the driver.
///
/// What it does as the chip does:
/// - Register file with reset values (WHO_AM_I 0x3D, CTRL_REG1 0x10, CTRL_REG3 0x03 power-down, INT_CFG 0xE8,
///   the rest 0); CTRL_REG2 SOFT_RST restores them, clears the outputs and status and clears itself; REBOOT
///   clears itself. Writes to read-only registers are ignored.
/// - Addressing: a multi-byte transfer moves to the next register only when bit 7 of the register number is
///   set; without it every byte comes from the same register. Past OUT_Z_H (0x2D) the address wraps to
///   OUT_X_L (0x28), as ST confirms the chip does.
/// - Conversions: in continuous mode (CTRL_REG3 MD 00) at the DO rate of CTRL_REG1 (0.625 … 80 Hz), or with
///   FAST_ODR at 1000/560/300/155 Hz by OM, on an ``EmulatedSampleClock`` with the oscillator's error; single
///   mode (MD 01) converts once and powers down. Values from the ``EmulatedMotion``'s magnetic field divided by
///   the FS sensitivity (6842/3421/2281/1711 LSB/gauss), rounded and saturated to 16 bits; BLE swaps the bytes.
/// - STATUS_REG: a conversion sets ZYXDA and the axis DA bits; one made while they were still set also sets
///   ZYXOR and the axis OR bits. Reading an axis's high byte clears that axis's DA and OR bits, and ZYXDA/ZYXOR
///   clear once all three are read.
public final class EmulatedLIS3MDL: EmulatedI2CChip {
    private let motion: EmulatedMotion
    private let now: @Sendable () -> UInt64
    private let state: Mutex<State>

    private struct State {
        var registers = [UInt8](repeating: 0, count: 128)
        var clock: EmulatedSampleClock
        var clockRate = 0.0
    }

    private enum Register {
        static let whoAmI: UInt8 = 0x0F
        static let control1: UInt8 = 0x20
        static let control2: UInt8 = 0x21
        static let control3: UInt8 = 0x22
        static let control4: UInt8 = 0x23
        static let status: UInt8 = 0x27
        static let outXLow: UInt8 = 0x28
        static let outZHigh: UInt8 = 0x2D
        static let interruptConfig: UInt8 = 0x30
    }

    /// Creates a chip in its power-on state.
    /// - Parameters:
    ///   - motion: what it measures (its `magneticField`, µT, in the LIS3MDL's axes).
    ///   - oscillatorError: relative error of its clock.
    ///   - now: the time source, `CLOCK_MONOTONIC` ns.
    public init(
        motion: EmulatedMotion, oscillatorError: Double = 0, now: @escaping @Sendable () -> UInt64 = MonotonicClock.now
    ) {
        self.motion = motion
        self.now = now
        var state = State(clock: EmulatedSampleClock(oscillatorError: oscillatorError))
        Self.reset(&state)
        self.state = Mutex(state)
    }

    /// The current value of a register, without a bus transfer's side effects (for tests).
    public func register(_ register: UInt8) -> UInt8 {
        state.withLock { $0.registers[Int(register & 0x7F)] }
    }

    /// The conversion rate configured now, Hz (0 when not converting continuously).
    public var conversionRate: Double { state.withLock { $0.clockRate } }

    public func read(startingAt register: UInt8, count: Int) -> [UInt8] {
        state.withLock { state in
            advance(&state)
            let increments = register & 0x80 != 0
            var address = register & 0x7F
            var bytes: [UInt8] = []
            for _ in 0..<count {
                bytes.append(readByte(at: address, &state))
                if increments { address = address == Register.outZHigh ? Register.outXLow : (address + 1) & 0x7F }
            }
            return bytes
        }
    }

    public func write(startingAt register: UInt8, bytes: [UInt8]) {
        state.withLock { state in
            advance(&state)
            let increments = register & 0x80 != 0
            var address = register & 0x7F
            for byte in bytes {
                writeByte(byte, at: address, &state)
                if increments { address = (address + 1) & 0x7F }
            }
        }
    }

    private static func reset(_ state: inout State) {
        state.registers = [UInt8](repeating: 0, count: 128)
        state.registers[Int(Register.whoAmI)] = 0x3D
        state.registers[Int(Register.control1)] = 0x10
        state.registers[Int(Register.control3)] = 0x03
        state.registers[Int(Register.interruptConfig)] = 0xE8
        state.clock.stop()
        state.clockRate = 0
    }

    private func readByte(at address: UInt8, _ state: inout State) -> UInt8 {
        let value = state.registers[Int(address)]
        if (Register.outXLow...Register.outZHigh).contains(address), address & 1 == 1 {
            // The high byte of an axis: its data has been read.
            let axis = (address - Register.outXLow) / 2
            var status = state.registers[Int(Register.status)] & ~(1 << axis | 1 << (axis + 4))
            if status & 0b0111 == 0 { status &= ~(1 << 3 | 1 << 7) }
            state.registers[Int(Register.status)] = status
        }
        return value
    }

    private func writeByte(_ value: UInt8, at address: UInt8, _ state: inout State) {
        switch address {
        case Register.control1, Register.control3, Register.control4, 0x24, Register.interruptConfig, 0x32, 0x33:
            state.registers[Int(address)] = value
            retime(&state)
        case Register.control2 where value & 0x04 != 0:
            Self.reset(&state)  // SOFT_RST, done at once and cleared
        case Register.control2:
            state.registers[Int(address)] = value & ~0x08  // REBOOT clears itself
        default:
            return  // read-only or reserved
        }
    }

    /// The rate CTRL_REG1 selects, Hz.
    private func dataRate(_ state: State) -> Double {
        let control1 = state.registers[Int(Register.control1)]
        if control1 & 0x02 != 0 {
            return [1000, 560, 300, 155][Int(control1 >> 5 & 0b11)]  // FAST_ODR by OM: LP, MP, HP, UHP
        }
        return [0.625, 1.25, 2.5, 5, 10, 20, 40, 80][Int(control1 >> 2 & 0b111)]
    }

    /// Starts, restarts or stops the clock for the mode and rate now configured.
    private func retime(_ state: inout State) {
        let mode = state.registers[Int(Register.control3)] & 0b11
        let rate = mode <= 0b01 ? dataRate(state) : 0
        guard rate != state.clockRate else { return }
        state.clockRate = rate
        if rate > 0 { state.clock.start(rate: rate, at: now()) } else { state.clock.stop() }
    }

    /// Converts every sample due by now into the output registers.
    private func advance(_ state: inout State) {
        for time in state.clock.due(at: now()) {
            let field = motion.truth(time).magneticField ?? .zero
            let scale = state.registers[Int(Register.control2)] >> 5 & 0b11
            let countsPerMicrotesla = [6842.0, 3421, 2281, 1711][Int(scale)] / 100
            let bigEndian = state.registers[Int(Register.control4)] & 0x02 != 0
            for (axis, value) in [field.x, field.y, field.z].enumerated() {
                let counts = Int16(max(-32768, min(32767, (value * countsPerMicrotesla).rounded())))
                let raw = UInt16(bitPattern: counts)
                let (low, high) = (UInt8(raw & 0xFF), UInt8(raw >> 8))
                state.registers[Int(Register.outXLow) + 2 * axis] = bigEndian ? high : low
                state.registers[Int(Register.outXLow) + 2 * axis + 1] = bigEndian ? low : high
            }
            var status = state.registers[Int(Register.status)]
            if status & 0b1000 != 0 { status |= 0xF0 }
            state.registers[Int(Register.status)] = status | 0x0F
            if state.registers[Int(Register.control3)] & 0b11 == 0b01 {
                state.registers[Int(Register.control3)] |= 0b11  // single conversion done: power-down
                state.clock.stop()
                state.clockRate = 0
            }
        }
    }
}
