import MotionHAL
import Synchronization

/// A register-level ST LPS22HB or LPS22DF barometer for an ``EmulatedI2CBus``, written from the datasheets
/// (DocID027083, DS13833) independently of the driver.
///
/// What it does as the chip does:
/// - Register file with reset values: WHO_AM_I 0xB1 / 0xB4, LPS22HB CTRL_REG2 0x10 (IF_ADD_INC), LPS22DF
///   CTRL_REG3 0x01 (IF_ADD_INC), the rest 0. CTRL_REG2 SWRESET restores them (and empties the outputs and
///   STATUS) and clears itself; BOOT clears itself. Writes to read-only registers are ignored.
/// - Addressing: with IF_ADD_INC set (LPS22HB CTRL_REG2 bit 4, LPS22DF CTRL_REG3 bit 0) a multi-byte
///   transfer moves to the next register after each byte; without it every byte is the same register's.
/// - Conversions: continuous at the ODR of CTRL_REG1 (LPS22HB bits 6:4: 1, 10, 25, 50, 75 Hz; LPS22DF bits
///   6:3: 1, 4, 10, 25, 50, 75, 100, 200 Hz) on an ``EmulatedSampleClock`` with the oscillator's error;
///   with ODR 0, ONE_SHOT converts once and clears itself. Values from the ``EmulatedAtmosphere``:
///   pressure `round(hPa × 4096)` as 24-bit two's complement, temperature `round(°C × 100)` as 16 bits.
///   Averaging, the low-pass filter and BDU are stored but change nothing (the emulated truth has no noise
///   to average, and a transfer is atomic here anyway).
/// - STATUS: a conversion sets P_DA and T_DA; one made while they were still set also sets P_OR and T_OR.
///   Reading PRESS_OUT_H (0x2A) clears P_DA and P_OR, reading TEMP_OUT_H (0x2C) clears T_DA and T_OR.
public final class EmulatedSTPressureSensor: EmulatedI2CChip {
    /// Which chip to emulate.
    public enum Model: Sendable {
        /// LPS22HB: WHO_AM_I 0xB1, 1…75 Hz.
        case lps22hb
        /// LPS22DF: WHO_AM_I 0xB4, 1…200 Hz.
        case lps22df
    }

    private let model: Model
    private let atmosphere: EmulatedAtmosphere
    private let whoAmI: UInt8
    private let now: @Sendable () -> UInt64
    private let state: Mutex<State>

    private struct State {
        var registers = [UInt8](repeating: 0, count: 128)
        var clock: EmulatedSampleClock
        var clockRate = 0.0
        var conversions = 0
    }

    private enum Register {
        static let whoAmI = 0x0F
        static let control1 = 0x10
        static let control2 = 0x11
        static let control3 = 0x12
        static let status = 0x27
        static let pressureLow = 0x28
        static let pressureHigh = 0x2A
        static let temperatureHigh = 0x2C
    }

    /// Creates a chip in its power-on state.
    /// - Parameters:
    ///   - model: LPS22HB or LPS22DF.
    ///   - atmosphere: what it measures.
    ///   - oscillatorError: relative error of its clock (0.01 runs 1 % fast).
    ///   - whoAmI: the identity it reports (default the model's; another value emulates a different chip).
    ///   - now: the time source, `CLOCK_MONOTONIC` ns.
    public init(
        model: Model = .lps22hb, atmosphere: EmulatedAtmosphere = .constant(), oscillatorError: Double = 0,
        whoAmI: UInt8? = nil, now: @escaping @Sendable () -> UInt64 = MonotonicClock.now
    ) {
        self.model = model
        self.atmosphere = atmosphere
        self.whoAmI = whoAmI ?? (model == .lps22hb ? 0xB1 : 0xB4)
        self.now = now
        var state = State(clock: EmulatedSampleClock(oscillatorError: oscillatorError))
        Self.reset(&state, model: model, whoAmI: self.whoAmI)
        self.state = Mutex(state)
    }

    /// The current value of a register, without a bus transfer's side effects (for tests).
    public func register(_ register: UInt8) -> UInt8 {
        state.withLock { $0.registers[Int(register & 0x7F)] }
    }

    /// The conversion rate configured now, Hz (0 when powered down).
    public var conversionRate: Double { state.withLock { $0.clockRate } }

    /// How many conversions the chip has made since it was created.
    public var conversionCount: Int { state.withLock { $0.conversions } }

    /// A combined read, with the side effects described on the type (conversions due by now come first).
    public func read(startingAt register: UInt8, count: Int) -> [UInt8] {
        state.withLock { state in
            advance(&state)
            var address = Int(register & 0x7F)
            var bytes: [UInt8] = []
            for _ in 0..<count {
                bytes.append(state.registers[address])
                if address == Register.pressureHigh { state.registers[Register.status] &= ~0b0001_0001 }
                if address == Register.temperatureHigh { state.registers[Register.status] &= ~0b0010_0010 }
                if incrementsAddress(state) { address = (address + 1) & 0x7F }
            }
            return bytes
        }
    }

    /// A write, with the side effects described on the type (conversions due by now come first).
    public func write(startingAt register: UInt8, bytes: [UInt8]) {
        state.withLock { state in
            advance(&state)
            var address = Int(register & 0x7F)
            for byte in bytes {
                writeByte(byte, at: address, &state)
                if incrementsAddress(state) { address = (address + 1) & 0x7F }
            }
        }
    }

    private func incrementsAddress(_ state: State) -> Bool {
        model == .lps22hb ? state.registers[Register.control2] & 0x10 != 0 : state.registers[Register.control3] & 0x01 != 0
    }

    private static func reset(_ state: inout State, model: Model, whoAmI: UInt8) {
        state.registers = [UInt8](repeating: 0, count: 128)
        state.registers[Register.whoAmI] = whoAmI
        if model == .lps22hb { state.registers[Register.control2] = 0x10 } else { state.registers[Register.control3] = 0x01 }
        state.clock.stop()
        state.clockRate = 0
    }

    /// The registers a host may write: interrupt and threshold settings, the control registers, FIFO
    /// control, reference pressure and offset (LPS22HB also RES_CONF, LPS22DF also IF_CTRL and CTRL_REG4).
    private var writable: Set<Int> {
        model == .lps22hb
            ? [0x0B, 0x0C, 0x0D, 0x10, 0x11, 0x12, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1A]
            : [0x0B, 0x0C, 0x0D, 0x0E, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x18, 0x19]
    }

    private func writeByte(_ value: UInt8, at address: Int, _ state: inout State) {
        guard writable.contains(address) else { return }
        if address == Register.control2 && value & 0x04 != 0 {
            Self.reset(&state, model: model, whoAmI: whoAmI)  // SWRESET, done at once and cleared
            return
        }
        state.registers[address] = address == Register.control2 ? value & ~0x81 : value  // BOOT, ONE_SHOT clear
        if address == Register.control1 { retime(&state) }
        if address == Register.control2 && value & 0x01 != 0 && dataRate(state) == 0 {
            convert(&state, at: now())  // ONE_SHOT
        }
    }

    /// The ODR CTRL_REG1 selects, Hz (0: power-down / one-shot).
    private func dataRate(_ state: State) -> Double {
        let control1 = Int(state.registers[Register.control1])
        if model == .lps22hb {
            let rates: [Double] = [0, 1, 10, 25, 50, 75, 0, 0]
            return rates[control1 >> 4 & 0b111]
        }
        let rates: [Double] = [0, 1, 4, 10, 25, 50, 75, 100, 200, 0, 0, 0, 0, 0, 0, 0]
        return rates[control1 >> 3 & 0b1111]
    }

    private func retime(_ state: inout State) {
        let rate = dataRate(state)
        guard rate != state.clockRate else { return }
        state.clockRate = rate
        if rate > 0 { state.clock.start(rate: rate, at: now()) } else { state.clock.stop() }
    }

    private func advance(_ state: inout State) {
        for time in state.clock.due(at: now()) { convert(&state, at: time) }
    }

    private func convert(_ state: inout State, at time: UInt64) {
        let truth = atmosphere.truth(time)
        let pressure = Int32(max(-8_388_608, min(8_388_607, (truth.pressure / 100 * 4096).rounded())))
        let temperature = Int16(max(-32768, min(32767, (truth.temperature * 100).rounded())))
        let pressureBits = UInt32(bitPattern: pressure)
        let temperatureBits = UInt16(bitPattern: temperature)
        state.registers[Register.pressureLow] = UInt8(pressureBits & 0xFF)
        state.registers[Register.pressureLow + 1] = UInt8(pressureBits >> 8 & 0xFF)
        state.registers[Register.pressureLow + 2] = UInt8(pressureBits >> 16 & 0xFF)
        state.registers[Register.pressureLow + 3] = UInt8(temperatureBits & 0xFF)
        state.registers[Register.pressureLow + 4] = UInt8(temperatureBits >> 8)
        var status = state.registers[Register.status]
        status |= (status & 0b11) << 4  // values still unread: overrun
        state.registers[Register.status] = status | 0b11
        state.conversions += 1
    }
}
