import MotionHAL
import Synchronization

/// A command-level TE MS5837-30BA or -02BA for an ``EmulatedI2CBus``, written from the datasheets
/// independently of the driver.
///
/// What it does as the chip does:
/// - Every transfer starts with a command byte (a write of it alone, or the write half of a combined read).
///   Reset (0x1E) reloads the PROM, which reads 0 for the reload's 2.8 ms; at power-on (and after
///   ``powerOnReset()``) the PROM is not loaded and reads 0 until the first reset, as the datasheets'
///   "send Reset once after power-on" implies. PROM read (0xA0 + 2·i) answers word i big-endian; word 7
///   reads 0. Other bytes are no command and answer 0.
/// - Convert D1 (0x40…0x4A) or D2 (0x50…0x5A) converts for its OSR's time: the datasheet's maximum times
///   ``conversionTimeFactor`` (default 0.9, a typical chip). ADC read (0x00) answers the 24-bit result
///   once, then 0; 0 also when nothing was converted; read during a conversion it answers 0 and spoils
///   the conversion, as a new convert command during one does (the datasheets' "the final result will be
///   wrong": here half the right value).
/// - Values: the ``EmulatedAtmosphere``'s truth when the conversion was commanded, turned into raw values
///   by inverting the datasheet's compensation in real numbers (``MS5837Compensation``'s emulation
///   extension); the pressure's D1 is computed for the raw temperature the chip would measure then.
/// - Faults: the bus's (`failNextTransfers`, `detach`), ``powerOnReset()`` (a brown-out), and a PROM of
///   the test's choosing (`prom:`, e.g. a bad CRC).
///
/// Threading: any (a lock of its own, as every ``EmulatedI2CChip``).
public final class EmulatedMS5837: EmulatedI2CChip {
    /// The part emulated (its formulas and version field).
    public let variant: MS5837Variant
    /// The calibration the chip's PROM holds.
    public let calibration: MS5837Compensation
    /// The conversion time as a fraction of the datasheet's maximum.
    public let conversionTimeFactor: Double

    private let prom: [UInt16]
    private let atmosphere: EmulatedAtmosphere
    private let now: @Sendable () -> UInt64
    private let state = Mutex(State())

    private struct Conversion {
        var endsAt: UInt64
        var value: UInt32
        var spoiled: Bool
    }

    private struct State {
        var promLoaded = false
        var reloadingUntil: UInt64 = 0
        var conversion: Conversion?
        /// The result the next ADC read gives (nil: 0).
        var result: UInt32?
        var conversions = 0
    }

    /// The PROM reload after a reset, ns (the MS5611 family's 2.8 ms).
    private static let reloadTime: UInt64 = 2_800_000

    /// Creates a chip just powered on (PROM not loaded).
    /// - Parameters:
    ///   - variant: the part, default the -30BA.
    ///   - atmosphere: what it measures.
    ///   - calibration: C1…C6 (default the part's datasheet example); its variant is replaced by `variant`.
    ///   - version: PROM word 0's version field (default the part's first).
    ///   - prom: PROM words 0…6 to answer instead of the calibration's (a corrupt PROM, another chip).
    ///   - conversionTimeFactor: conversion time / the datasheet's maximum (default 0.9).
    ///   - now: the time source, `CLOCK_MONOTONIC` ns.
    public init(
        variant: MS5837Variant = .ms5837_30ba, atmosphere: EmulatedAtmosphere = .constant(),
        calibration: MS5837Compensation? = nil, version: UInt8? = nil, prom: [UInt16]? = nil,
        conversionTimeFactor: Double = 0.9, now: @escaping @Sendable () -> UInt64 = MonotonicClock.now
    ) {
        var calibration = calibration
            ?? (variant == .ms5837_02ba ? MS5837Compensation.datasheetExample02BA : .datasheetExample30BA)
        calibration.variant = variant
        self.variant = variant
        self.calibration = calibration
        self.prom = prom ?? calibration.promWords(version: version)
        self.atmosphere = atmosphere
        self.conversionTimeFactor = conversionTimeFactor
        self.now = now
    }

    /// How many conversions the chip has made since it was created.
    public var conversionCount: Int { state.withLock { $0.conversions } }

    /// A power-on reset, as after a brown-out: the PROM unloaded until the next reset command, the
    /// conversion in flight and the ADC result lost.
    public func powerOnReset() {
        state.withLock { $0 = State(conversions: $0.conversions) }
    }

    /// A combined read: the command, then its answer (see the type).
    public func read(startingAt command: UInt8, count: Int) -> [UInt8] {
        state.withLock { state in
            let time = now()
            execute(command, at: time, &state)
            var answer: [UInt8] = []
            switch command {
            case 0x00:
                answer = Self.bytes(of: adcRead(at: time, &state), count: 3)
            case 0xA0...0xAE where command % 2 == 0:
                let index = Int(command - 0xA0) / 2
                let loaded = state.promLoaded && time >= state.reloadingUntil && index < prom.count
                answer = Self.bytes(of: loaded ? UInt32(prom[index]) : 0, count: 2)
            default:
                break
            }
            return (answer + [UInt8](repeating: 0, count: count)).prefix(count).map { $0 }
        }
    }

    /// A write: its first byte is a command; data after it changes nothing.
    public func write(startingAt command: UInt8, bytes: [UInt8]) {
        state.withLock { execute(command, at: now(), &$0) }
    }

    /// Reset and convert commands (reads and unknown bytes do nothing here).
    private func execute(_ command: UInt8, at time: UInt64, _ state: inout State) {
        switch command {
        case 0x1E:
            state.promLoaded = true
            state.reloadingUntil = time + Self.reloadTime
            state.conversion = nil
            state.result = nil
        case 0x40...0x4A where command % 2 == 0, 0x50...0x5A where command % 2 == 0:
            let oversampling = MS5837Oversampling.allCases[Int(command & 0x0F) / 2]
            let truth = atmosphere.truth(time)
            let d2 = calibration.temperatureADC(for: truth.temperature)
            let value = command < 0x50 ? calibration.pressureADC(for: truth.pressure, d2: d2) : d2
            let duration = UInt64(oversampling.maximumConversionTime * conversionTimeFactor * 1e9)
            let busy = state.conversion.map { time < $0.endsAt } ?? false
            state.conversion = Conversion(endsAt: time + duration, value: value, spoiled: busy)
            state.result = nil
        default:
            break
        }
    }

    /// The ADC read: the finished conversion's result once, 0 otherwise (and a running one spoiled).
    private func adcRead(at time: UInt64, _ state: inout State) -> UInt32 {
        if var conversion = state.conversion {
            guard time >= conversion.endsAt else {
                conversion.spoiled = true
                state.conversion = conversion
                return 0
            }
            state.result = conversion.spoiled ? conversion.value / 2 : conversion.value
            state.conversion = nil
            state.conversions += 1
        }
        defer { state.result = nil }
        return state.result ?? 0
    }

    private static func bytes(of value: UInt32, count: Int) -> [UInt8] {
        (0..<count).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
}
