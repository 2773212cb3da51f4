import MotionHAL
import Synchronization

/// A register-level LSM6DSOX (accelerometer and gyroscope with a tagged FIFO) for an ``EmulatedI2CBus``,
/// written from ST's datasheet DS13082 independently of the driver.
///
/// What it does as the chip does:
/// - Register file with reset values (WHO_AM_I 0x6C, CTRL3_C 0x04 with IF_INC set, CTRL9_XL 0xE0, the rest 0);
///   CTRL3_C SW_RESET restores them, empties the FIFO and clears itself; BOOT clears itself. Writes to
///   read-only registers are ignored.
/// - IF_INC: with it, a multi-byte transfer moves to the next register after each byte, and from
///   FIFO_DATA_OUT_Z_H (0x7E) back to FIFO_DATA_OUT_TAG (0x78) so bursts read consecutive words; without it
///   every byte comes from the same register.
/// - Sampling: ODR_XL (CTRL1_XL) and ODR_G (CTRL2_G) codes 1…10 (12.5 … 6667 Hz) on one
///   ``EmulatedSampleClock`` at the faster of the two (with the oscillator's error); each tick is a time slot,
///   TAG_CNT = slot mod 4; a sensor at half the rate writes every second slot. Values come from the
///   ``EmulatedMotion`` at the tick's time, divided by the sensitivity of the configured FS_XL / FS_G(+FS_125),
///   rounded and saturated to 16 bits.
/// - FIFO: a sensor whose BDR field in FIFO_CTRL3 is non-zero is batched at its ODR (batch rates that differ from
///   the ODR are not emulated); in each slot the gyroscope word comes before the accelerometer word unless
///   ``accelerometerWordFirst``. FIFO_CTRL4 mode 000 (bypass) empties it and stores nothing, 001 (FIFO) stops
///   when full, 110 (continuous) overwrites the oldest word and sets FIFO_OVR_IA and FIFO_OVR_LATCHED
///   (cleared when FIFO_STATUS2 is read); other modes behave as bypass. Capacity 512 words. FIFO_STATUS1/2 give
///   DIFF_FIFO and FIFO_FULL_IA. Reading FIFO_DATA_OUT_Z_H (0x7E) pops the word on show at 0x78…0x7E.
/// - TAG_PARITY is written so the tag byte has even parity (the datasheet does not give the sense).
public final class EmulatedLSM6DSOX: EmulatedI2CChip {
    /// Words the FIFO holds.
    public static let fifoCapacity = 512

    private let motion: EmulatedMotion
    private let now: @Sendable () -> UInt64
    private let whoAmI: UInt8
    private let accelerometerWordFirst: Bool
    private let state: Mutex<State>

    private struct State {
        var registers = [UInt8](repeating: 0, count: 256)
        var clock: EmulatedSampleClock
        /// The rate the clock runs at (the faster sensor's ODR), Hz; 0 when both are off.
        var clockRate = 0.0
        var slot: UInt64 = 0
        var fifo: [[UInt8]] = []
        var overrun = false
        var overrunLatched = false
    }

    private enum Register {
        static let fifoControl3: UInt8 = 0x09
        static let fifoControl4: UInt8 = 0x0A
        static let whoAmI: UInt8 = 0x0F
        static let accelerometerControl: UInt8 = 0x10
        static let gyroscopeControl: UInt8 = 0x11
        static let control3: UInt8 = 0x12
        static let control9: UInt8 = 0x18
        static let fifoStatus1: UInt8 = 0x3A
        static let fifoStatus2: UInt8 = 0x3B
        static let fifoTag: UInt8 = 0x78
        static let fifoLast: UInt8 = 0x7E
    }

    /// ODR codes 1…10, Hz.
    private static let rates: [Double] = [12.5, 26, 52, 104, 208, 416, 833, 1666, 3332, 6667]

    /// Creates a chip in its power-on state.
    /// - Parameters:
    ///   - motion: what it measures, in its own axes.
    ///   - oscillatorError: relative error of its clock (0.02 runs 2 % fast).
    ///   - whoAmI: the identity it reports (default 0x6C; another value emulates a different chip).
    ///   - accelerometerWordFirst: write the accelerometer's word before the gyroscope's in each slot.
    ///   - now: the time source, `CLOCK_MONOTONIC` ns.
    public init(
        motion: EmulatedMotion, oscillatorError: Double = 0, whoAmI: UInt8 = 0x6C, accelerometerWordFirst: Bool = false,
        now: @escaping @Sendable () -> UInt64 = MonotonicClock.now
    ) {
        self.motion = motion
        self.now = now
        self.whoAmI = whoAmI
        self.accelerometerWordFirst = accelerometerWordFirst
        var state = State(clock: EmulatedSampleClock(oscillatorError: oscillatorError))
        Self.reset(&state, whoAmI: whoAmI)
        self.state = Mutex(state)
    }

    /// A control register's current value, without a bus transfer's side effects (for tests; the FIFO status and
    /// output registers are computed when read over the bus, see ``fifoCount``).
    public func register(_ register: UInt8) -> UInt8 {
        state.withLock { $0.registers[Int(register)] }
    }

    /// Words waiting in the FIFO now.
    public var fifoCount: Int {
        state.withLock { state in
            advance(&state)
            return state.fifo.count
        }
    }

    public func read(startingAt register: UInt8, count: Int) -> [UInt8] {
        state.withLock { state in
            advance(&state)
            var address = register
            var bytes: [UInt8] = []
            bytes.reserveCapacity(count)
            for _ in 0..<count {
                bytes.append(readByte(at: address, &state))
                address = nextAddress(after: address, state)
            }
            return bytes
        }
    }

    public func write(startingAt register: UInt8, bytes: [UInt8]) {
        state.withLock { state in
            advance(&state)
            var address = register
            for byte in bytes {
                writeByte(byte, at: address, &state)
                address = nextAddress(after: address, state)
            }
        }
    }

    private static func reset(_ state: inout State, whoAmI: UInt8) {
        state.registers = [UInt8](repeating: 0, count: 256)
        state.registers[Int(Register.whoAmI)] = whoAmI
        state.registers[Int(Register.control3)] = 0x04
        state.registers[Int(Register.control9)] = 0xE0
        state.clock.stop()
        state.clockRate = 0
        state.fifo = []
        state.overrun = false
        state.overrunLatched = false
    }

    private func nextAddress(after address: UInt8, _ state: State) -> UInt8 {
        guard state.registers[Int(Register.control3)] & 0x04 != 0 else { return address }
        return address == Register.fifoLast ? Register.fifoTag : address &+ 1
    }

    private func readByte(at address: UInt8, _ state: inout State) -> UInt8 {
        switch address {
        case Register.fifoStatus1:
            return UInt8(truncatingIfNeeded: state.fifo.count)
        case Register.fifoStatus2:
            var value = UInt8(state.fifo.count >> 8)
            if state.overrunLatched { value |= 1 << 3 }
            if state.fifo.count == Self.fifoCapacity { value |= 1 << 5 }
            if state.overrun { value |= 1 << 6 }
            state.overrunLatched = false
            return value
        case Register.fifoTag...Register.fifoLast:
            guard let word = state.fifo.first else { return 0 }
            if address == Register.fifoLast {
                state.fifo.removeFirst()
                state.overrun = false
            }
            return word[Int(address - Register.fifoTag)]
        default:
            return state.registers[Int(address)]
        }
    }

    private func writeByte(_ value: UInt8, at address: UInt8, _ state: inout State) {
        switch address {
        case Register.whoAmI, 0x1A...0x55, 0x76...0xFF:
            return  // read-only: status, outputs, timestamps, FIFO output
        case Register.control3 where value & 0x01 != 0:
            Self.reset(&state, whoAmI: whoAmI)  // SW_RESET, done at once and cleared
        case Register.control3:
            state.registers[Int(address)] = value & 0x7F  // BOOT clears itself
        case Register.fifoControl4:
            state.registers[Int(address)] = value
            if !isStoring(state) {
                state.fifo = []
                state.overrun = false
                state.overrunLatched = false
            }
        default:
            state.registers[Int(address)] = value
            if address == Register.accelerometerControl || address == Register.gyroscopeControl {
                retime(&state)
            }
        }
    }

    private static func rate(code: UInt8) -> Double? {
        (1...10).contains(code) ? rates[Int(code) - 1] : nil
    }

    private func odr(_ register: UInt8, _ state: State) -> Double? {
        Self.rate(code: state.registers[Int(register)] >> 4)
    }

    /// Restarts the sample clock when the faster sensor's rate changed.
    private func retime(_ state: inout State) {
        let rate = max(odr(Register.accelerometerControl, state) ?? 0, odr(Register.gyroscopeControl, state) ?? 0)
        guard rate != state.clockRate else { return }
        state.clockRate = rate
        state.slot = 0
        if rate > 0 { state.clock.start(rate: rate, at: now()) } else { state.clock.stop() }
    }

    private func isStoring(_ state: State) -> Bool {
        let mode = state.registers[Int(Register.fifoControl4)] & 0b111
        return mode == 0b001 || mode == 0b110
    }

    /// Runs the chip up to now: one slot per tick of the clock, words into the FIFO.
    private func advance(_ state: inout State) {
        for time in state.clock.due(at: now()) {
            let slot = state.slot
            state.slot += 1
            guard isStoring(state) else { continue }
            let truth = motion.truth(time)
            var words: [[UInt8]] = []
            let batch = state.registers[Int(Register.fifoControl3)]
            if batch >> 4 != 0, let rate = odr(Register.gyroscopeControl, state),
                writes(rate: rate, slot: slot, state)
            {
                let perCount = gyroscopeSensitivity(state)
                words.append(word(tag: 0x01, slot: slot, truth.rotationRate ?? .zero, perCount: perCount))
            }
            if batch & 0x0F != 0, let rate = odr(Register.accelerometerControl, state),
                writes(rate: rate, slot: slot, state)
            {
                let perCount = accelerometerSensitivity(state)
                let word = word(tag: 0x02, slot: slot, truth.acceleration ?? .zero, perCount: perCount)
                if accelerometerWordFirst { words.insert(word, at: 0) } else { words.append(word) }
            }
            for word in words { push(word, &state) }
        }
    }

    /// Whether a sensor at `rate` has a sample in `slot` of a clock at the faster rate.
    private func writes(rate: Double, slot: UInt64, _ state: State) -> Bool {
        let divider = UInt64((state.clockRate / rate).rounded())
        return slot % max(divider, 1) == 0
    }

    private func push(_ word: [UInt8], _ state: inout State) {
        if state.fifo.count == Self.fifoCapacity {
            // FIFO mode stops when full; continuous mode overwrites the oldest word.
            guard state.registers[Int(Register.fifoControl4)] & 0b111 == 0b110 else { return }
            state.fifo.removeFirst()
            state.overrun = true
            state.overrunLatched = true
        }
        state.fifo.append(word)
    }

    private func word(tag sensor: UInt8, slot: UInt64, _ value: SIMD3<Double>, perCount: Double) -> [UInt8] {
        var tag = sensor << 3 | UInt8(slot % 4) << 1
        if tag.nonzeroBitCount % 2 != 0 { tag |= 1 }
        var bytes = [tag]
        for axis in [value.x, value.y, value.z] {
            let counts = Int16(max(-32768, min(32767, (axis / perCount).rounded())))
            let raw = UInt16(bitPattern: counts)
            bytes += [UInt8(raw & 0xFF), UInt8(raw >> 8)]
        }
        return bytes
    }

    /// m/s² per count of the configured FS_XL (datasheet table 2).
    private func accelerometerSensitivity(_ state: State) -> Double {
        let milliG: [Double] = [0.061, 0.488, 0.122, 0.244]  // FS_XL 00 ±2 g, 01 ±16 g, 10 ±4 g, 11 ±8 g
        return milliG[Int(state.registers[Int(Register.accelerometerControl)] >> 2 & 0b11)] * 1e-3 * 9.80665
    }

    /// rad/s per count of the configured FS_G and FS_125 (datasheet table 2).
    private func gyroscopeSensitivity(_ state: State) -> Double {
        let control = state.registers[Int(Register.gyroscopeControl)]
        let milliDegrees: [Double] = [8.75, 17.5, 35, 70]  // FS_G 00 250, 01 500, 10 1000, 11 2000 dps
        let perCount = control & 0b10 != 0 ? 4.375 : milliDegrees[Int(control >> 2 & 0b11)]
        return perCount * 1e-3 * Double.pi / 180
    }
}
