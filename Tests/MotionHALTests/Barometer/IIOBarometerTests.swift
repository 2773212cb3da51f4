import Foundation
import MotionHAL
import MotionTestSupport
import Testing

/// The IIO barometer on fake sysfs trees: processed and raw values, temperature or none, rates.
@Suite struct IIOBarometerTests {
    /// Starts `device`, waits for one reading and stops.
    private func oneReading(_ device: IIOBarometer, rate: Double? = nil) throws -> PressureReading {
        let recorder = BarometerConformance.Recorder(time: .real)
        try device.start(sampleRate: rate ?? device.info.defaultSampleRate, handler: recorder.handler)
        recorder.wait { !$0.readings.isEmpty }
        device.stop()
        #expect(recorder.faults.isEmpty)
        return try #require(recorder.readings.first)
    }

    @Test func processedValuesAreKilopascalsAndMillidegrees() throws {
        let tree = try IIOFakeTree()
        try tree.addDevice(name: "bmp280", channels: [], attributes: ["in_pressure_input": "100.531250000", "in_temp_input": "21470"])
        let device = try IIOBarometer(device: "bmp280", discovery: tree.discovery)
        // The kernel's bmp280 driver has no sampling_frequency: any polling rate, 10 Hz by default.
        #expect(device.info == BarometerInfo(
            driver: "iio", chip: "bmp280 (iio:device0)", supportedSampleRates: 0.1...50, defaultSampleRate: 10, hasTemperature: true))
        let reading = try oneReading(device, rate: 50)
        #expect(reading.pressure == 100_531.25)
        #expect(reading.temperature == 21.47)
    }

    @Test func rawValuesAreScaledAndOffset() throws {
        let tree = try IIOFakeTree()
        // st_pressure's LPS22HB: 1005 hPa × 4096 counts, 0.000024414 kPa per count (10⁸ / 4096 nano, truncated);
        // a temperature of 2150 counts, offset −50, 10 m°C per count.
        try tree.addDevice(number: 2, name: "lps22hb", channels: [], attributes: [
            "in_pressure_raw": "4116480", "in_pressure_scale": "0.000024414",
            "in_temp_raw": "2150", "in_temp_offset": "-50", "in_temp_scale": "10.000000",
            "sampling_frequency": "25", "sampling_frequency_available": "1 10 25 50 75",
        ])
        let device = try IIOBarometer(device: "iio:device2", discovery: tree.discovery)
        #expect(device.info.supportedSampleRates == 1...75 && device.info.defaultSampleRate == 25)
        let reading = try oneReading(device)
        #expect(abs(reading.pressure - 4_116_480 * 0.000024414 * 1000) < 1e-6)  // 100499.75 Pa
        #expect(abs(reading.temperature! - 21) < 1e-12)  // (2150 − 50) × 10 m°C
    }

    @Test func startWritesTheSlowestAvailableRateAtLeastTheOneAskedFor() throws {
        let tree = try IIOFakeTree()
        let fake = try tree.addDevice(name: "lps22hb", channels: [], attributes: [
            "in_pressure_input": "100", "sampling_frequency": "1", "sampling_frequency_available": "1 10 25 50 75",
        ])
        let device = try IIOBarometer(device: "lps22hb", discovery: tree.discovery)
        #expect(device.info.defaultSampleRate == 1)
        #expect(!device.info.hasTemperature)
        let reading = try oneReading(device, rate: 30)
        #expect(fake.attribute("sampling_frequency") == "50")
        #expect(reading.temperature == nil)
    }

    @Test func aPressureChannelsOwnRateAttributeIsUsed() throws {
        let tree = try IIOFakeTree()
        let fake = try tree.addDevice(name: "dps310", channels: [], attributes: [
            "in_pressure_input": "99.5", "in_pressure_sampling_frequency": "8", "sampling_frequency_available": "[1 1 128]",
        ])
        let device = try IIOBarometer(device: "dps310", discovery: tree.discovery)
        #expect(device.info.supportedSampleRates == 1...128 && device.info.defaultSampleRate == 8)
        _ = try oneReading(device, rate: 12.5)
        #expect(fake.attribute("in_pressure_sampling_frequency") == "13")
    }

    @Test func aDeviceWithoutPressureIsUnavailable() throws {
        let tree = try IIOFakeTree()
        try tree.addDevice(name: "mpu6050", channels: IIOFakeChannel.sixAxis)
        let error = expectError(IMUDeviceError.self) { try IIOBarometer(device: "mpu6050", discovery: tree.discovery) }
        #expect(error == .unavailable("IIO device mpu6050 (iio:device0) has no pressure channel (in_pressure_input or in_pressure_raw)"))
        #expect(throws: IMUDeviceError.self) { try IIOBarometer(device: "bmp280", discovery: tree.discovery) }
    }

    @Test func aValueThatIsNotANumberIsAFailedReadAndPollingGoesOn() throws {
        let tree = try IIOFakeTree()
        let fake = try tree.addDevice(name: "bmp280", channels: [], attributes: ["in_pressure_input": "nan"])
        let device = try IIOBarometer(device: "bmp280", discovery: tree.discovery)
        let recorder = BarometerConformance.Recorder(time: .real)
        try device.start(sampleRate: 50, handler: recorder.handler)
        #expect(recorder.wait { $0.faults.count >= 2 })
        try "101.325\n".write(toFile: fake.directory + "/in_pressure_input", atomically: true, encoding: .utf8)
        #expect(recorder.wait { !$0.readings.isEmpty })
        device.stop()
        #expect(recorder.readings.first?.pressure == 101_325)
        #expect(recorder.faults.allSatisfy { if case .readFailed = $0 { true } else { false } })
    }
}
