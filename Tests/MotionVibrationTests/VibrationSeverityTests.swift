#if canImport(Glibc)
import Glibc
#endif
import MotionVibration
import Testing

/// The first parts of condition monitoring (issue 34): ISO 20816's severity zones with hysteresis, and the
/// velocity RMS in the time domain, on signals of known truth.
@Suite struct VibrationSeverityTests {
    @Test func theMachineClassesHaveISOsBoundaries() throws {
        let two = try #require(VibrationSeverity.Limits.machineClass(2))
        #expect([0.5, 1.12, 2.79, 2.8, 5, 7.1, 20].map(two.zone(of:)) == [.a, .b, .b, .c, .c, .d, .d])
        #expect(VibrationSeverity.Limits.machineClass(4)?.cd == 18 && VibrationSeverity.Limits.machineClass(1)?.ab == 0.71)
        #expect(VibrationSeverity.Limits.machineClass(5) == nil)
    }

    @Test func zonesRiseAtOnceAndFallOnlyPastTheHysteresis() throws {
        var severity = VibrationSeverity(limits: try #require(VibrationSeverity.Limits.machineClass(2)))
        #expect(severity.update(velocity: 2.0) == .b)
        #expect(severity.update(velocity: 2.81) == .c, "up at the boundary")
        #expect(severity.update(velocity: 2.6) == nil, "2.6 is within 10 % below 2.8: still C")
        #expect(severity.update(velocity: 2.5) == .b)
        #expect(severity.update(velocity: 20) == .d)
        #expect(severity.update(velocity: 0.1) == .a, "down several zones at once")
        #expect(severity.update(velocity: .nan) == nil && severity.zone == .a)
    }

    /// The meter's velocity RMS of a sine of acceleration amplitude `amplitude` m/s² at `frequency` Hz,
    /// on top of gravity, sampled at `rate` Hz.
    static func velocityRMS(amplitude: Double, frequency: Double, rate: Double) -> (vector: Double, axes: SIMD3<Double>) {
        var meter = VibrationVelocityMeter()
        let step = 1 / rate
        for index in 0..<Int(8 * rate) {
            let t = Double(index) * step
            let a = amplitude * sin(2 * .pi * frequency * t)
            meter.update(specificForce: SIMD3(a, 0, 9.81), deltaTime: step)
        }
        #expect(meter.isSettled)
        return (meter.vector, meter.axes)
    }

    @Test(arguments: [(25.0, 1600.0), (50, 1600), (120, 3200), (400, 3200), (700, 6660), (300, 1600)])
    func aSineReadsItsVelocityWithinTwoPercent(frequency: Double, rate: Double) {
        // Velocity amplitude a / (2πf); its RMS that over √2, in mm/s; through the band's analog response
        // (high edge 1000 Hz or 0.4 × the rate, low edge 10 Hz applied twice).
        let amplitude = 5.0
        let high = min(1000, 0.4 * rate)
        let band = 1 / (1 + pow(frequency / high, 4)).squareRoot() / (1 + pow(10 / frequency, 4))
        let truth = amplitude / (2 * .pi * frequency) / 2.0.squareRoot() * 1000 * band
        let measured = Self.velocityRMS(amplitude: amplitude, frequency: frequency, rate: rate)
        #expect(abs(measured.vector / truth - 1) < 0.02, "\(frequency) Hz: \(measured.vector) mm/s of \(truth)")
        #expect(measured.axes.y < truth * 0.01 && measured.axes.z < truth * 0.01, "gravity and the still axes read nothing")
    }
}
