import CoreMotion
import Foundation
import MotionHAL
import MotionMath
import MotionTestSupport
import Testing

/// ``CMWaterSubmersionManager`` over TE's MS5837-30BA, register-level emulated on an emulated I²C bus
/// whose water follows a dive profile in real time, through a dive app's delegate. The sensor is
/// process-wide, so the tests run one at a time.
@Suite(.serialized) struct CMWaterSubmersionManagerTests {
    static let metre = 1020 * BarometricFormula.standardGravity

    /// An emulated MS5837-30BA whose pressure is 101 325 Pa plus `depth(t)` metres of water, t in s from now,
    /// at 12 °C in the water and 20 °C in the air.
    static func sensor(depth: @escaping @Sendable (Double) -> Double) throws -> I2CBarometer {
        let start = MonotonicClock.now()
        let water = EmulatedAtmosphere { time in
            let t = Double(time &- start) / 1e9
            let metres = depth(t)
            return (101_325 + metres * metre, metres > 0 ? 12 : 20)
        }
        let bus = EmulatedI2CBus()
        bus.attach(EmulatedMS5837(variant: .ms5837_30ba, atmosphere: water), at: 0x76)
        return try I2CBarometer(openingBus: { bus }, busName: bus.name, address: 0x76, models: [.ms5837_30ba], time: .monotonic)
    }

    @Test func withoutASensorNothingIsAvailable() {
        CMWaterSubmersionManager.useLinuxWaterPressureSensor(nil)
        #expect(!DiveLog.isSupported)
        let log = DiveLog()
        #expect(log.maximumDepthMetres == nil)
        log.begin()
        log.end()
        #expect(log.allSamples.isEmpty)
    }

    @Test func aDiveIsLoggedWithEventsDepthsAndTemperatures() throws {
        // 1.5 s at the surface, down at 2 m/s to 3 m, 3.5 s there, up at 2 m/s, then the surface.
        let profile: @Sendable (Double) -> Double = { t in
            switch t {
            case ..<1.5: 0
            case ..<3: (t - 1.5) * 2
            case ..<6.5: 3
            case ..<8: 3 - (t - 6.5) * 2
            default: 0
            }
        }
        CMWaterSubmersionManager.useLinuxWaterPressureSensor(try Self.sensor(depth: profile))
        defer { CMWaterSubmersionManager.useLinuxWaterPressureSensor(nil) }
        #expect(DiveLog.isSupported)
        let log = DiveLog()
        #expect(log.maximumDepthMetres == 40, "a 30 bar sensor allows Apple's 40 m")
        log.begin()
        #expect(waitUntil(timeout: 20) { log.allEvents == [.notSubmerged, .submerged, .notSubmerged] }, "\(log.allEvents)")
        // Two surface measurements after the last under water, for their spacing.
        #expect(waitUntil(timeout: 5) {
            let samples = log.allSamples
            return samples.count - 1 - (samples.lastIndex { $0.depth != nil } ?? 0) >= 2
        })
        log.end()

        let samples = log.allSamples
        let underwater = samples.filter { $0.depth != nil }
        let deepest = try #require(underwater.compactMap(\.depth).max())
        #expect(abs(deepest - 3) < 0.05, "deepest \(deepest) m of 3 m: \(underwater.map { ($0.depth ?? 0, $0.pressure ?? 0) })")
        #expect(underwater.contains { $0.state == .submergedDeep } && underwater.contains { $0.state == .submergedShallow })
        #expect(underwater.allSatisfy { abs(($0.pressure ?? 0) - 101.325 - ($0.depth ?? 0) * Self.metre / 1000) < 0.05 })
        #expect(samples.allSatisfy { abs($0.surfacePressure - 101.325) < 0.05 })
        // Three a second under water, one a second at the surface.
        let spacings = zip(underwater, underwater.dropFirst()).map { $1.date.timeIntervalSince($0.date) }
        #expect(spacings.allSatisfy { $0 > 0.3 && $0 < 0.42 }, "under water: \(spacings)")
        let dry = samples.filter { $0.depth == nil }
        #expect(zip(dry, dry.dropFirst()).allSatisfy { $1.date.timeIntervalSince($0.date) > 0.95 })
        // The water's 12 °C, about once a second while under water.
        let temperatures = log.allTemperatures
        // (The last may be the air's: the sensor reads the air at once, the depth is 0.1 m behind.)
        #expect((4...9).contains(temperatures.count) && temperatures.dropLast().allSatisfy { abs($0 - 12) < 0.2 }, "\(temperatures)")
        #expect(log.errorCount == 0)
    }

    @Test func aSensorThatVanishesIsReportedOnceAndComesBack() throws {
        let bus = EmulatedI2CBus()
        bus.attach(EmulatedMS5837(variant: .ms5837_30ba), at: 0x76)
        CMWaterSubmersionManager.useLinuxWaterPressureSensor(
            try I2CBarometer(openingBus: { bus }, busName: bus.name, address: 0x76, models: [.ms5837_30ba], time: .monotonic))
        defer { CMWaterSubmersionManager.useLinuxWaterPressureSensor(nil) }
        let log = DiveLog()
        log.begin()
        defer { log.end() }
        #expect(waitUntil(timeout: 10) { !log.allSamples.isEmpty })
        bus.detach(address: 0x76)
        #expect(waitUntil(timeout: 10) { log.errorCount == 1 })
        let before = log.allSamples.count
        bus.attach(EmulatedMS5837(variant: .ms5837_30ba), at: 0x76)
        #expect(waitUntil(timeout: 15) { log.allSamples.count > before }, "measurements resume by themselves")
        #expect(log.errorCount == 1)
    }
}
