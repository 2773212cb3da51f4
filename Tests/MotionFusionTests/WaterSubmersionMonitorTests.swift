import MotionFusion
import MotionMath
import Testing

/// The depth gauge's rules on dive profiles with known truth: depth from EN 13319's density, submersion
/// with hysteresis, Apple's depth states, the surface pressure that follows the weather but not a descent.
@Suite struct WaterSubmersionMonitorTests {
    static let surface = 101_325.0
    static let metre = 1020 * BarometricFormula.standardGravity  // Pa per metre of water

    /// Feeds `profile` (depth in m at t) at 10 Hz for `duration` s.
    static func run(
        _ monitor: inout WaterSubmersionMonitor, duration: Double, from start: Double = 0, surface: (Double) -> Double = { _ in surface },
        depth profile: (Double) -> Double
    ) -> [(t: Double, measurement: WaterSubmersionMonitor.Measurement, change: Bool?)] {
        stride(from: start, to: start + duration, by: 0.1).map { t in
            let (measurement, change) = monitor.update(pressure: surface(t) + profile(t) * metre, timestamp: t)
            return (t, measurement, change)
        }
    }

    @Test func aDiveIsMeasuredAndItsEventsComeOnceEach() throws {
        var monitor = WaterSubmersionMonitor(sensorRange: 0...3_000_000)
        // 5 s at the surface, down at 1 m/s to 12 m, 10 s there, up at 0.5 m/s, 5 s at the surface.
        let trace = Self.run(&monitor, duration: 60) { t in
            switch t {
            case ..<5: 0
            case ..<17: t - 5
            case ..<27: 12
            case ..<51: 12 - (t - 27) * 0.5
            default: 0
            }
        }
        let changes = trace.compactMap { entry in entry.change.map { (entry.t, $0) } }
        #expect(changes.map(\.1) == [true, false])
        let down = try #require(changes.first?.0), up = try #require(changes.last?.0)
        #expect(abs(down - 5.25) < 0.11, "submerged at 0.25 m: \(down) s")
        #expect(abs(up - 50.8) < 0.11, "surfaced below 0.1 m: \(up) s")
        let deep = try #require(trace.first { abs($0.t - 22) < 0.01 }?.measurement)
        #expect(abs(try #require(deep.depth) - 12) < 1e-6 && deep.state == .submergedDeep)
        #expect(abs(try #require(deep.pressure) - (Self.surface + 12 * Self.metre)) < 1e-6 && deep.surfacePressure == Self.surface)
        let shallow = try #require(trace.first { abs($0.t - 5.5) < 0.01 }?.measurement)
        #expect(shallow.state == .submergedShallow)
        #expect(trace.filter { $0.t < 5 || $0.t > 51 }.allSatisfy { $0.measurement.state == .notSubmerged && $0.measurement.depth == nil })
    }

    @Test func theMaximumDepthIsApplesOrTheSensorsAndIsApproachedThenPassed() {
        #expect(WaterSubmersionMonitor(sensorRange: 0...3_000_000).maximumDepth == 40)
        // An MS5837-02BA's 1.2 bar end: (120 000 − 101 325) / (1020 · g₀) = 1.87 m.
        let twoBar = WaterSubmersionMonitor(sensorRange: 1_000...120_000).maximumDepth
        #expect(abs(twoBar - 1.867) < 0.001)
        var monitor = WaterSubmersionMonitor(sensorRange: 0...3_000_000)
        let states = Self.run(&monitor, duration: 50) { t in t }.map(\.measurement.state)
        #expect(states.contains(.approachingMaxDepth) && states.last == .pastMaxDepth)
        #expect(states.firstIndex(of: .approachingMaxDepth)! > states.firstIndex(of: .submergedDeep)!)
    }

    @Test func aTwoBarSensorIsShallowDeepApproachingAndPastItsEnd() {
        var monitor = WaterSubmersionMonitor(sensorRange: 1_000...120_000)
        let states = Self.run(&monitor, duration: 30) { t in t * 0.1 }.map(\.measurement.state)
        var seen: [WaterSubmersionMonitor.DepthState] = []
        for state in states where seen.last != state { seen.append(state) }
        // 1.87 m is where the sensor's 1.2 bar ends; it is approached from 1.68 m (a tenth of it).
        #expect(seen == [.notSubmerged, .submergedShallow, .submergedDeep, .approachingMaxDepth, .pastMaxDepth], "\(seen)")
    }

    @Test func aDeviceStartedUnderWaterOrAgainAfterADiveKnowsTheSurface() throws {
        // Started 3 m down: the standard atmosphere is taken for the surface.
        var started = WaterSubmersionMonitor(sensorRange: 0...3_000_000)
        let (first, change) = started.update(pressure: Self.surface + 3 * Self.metre, timestamp: 0)
        let depth = try #require(first.depth)
        #expect(change == true && abs(depth - 3) < 1e-9)
        // A new monitor on the same sensor during a dive keeps the surface the last one learned.
        var again = WaterSubmersionMonitor(sensorRange: 0...3_000_000, surfacePressure: 100_900)
        let (measurement, _) = again.update(pressure: 100_900 + 0.5 * Self.metre, timestamp: 0)
        let shallow = try #require(measurement.depth)
        #expect(again.isSubmerged && abs(shallow - 0.5) < 1e-9)
    }

    @Test func unusableReadingsAreSensorErrorsAndChangeNothing() {
        var monitor = WaterSubmersionMonitor(sensorRange: 1_000...120_000)
        _ = monitor.update(pressure: Self.surface, timestamp: 0)
        for bad in [Double.nan, .infinity, 500, 130_000] {
            let (measurement, change) = monitor.update(pressure: bad, timestamp: 1)
            #expect(measurement.state == .sensorDepthError && measurement.depth == nil && change == nil)
        }
        #expect(monitor.surfacePressure == Self.surface && !monitor.isSubmerged)
    }

    @Test func theSurfaceFollowsTheWeatherButNotASlowDescent() {
        var weather = WaterSubmersionMonitor(sensorRange: 0...3_000_000)
        // The air falls 3 hPa over 100 s: the device stays dry and the surface follows.
        let dry = Self.run(&weather, duration: 100, surface: { t in Self.surface - 3 * t }) { _ in 0 }
        #expect(dry.allSatisfy { $0.change == nil })
        #expect(abs(weather.surfacePressure - (Self.surface - 300)) < 40)
        // Sinking at 1 cm/s (a buoy filling): submerged all the same, at 0.25 m.
        var sinking = WaterSubmersionMonitor(sensorRange: 0...3_000_000)
        let trace = Self.run(&sinking, duration: 60) { t in t * 0.01 }
        let down = trace.first { $0.change == true }?.t
        #expect(down != nil && abs((down ?? 0) - 25) < 3, "submerged at \(String(describing: down)) s")
    }
}
