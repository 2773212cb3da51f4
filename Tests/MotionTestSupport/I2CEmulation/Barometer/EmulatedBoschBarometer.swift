import MotionHAL
import Synchronization

/// A register-level Bosch BMP280 or BME280 for an ``EmulatedI2CBus``, written from the datasheets
/// (BST-BMP280-DS001, BST-BME280-DS002) independently of the driver.
///
/// What it does as the chip does:
/// - Register file with reset values: id 0x58 / 0x60, the trimming parameters at 0x88…0x9F (BME280: dig_H1
///   at 0xA1, dig_H2…H6 at 0xE1…0xE7), ctrl_meas and config 0, the data registers 0x80000 ("not measured",
///   press_msb and temp_msb 0x80). Writing 0xB6 to reset (0xE0) restores them; for 2 ms afterwards (the
///   start-up time) status im_update is set and the trimming registers read 0. Writes to read-only
///   registers are ignored, and so are writes to config in normal mode (§5.4.6: "may be ignored"; in sleep
///   mode they are not). BME280 ctrl_hum takes effect with the next write of ctrl_meas. Multi-byte reads
///   auto-increment.
/// - Conversions: in normal mode every `t_measure + t_standby` from the write of ctrl_meas (the first
///   `t_measure` after it), forced mode once and back to sleep, on an ``EmulatedSampleClock`` with the
///   oscillator's error; `t_measure = 1 + 2·osrs_t + 2·osrs_p + 0.5 (+ 2·osrs_h + 0.5)` ms typical (§3.8.1).
///   status measuring is set during each conversion.
/// - Values: the ``EmulatedAtmosphere``'s truth at the conversion's time, turned into raw values by
///   inverting the datasheet's floating-point compensation (``BoschCompensation``'s floating-point formulas, in the test support), through the IIR
///   filter `x = (x·(c−1) + new) / c` (its memory starting from the first conversion after sleep), and
///   quantised to the resolution: 20 bits with the filter on, else 16 + (osrs − 1) bits (§3.3.3). A
///   quantity whose oversampling is 0 ("skipped") reads 0x80000. BME280 humidity: the atmosphere's, by
///   inverting the datasheet's floating-point humidity formula at the conversion's t_fine, 16 bits, not
///   IIR-filtered (the filter is for pressure and temperature, §3.4.3); 0x8000 while ctrl_hum skips it.
public final class EmulatedBoschBarometer: EmulatedI2CChip {
    /// Which chip to emulate.
    public enum Model: Sendable {
        /// BMP280: id 0x58, standby up to 4 s.
        case bmp280
        /// BME280: id 0x60, standby codes 110 and 111 are 10 and 20 ms, a humidity sensor.
        case bme280
    }

    private let model: Model
    private let atmosphere: EmulatedAtmosphere
    private let trimming: BoschCompensation
    private let humidityTrimming: BoschHumidityCompensation
    private let now: @Sendable () -> UInt64
    private let state: Mutex<State>

    private struct State {
        var registers = [UInt8](repeating: 0, count: 256)
        var clock: EmulatedSampleClock
        /// The typical conversion time of the current settings, ns.
        var conversionTime: UInt64 = 0
        /// The IIR filter's memory: raw pressure and temperature (`nil` until the first conversion).
        var filtered: (pressure: Double, temperature: Double)?
        /// ctrl_hum's oversampling code in effect (it changes with the next write of ctrl_meas).
        var humidityCode: UInt8 = 0
        /// Until when the NVM copy after a reset runs (im_update), ns.
        var startingUntil: UInt64 = 0
        /// Raw values the data registers show instead of converted ones (pressure, temperature), if set.
        var heldRawValues: (pressure: Int32, temperature: Int32)?
        var conversions = 0
    }

    private enum Register {
        static let trimming = 0x88
        static let humidityH1 = 0xA1
        static let identity = 0xD0
        static let reset: UInt8 = 0xE0
        static let humidityH2 = 0xE1
        static let controlHumidity: UInt8 = 0xF2
        static let status: UInt8 = 0xF3
        static let controlMeasurement: UInt8 = 0xF4
        static let configuration: UInt8 = 0xF5
        static let pressure = 0xF7
        static let temperature = 0xFA
        static let humidity = 0xFD
    }

    /// Oversampling of each osrs code 0…7: skipped, ×1 … ×16 (codes above 5 are ×16).
    private static let oversampling = [0, 1, 2, 4, 8, 16, 16, 16]

    /// Creates a chip in its power-on state.
    /// - Parameters:
    ///   - model: BMP280 or BME280.
    ///   - atmosphere: what it measures.
    ///   - trimming: the calibration in its NVM (default: the datasheet's example).
    ///   - humidityTrimming: a BME280's humidity calibration (default: a typical chip's).
    ///   - oscillatorError: relative error of its clock (0.01 runs 1 % fast).
    ///   - now: the time source, `CLOCK_MONOTONIC` ns.
    public init(
        model: Model = .bmp280, atmosphere: EmulatedAtmosphere = .constant(),
        trimming: BoschCompensation = .datasheetExample, humidityTrimming: BoschHumidityCompensation = .typical,
        oscillatorError: Double = 0,
        now: @escaping @Sendable () -> UInt64 = MonotonicClock.now
    ) {
        self.model = model
        self.atmosphere = atmosphere
        self.trimming = trimming
        self.humidityTrimming = humidityTrimming
        self.now = now
        var state = State(clock: EmulatedSampleClock(oscillatorError: oscillatorError))
        Self.reset(&state, model: model, trimming: trimming, humidityTrimming: humidityTrimming, startingUntil: 0)
        self.state = Mutex(state)
    }

    /// The current value of a register, without a bus transfer's side effects (for tests).
    public func register(_ register: UInt8) -> UInt8 {
        state.withLock { $0.registers[Int(register)] }
    }

    /// The conversion rate configured now, Hz (0 when not in normal mode).
    public var conversionRate: Double {
        state.withLock { $0.clock.start == nil || $0.registers[Int(Register.controlMeasurement)] & 0b11 != 0b11 ? 0 : 1e9 / $0.clock.period }
    }

    /// How many conversions the chip has made since it was created.
    public var conversionCount: Int { state.withLock { $0.conversions } }

    /// A power-on reset, as after a brown-out: every register to its reset value, sleep mode.
    public func powerOnReset() {
        state.withLock { Self.reset(&$0, model: model, trimming: trimming, humidityTrimming: humidityTrimming, startingUntil: now() + 2_000_000) }
    }

    /// Makes the data registers show these 20-bit raw values (instead of converted ones) from the next
    /// conversion on, or converted ones again for `nil`.
    public func holdRawValues(_ values: (pressure: Int32, temperature: Int32)?) {
        state.withLock { $0.heldRawValues = values }
    }

    /// A combined read, with the side effects described on the type (conversions due by now come first).
    public func read(startingAt register: UInt8, count: Int) -> [UInt8] {
        state.withLock { state in
            let time = now()
            advance(&state, to: time)
            return (0..<count).map { offset in
                let address = Int(register &+ UInt8(truncatingIfNeeded: offset))
                if address == Int(Register.status) { return status(state, at: time) }
                let isTrimming = (Register.trimming..<Register.trimming + 26).contains(address)
                    || (model == .bme280 && (Register.humidityH2...Register.humidityH2 + 6).contains(address))
                if isTrimming && time < state.startingUntil { return 0 }  // the NVM is still being copied
                return state.registers[address]
            }
        }
    }

    /// A write, with the side effects described on the type (conversions due by now come first).
    public func write(startingAt register: UInt8, bytes: [UInt8]) {
        state.withLock { state in
            let time = now()
            advance(&state, to: time)
            for (offset, value) in bytes.enumerated() {
                writeByte(value, at: register &+ UInt8(offset), time: time, &state)
            }
        }
    }

    private static func reset(
        _ state: inout State, model: Model, trimming: BoschCompensation, humidityTrimming: BoschHumidityCompensation, startingUntil: UInt64
    ) {
        state.registers = [UInt8](repeating: 0, count: 256)
        state.registers.replaceSubrange(Register.trimming..<Register.trimming + 24, with: trimming.registerBytes)
        state.registers[Register.identity] = model == .bmp280 ? 0x58 : 0x60
        state.registers[Register.pressure] = 0x80
        state.registers[Register.temperature] = 0x80
        if model == .bme280 {
            state.registers[Register.humidityH1] = humidityTrimming.h1
            state.registers.replaceSubrange(Register.humidityH2..<Register.humidityH2 + 7, with: humidityTrimming.registerBytes)
            state.registers[Register.humidity] = 0x80
        }
        state.clock.stop()
        state.filtered = nil
        state.humidityCode = 0
        state.startingUntil = startingUntil
    }

    private func writeByte(_ value: UInt8, at address: UInt8, time: UInt64, _ state: inout State) {
        switch address {
        case Register.reset where value == 0xB6:
            Self.reset(&state, model: model, trimming: trimming, humidityTrimming: humidityTrimming, startingUntil: time + 2_000_000)
        case Register.controlHumidity where model == .bme280:
            state.registers[Int(address)] = value & 0b111
        case Register.controlMeasurement:
            state.registers[Int(address)] = value
            state.humidityCode = model == .bme280 ? state.registers[Int(Register.controlHumidity)] : 0
            retime(&state, at: time)
        case Register.configuration:
            let normal = state.registers[Int(Register.controlMeasurement)] & 0b11 == 0b11
            if !normal { state.registers[Int(address)] = value & 0b1111_1101 }
        default:
            return  // read-only, reserved, or a reset without the magic value
        }
    }

    /// Starts or stops conversions for the mode now in ctrl_meas.
    private func retime(_ state: inout State, at time: UInt64) {
        let control = state.registers[Int(Register.controlMeasurement)]
        let mode = control & 0b11
        guard mode != 0 else {
            state.clock.stop()
            state.filtered = nil
            return
        }
        let temperature = Double(Self.oversampling[Int(control >> 5)])
        let pressure = Double(Self.oversampling[Int(control >> 2 & 0b111)])
        let humidity = Double(Self.oversampling[Int(state.humidityCode & 0b111)])
        var conversion = 1 + 2 * temperature
        if pressure > 0 { conversion += 2 * pressure + 0.5 }
        if humidity > 0 { conversion += 2 * humidity + 0.5 }
        let standbys: [Double] = model == .bmp280
            ? [0.5, 62.5, 125, 250, 500, 1000, 2000, 4000] : [0.5, 62.5, 125, 250, 500, 1000, 10, 20]
        let standby = mode == 0b11 ? standbys[Int(state.registers[Int(Register.configuration)] >> 5)] : 0
        let cycle = conversion + standby
        state.conversionTime = UInt64(conversion * 1e6)
        // The clock's first tick one cycle after its start: the first conversion ends t_measure after now.
        let lead = UInt64(cycle * 1e6) - state.conversionTime
        state.clock.start(rate: 1000 / cycle, at: time > lead ? time - lead : 0)
    }

    /// status: measuring while a conversion runs, im_update while the NVM is copied.
    private func status(_ state: State, at time: UInt64) -> UInt8 {
        var status: UInt8 = time < state.startingUntil ? 0x01 : 0
        if let start = state.clock.start {
            let nextEnd = start + UInt64(Double(state.clock.produced + 1) * state.clock.period)
            if time + state.conversionTime >= nextEnd { status |= 0x08 }
        }
        return status
    }

    /// Makes every conversion due by `time`.
    private func advance(_ state: inout State, to time: UInt64) {
        for conversionTime in state.clock.due(at: time) {
            convert(&state, at: conversionTime)
            state.conversions += 1
            if state.registers[Int(Register.controlMeasurement)] & 0b11 != 0b11 {
                state.registers[Int(Register.controlMeasurement)] &= ~0b11  // forced: back to sleep
                state.clock.stop()
                break
            }
        }
    }

    private func convert(_ state: inout State, at time: UInt64) {
        let control = state.registers[Int(Register.controlMeasurement)]
        let filterCode = Int(state.registers[Int(Register.configuration)] >> 2 & 0b111)
        let coefficient = Double([1, 2, 4, 8, 16, 16, 16, 16][filterCode])
        let previous = filterCode == 0 ? nil : state.filtered
        func filtered(_ raw: Double, _ old: Double?) -> Double {
            old.map { ($0 * (coefficient - 1) + raw) / coefficient } ?? raw
        }
        func quantised(_ raw: Double, osrs: UInt8) -> Int32 {
            guard osrs != 0 else { return 0x80000 }
            let bits = filterCode != 0 ? 20 : 15 + min(Int(osrs), 5)
            let step = Double(1 << (20 - bits))
            return Int32(min(max((raw / step).rounded() * step, 0), 1_048_575))
        }
        // Temperature first: the pressure's raw value depends on the t_fine the chip's own temperature gives.
        let truth = atmosphere.truth(time)
        let temperature = filtered(trimming.temperatureADC(for: truth.temperature), previous?.temperature)
        var rawTemperature = quantised(temperature, osrs: control >> 5)
        let fine = trimming.floatingPointTemperature(adc: Double(rawTemperature)).fineTemperature
        let pressure = filtered(trimming.pressureADC(for: truth.pressure, fineTemperature: fine), previous?.pressure)
        var rawPressure = quantised(pressure, osrs: control >> 2 & 0b111)
        state.filtered = (pressure, temperature)
        if let held = state.heldRawValues { (rawPressure, rawTemperature) = held }
        for (base, raw) in [(Register.pressure, rawPressure), (Register.temperature, rawTemperature)] {
            state.registers[base] = UInt8(raw >> 12 & 0xFF)
            state.registers[base + 1] = UInt8(raw >> 4 & 0xFF)
            state.registers[base + 2] = UInt8(raw & 0xF) << 4
        }
        if model == .bme280 {
            let raw = state.humidityCode == 0
                ? 0x8000
                : Int(min(max(humidityTrimming.humidityADC(for: atmosphere.humidity, fineTemperature: fine).rounded(), 0), 65_535))
            state.registers[Register.humidity] = UInt8(raw >> 8)
            state.registers[Register.humidity + 1] = UInt8(raw & 0xFF)
        }
    }
}
