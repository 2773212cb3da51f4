import Foundation
import Testing

@testable import CoreMotion

/// The recorded-data and result classes added for the rest of Apple's framework archive and read back
/// their values under secure coding, and an archive missing a value reads as nil.
@Suite struct CMSecureCodingRecordedTests {
    static let start = Date(timeIntervalSince1970: 1_796_000_000)

    @Test func recordedSamplesKeepTheirBatchAndDate() throws {
        let sample = CMRecordedAccelerometerData(
            acceleration: CMAcceleration(x: 0.1, y: 0, z: -1), timestamp: 3, identifier: UInt64.max - 1, startDate: Self.start)
        let read = try CMSecureCodingTests.roundTrip(sample)
        #expect(read.identifier == UInt64.max - 1 && read.startDate == Self.start && read.acceleration.x == 0.1 && read.timestamp == 3)
        let rotation = try CMSecureCodingTests.roundTrip(
            CMRecordedRotationRateData(linuxRotationRate: CMRotationRate(x: 0, y: 0.5, z: 0), timestamp: 4, startDate: Self.start))
        #expect(rotation.rotationRate.y == 0.5 && rotation.startDate == Self.start)
        let pressure = try CMSecureCodingTests.roundTrip(
            CMRecordedPressureData(linuxPressure: 101.2, temperature: 21.5, timestamp: 5, identifier: 7, startDate: Self.start))
        #expect(pressure.pressure.converted(to: .hectopascals).value == 1012 && pressure.temperature.value == 21.5)
        #expect(pressure.identifier == 7 && pressure.startDate == Self.start)
    }

    @Test func resultClassesKeepTheirValues() throws {
        let tremor = try CMSecureCodingTests.roundTrip(CMTremorResult())
        #expect(tremor.percentNone == 0 && tremor.startDate == tremor.endDate)
        let dyskinesia = try CMSecureCodingTests.roundTrip(CMDyskineticSymptomResult())
        #expect(dyskinesia.percentLikely == 0)
        let odometer = try CMSecureCodingTests.roundTrip(CMOdometerData())
        #expect(odometer.speed == -1 && odometer.originDevice == .unknown && odometer.deltaDistance == 0)
        let heart = try CMSecureCodingTests.roundTrip(CMHighFrequencyHeartRateData())
        #expect(heart.heartRate == 0 && heart.confidence == .low && heart.date == nil)
    }

    @Test func waterClassesKeepTheirValues() throws {
        let event = try CMSecureCodingTests.roundTrip(CMWaterSubmersionEvent(date: Self.start, state: .submerged))
        #expect(event.date == Self.start && event.state == .submerged)
        let measurement = try CMSecureCodingTests.roundTrip(
            CMWaterSubmersionMeasurement(date: Self.start, depth: 12.5, pressure: 226.4, surfacePressure: 101.3, state: .submergedDeep))
        #expect(measurement.depth?.value == 12.5 && measurement.pressure?.value == 226.4 && measurement.surfacePressure.value == 101.3)
        #expect(measurement.submersionState == .submergedDeep && measurement.date == Self.start)
        let dry = try CMSecureCodingTests.roundTrip(
            CMWaterSubmersionMeasurement(date: Self.start, depth: nil, pressure: nil, surfacePressure: 101.3, state: .notSubmerged))
        #expect(dry.depth == nil && dry.pressure == nil)
        let temperature = try CMSecureCodingTests.roundTrip(CMWaterTemperature(date: Self.start, temperature: 14.5, uncertainty: 2))
        #expect(temperature.temperature.value == 14.5 && temperature.temperatureUncertainty.value == 2)
    }

    @Test func anArchiveMissingAValueReadsAsNil() throws {
        let archiver = NSKeyedArchiver(requiringSecureCoding: true)
        archiver.encode(1.0, forKey: "timestamp")
        archiver.finishEncoding()
        let unarchiver = try NSKeyedUnarchiver(forReadingFrom: archiver.encodedData)
        #expect(CMRecordedAccelerometerData(coder: unarchiver) == nil)
        #expect(CMAmbientPressureData(coder: unarchiver) == nil)
        #expect(CMTremorResult(coder: unarchiver) == nil && CMOdometerData(coder: unarchiver) == nil)
        #expect(CMWaterSubmersionEvent(coder: unarchiver) == nil && CMWaterTemperature(coder: unarchiver) == nil)
    }
}
