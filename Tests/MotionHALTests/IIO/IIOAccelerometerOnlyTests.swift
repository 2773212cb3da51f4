import Foundation
import MotionHAL
import MotionTestSupport
import Testing

/// `iio:DEVICE,sensors=accelerometer,rate=…` against a fake sysfs tree: the accelerometer's channels alone in
/// the buffer, the rate from `sampling_frequency_available`, the kernel's filter bandwidth in the info.
@Suite struct IIOAccelerometerOnlyTests {
    static let accelScale = 0.000598

    /// An MPU-6050 as its kernel driver describes it, with a low-pass attribute.
    @discardableResult
    private func mpu6050(_ tree: IIOFakeTree, attributes: [String: String] = [:]) throws -> IIOFakeDevice {
        try tree.addDevice(
            name: "mpu6050", channels: IIOFakeChannel.sixAxis,
            attributes: [
                "in_accel_scale": String(Self.accelScale), "in_anglvel_scale": "0.001064724",
                "sampling_frequency": "50", "sampling_frequency_available": "10 50 100 200 500 1000",
                "in_accel_filter_low_pass_3db_frequency": "184",
            ].merging(attributes) { _, given in given })
    }

    @Test func theHighestRateBuffersTheAccelerometerAlone() throws {
        let tree = try IIOFakeTree()
        // Running at its highest rate already, so the kernel's filter attribute is that rate's.
        let device = try mpu6050(tree, attributes: ["sampling_frequency": "1000"])
        let imu = try IIOIMU(
            device: "mpu6050", discovery: tree.discovery, sampling: .init(rate: .highest, accelerometerOnly: true))
        #expect(imu.info.sensors == [.accelerometer])
        #expect(imu.info.defaultSampleRate == 1000)
        #expect(imu.info.accelerometerBandwidth == 184)
        #expect(imu.info.gyroscopeRange == nil)
        #expect(imu.info.chip == "mpu6050 (iio:device0), accelerometer only")

        // Accelerometer x, y, z (6 bytes), 2 bytes of padding, the timestamp at 8.
        device.startStreaming(rate: 1000) { time in
            [0, 0, 16384].flatMap { littleEndian(Int16($0)) } + [0xEE, 0xEE] + littleEndian(Int64(time))
        }
        defer { device.stopStreaming() }
        let collector = DeviceEventCollector()
        try imu.start(sampleRate: imu.info.defaultSampleRate, handler: collector.handler)
        #expect(device.attribute("sampling_frequency") == "1000")
        for axis in ["x", "y", "z"] {
            #expect(device.attribute("scan_elements/in_accel_\(axis)_en") == "1")
            #expect(device.attribute("scan_elements/in_anglvel_\(axis)_en") == "0")
        }
        #expect(device.attribute("scan_elements/in_timestamp_en") == "1")
        #expect(collector.wait { $0.samples.count >= 50 })
        imu.stop()
        #expect(collector.faults.isEmpty, "\(collector.faults)")
        let samples = collector.samples
        #expect(samples.allSatisfy { $0.rotationRate == nil && $0.magneticField == nil })
        #expect(samples.allSatisfy { abs(($0.acceleration?.z ?? 0) - 16384 * Self.accelScale) < 1e-9 })
    }

    @Test func aRateIsTheSlowestAvailableAtLeastTheRequestAndOneBeyondIsRefused() throws {
        let tree = try IIOFakeTree()
        try mpu6050(tree, attributes: ["in_accel_filter_low_pass_3db_frequency": "0"])
        let imu = try IIOIMU(device: "mpu6050", discovery: tree.discovery, sampling: .init(rate: .hertz(150)))
        #expect(imu.info.defaultSampleRate == 200)
        #expect(imu.info.sensors == [.accelerometer, .gyroscope])
        #expect(imu.info.accelerometerBandwidth == nil, "0 Hz is no bandwidth")
        #expect(throws: IMUDeviceError.invalidSpecification(
            "rate=5000 Hz: IIO device mpu6050 (iio:device0) runs at 10...1000 Hz (rate=max asks for the highest)"
        )) {
            _ = try IIOIMU(device: "mpu6050", discovery: tree.discovery, sampling: .init(rate: .hertz(5000)))
        }
        #expect(throws: IMUDeviceError.invalidSpecification("sensors=accelerometer reads no magnetometer: leave out +ak8975")) {
            _ = try IIOIMU(
                device: "mpu6050", magnetometer: "ak8975", discovery: tree.discovery, sampling: .init(accelerometerOnly: true))
        }
    }

    @Test func theFiltersBandwidthIsOnlyTakenForTheRateItBelongsTo() throws {
        let tree = try IIOFakeTree()
        try mpu6050(tree)
        // Set to 50 Hz now: the attribute is the 50 Hz filter's, not the 1000 Hz one's.
        let fastest = try IIOIMU(device: "mpu6050", discovery: tree.discovery, sampling: .init(rate: .highest, accelerometerOnly: true))
        #expect(fastest.info.defaultSampleRate == 1000 && fastest.info.accelerometerBandwidth == nil)
        let current = try IIOIMU(device: "mpu6050", discovery: tree.discovery)
        #expect(current.info.defaultSampleRate == 50 && current.info.accelerometerBandwidth == 184)
    }
}
