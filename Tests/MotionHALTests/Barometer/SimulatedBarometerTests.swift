import Foundation
import MotionHAL
import MotionTestSupport
import MotionMath
import Testing

/// The simulated barometer: the pure reading function, its noise, the altitude profiles and the live
/// device's agreement with the pure function.
@Suite struct SimulatedBarometerTests {
    @Test func readingsArePureAndDeterministic() {
        let device = SimulatedBarometer()
        let reading = device.reading(index: 7, sampleRate: 25, startTimestamp: 1_000)
        #expect(reading == SimulatedBarometer().reading(index: 7, sampleRate: 25, startTimestamp: 1_000))
        #expect(reading.timestamp == 1_000 + 280_000_000)
        #expect(reading.temperature == 20)
        var other = SimulatedBarometer.Configuration()
        other.seed = 2
        #expect(SimulatedBarometer(configuration: other).reading(index: 7, sampleRate: 25).pressure != reading.pressure)
    }

    @Test func withoutNoiseTheReadingIsTheStandardAtmosphere() {
        var configuration = SimulatedBarometer.Configuration(altitudeProfile: .constant(250))
        configuration.pressureNoise = 0
        configuration.referencePressure = 98_000
        let device = SimulatedBarometer(configuration: configuration)
        #expect(device.reading(index: 3, sampleRate: 10).pressure == BarometricFormula.pressure(altitude: 250, referencePressure: 98_000))
        #expect(device.truePressure(at: 100) == device.reading(index: 1000, sampleRate: 10).pressure)
    }

    @Test func theNoiseHasTheConfiguredDeviation() {
        var configuration = SimulatedBarometer.Configuration()
        configuration.pressureNoise = 2.5
        let device = SimulatedBarometer(configuration: configuration)
        let errors = (0..<4000).map { device.reading(index: $0, sampleRate: 25).pressure - 101_325 }
        let mean = errors.reduce(0, +) / Double(errors.count)
        let deviation = (errors.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(errors.count - 1)).squareRoot()
        #expect(abs(mean) < 0.15)  // 4 σ of the mean
        #expect(abs(deviation - 2.5) < 0.15)
    }

    @Test func theAltitudeProfilesFollowTheirDefinitions() {
        #expect(SimulatedBarometer.AltitudeProfile.constant(12).altitude(at: 99) == 12)
        let climb = SimulatedBarometer.AltitudeProfile.climb(height: 10, duration: 20)
        #expect(climb.altitude(at: 1.9) == 0)  // 2 s at the start
        #expect(climb.altitude(at: 12) == 5)
        #expect(climb.altitude(at: 30) == 10)
        #expect(SimulatedBarometer.AltitudeProfile.climb(height: -4, duration: 2).altitude(at: 3) == -2)
        // Two floors: 2 s pause, 6 s up (3 m at 0.5 m/s), 2 s pause, 6 s up, then the top.
        let floors = SimulatedBarometer.AltitudeProfile.floors(count: 2)
        #expect(floors.altitude(at: 1) == 0)
        #expect(floors.altitude(at: 5) == 1.5)
        #expect(floors.altitude(at: 9) == 3)
        #expect(floors.altitude(at: 13) == 4.5)
        #expect(floors.altitude(at: 16) == 6)
        #expect(floors.altitude(at: 1000) == 6)
    }

    @Test func aClimbLowersThePressureByTheFormula() {
        var configuration = SimulatedBarometer.Configuration(sampleRate: 10, altitudeProfile: .climb(height: 30, duration: 10))
        configuration.pressureNoise = 0
        let device = SimulatedBarometer(configuration: configuration)
        let start = device.reading(index: 0, sampleRate: 10).pressure
        let top = device.reading(index: 120, sampleRate: 10).pressure
        #expect(abs(BarometricFormula.altitude(pressure: top, referencePressure: start) - 30) < 1e-9)
        #expect(abs(start - top - 360) < 1)  // about 12 Pa per metre
    }

    @Test func theLiveDeviceDeliversThePureReadings() throws {
        let time = TestTime.manual()
        let device = SimulatedBarometer(
            configuration: .init(sampleRate: 100, altitudeProfile: .climb(height: 5, duration: 1)), time: time.device)
        let recorder = BarometerConformance.Recorder(time: time)
        try device.start(sampleRate: 100, handler: recorder.handler)
        #expect(recorder.wait { $0.readings.count >= 20 })
        device.stop()
        let readings = recorder.readings
        let start = readings[0].timestamp
        for (index, reading) in readings.enumerated() {
            #expect(reading == device.reading(index: index, sampleRate: 100, startTimestamp: start))
        }
    }
}
