import Foundation
import MotionHAL
import MotionTestSupport
import Testing

/// The IIO driver against a fake sysfs tree: configuration written at `start` and `stop`, exact values and
/// timestamps from buffer records, mount matrices, a device that disappears, a separate magnetometer.
@Suite struct IIOIMUTests {
    /// MPU-6050 scales as its kernel driver reports them at ±2 g and ±2000 °/s.
    static let accelScale = 0.000598
    static let gyroScale = 0.001064724

    /// An MPU-6050 with a temperature channel the driver must leave off.
    @discardableResult
    private func mpu6050(_ tree: IIOFakeTree, number: Int = 0, attributes: [String: String] = [:]) throws -> IIOFakeDevice {
        try tree.addDevice(
            number: number, name: "mpu6050",
            channels: IIOFakeChannel.sixAxis + [IIOFakeChannel(name: "in_temp", index: 7, type: "le:s16/16>>0")],
            attributes: [
                "in_accel_scale": String(Self.accelScale), "in_anglvel_scale": String(Self.gyroScale),
                "sampling_frequency": "50", "sampling_frequency_available": "10 50 100 200 500 1000",
            ].merging(attributes) { _, given in given })
    }

    @Test func describesTheDevice() throws {
        let tree = try IIOFakeTree()
        try mpu6050(tree)
        let imu = try IIOIMU(device: "mpu6050", discovery: tree.discovery)
        #expect(imu.info.driver == "iio")
        #expect(imu.info.chip == "mpu6050 (iio:device0)")
        #expect(imu.info.sensors == [.accelerometer, .gyroscope])
        #expect(imu.info.supportedSampleRates == 10...1000)
        #expect(imu.info.defaultSampleRate == 50)
        // s16 full scale: 32768 counts.
        #expect(imu.info.accelerometerRange == 32768 * Self.accelScale)
        #expect(imu.info.gyroscopeRange == 32768 * Self.gyroScale)
        #expect(imu.info.magnetometerRange == nil)
    }

    @Test func startConfiguresTheBufferAndStopTurnsItOff() throws {
        let tree = try IIOFakeTree()
        let device = try mpu6050(tree)
        try tree.addTrigger(number: 0, name: "hrtimer-trigger")
        try tree.addTrigger(number: 1, name: "mpu6050-dev0")
        let imu = try IIOIMU(device: "mpu6050", discovery: tree.discovery)
        #expect(throws: IMUDeviceError.unsupportedSampleRate(2000)) { try imu.start(sampleRate: 2000) { _ in } }
        #expect(throws: IMUDeviceError.unsupportedSampleRate(5)) { try imu.start(sampleRate: 5) { _ in } }
        #expect(device.attribute("buffer/enable") == "0")

        try imu.start(sampleRate: 150) { _ in }
        // The slowest available rate at least 150 Hz, written and read back.
        #expect(device.attribute("sampling_frequency") == "200")
        #expect(device.attribute("buffer/enable") == "1")
        for axis in ["x", "y", "z"] {
            #expect(device.attribute("scan_elements/in_accel_\(axis)_en") == "1")
            #expect(device.attribute("scan_elements/in_anglvel_\(axis)_en") == "1")
        }
        #expect(device.attribute("scan_elements/in_timestamp_en") == "1")
        #expect(device.attribute("scan_elements/in_temp_en") == "0")
        #expect(device.attribute("current_timestamp_clock") == "monotonic")
        #expect(device.attribute("trigger/current_trigger") == "mpu6050-dev0")
        // 15 ms of records at 200 Hz per read; a second of records in the buffer.
        #expect(device.attribute("buffer/watermark") == "3")
        #expect(device.attribute("buffer/length") == "200")
        #expect(throws: IMUDeviceError.alreadyRunning) { try imu.start(sampleRate: 150) { _ in } }

        imu.stop()
        #expect(device.attribute("buffer/enable") == "0")
        imu.stop()  // idempotent
        #expect(device.attribute("buffer/enable") == "0")
    }

    @Test func aTriggerSelectedByTheSystemIsLeftAlone() throws {
        let tree = try IIOFakeTree()
        let device = try mpu6050(tree, attributes: ["trigger/current_trigger": "hrtimer-trigger"])
        try tree.addTrigger(number: 0, name: "hrtimer-trigger")
        let imu = try IIOIMU(device: "mpu6050", discovery: tree.discovery)
        try imu.start(sampleRate: 50) { _ in }
        imu.stop()
        #expect(device.attribute("trigger/current_trigger") == "hrtimer-trigger")
    }

    @Test func valuesAndTimestampsComeExactlyFromTheRecords() throws {
        let tree = try IIOFakeTree()
        let device = try mpu6050(tree)
        let imu = try IIOIMU(device: "mpu6050", discovery: tree.discovery)
        let collector = DeviceEventCollector()
        try imu.start(sampleRate: 50, handler: collector.handler)
        defer { imu.stop() }
        device.write(
            sixAxisRecord(accel: SIMD3(0, 0, 16384), gyro: SIMD3(1000, -1000, 0), timestamp: 5_000_000_000)
                + sixAxisRecord(accel: SIMD3(-16384, 8192, 1), gyro: SIMD3(0, 32767, -32768), timestamp: 5_020_000_000))
        // A record split across two reads is kept until it is whole.
        let third = sixAxisRecord(accel: SIMD3(100, 200, 300), gyro: SIMD3(-1, -2, -3), timestamp: 5_040_000_123)
        device.write(Array(third[..<10]))
        #expect(collector.wait { $0.samples.count == 2 })
        Thread.sleep(forTimeInterval: 0.1)
        #expect(collector.samples.count == 2)
        device.write(Array(third[10...]))
        #expect(collector.wait { $0.samples.count == 3 })

        let samples = collector.samples
        #expect(samples.map(\.timestamp) == [5_000_000_000, 5_020_000_000, 5_040_000_123])
        let a = Self.accelScale, g = Self.gyroScale
        #expect(samples[0].acceleration == SIMD3(0, 0, 16384 * a))
        #expect(samples[0].rotationRate == SIMD3(1000 * g, -1000 * g, 0))
        #expect(samples[1].acceleration == SIMD3(-16384 * a, 8192 * a, 1 * a))
        #expect(samples[1].rotationRate == SIMD3(0, 32767 * g, -32768 * g))
        #expect(samples[2].acceleration == SIMD3(100 * a, 200 * a, 300 * a))
        #expect(samples[2].rotationRate == SIMD3(-1 * g, -2 * g, -3 * g))
        #expect(samples.allSatisfy { $0.magneticField == nil })
        // The gyroscope's −32768 is at full scale: reported once, the sample kept.
        #expect(collector.faults == [.readFailed("gyroscope saturated (reading at full scale)")])
    }

    @Test func recordsLeftFromBeforeStartAreDiscarded() throws {
        let tree = try IIOFakeTree()
        let device = try mpu6050(tree)
        let imu = try IIOIMU(device: "mpu6050", discovery: tree.discovery)
        device.write(sixAxisRecord(accel: .zero, gyro: .zero, timestamp: 1_000))
        let collector = DeviceEventCollector()
        try imu.start(sampleRate: 50, handler: collector.handler)
        defer { imu.stop() }
        device.write(sixAxisRecord(accel: .zero, gyro: .zero, timestamp: 2_000))
        // The stale record was written first: delivered, it would come before this one.
        #expect(collector.wait(timeout: 10) { $0.samples.contains { $0.timestamp == 2_000 } })
        #expect(collector.samples.map(\.timestamp) == [2_000])
    }

    @Test func aRecordStampedBeforeThePreviousOneIsDropped() throws {
        let tree = try IIOFakeTree()
        let device = try mpu6050(tree)
        let imu = try IIOIMU(device: "mpu6050", discovery: tree.discovery)
        let collector = DeviceEventCollector()
        try imu.start(sampleRate: 50, handler: collector.handler)
        defer { imu.stop() }
        device.write([3_000, 2_000, 3_000, 4_000].flatMap { sixAxisRecord(accel: .zero, gyro: .zero, timestamp: $0) })
        #expect(collector.wait { $0.samples.count == 2 })
        #expect(collector.samples.map(\.timestamp) == [3_000, 4_000])
        #expect(collector.faults == [.readFailed(
            "2 records from \(device.node) with a timestamp not after the previous one dropped")])
    }

    @Test func stopFromTheHandlerEndsDeliveryAndTheDeviceStartsAgain() throws {
        let tree = try IIOFakeTree()
        let device = try mpu6050(tree)
        device.startStreaming(rate: 200) { time in sixAxisRecord(accel: SIMD3(0, 0, 16384), gyro: .zero, timestamp: time) }
        defer { device.stopStreaming() }
        let imu = try IIOIMU(device: "mpu6050", discovery: tree.discovery)
        let collector = DeviceEventCollector()
        try imu.start(sampleRate: 200) { event in
            collector.handler(event)
            imu.stop()
        }
        #expect(collector.wait { !$0.all.isEmpty })
        Thread.sleep(forTimeInterval: 0.1)
        #expect(collector.all.count == 1)
        #expect(device.attribute("buffer/enable") == "0")

        let again = DeviceEventCollector()
        try imu.start(sampleRate: 200, handler: again.handler)
        #expect(again.wait { $0.samples.count >= 10 })
        imu.stop()
        #expect(again.faults.isEmpty)
    }

    @Test func mountMatricesTurnChipAxesIntoBoardAxes() throws {
        let tree = try IIOFakeTree()
        let device = try mpu6050(tree, attributes: [
            "in_accel_mount_matrix": "0, 1, 0; -1, 0, 0; 0, 0, 1",  // chip turned 90° about z
            "mount_matrix": "-1, 0, 0; 0, -1, 0; 0, 0, 1",  // the gyroscope's: turned 180°
        ])
        let record = sixAxisRecord(accel: SIMD3(1000, 2000, 3000), gyro: SIMD3(10, 20, 30), timestamp: 1_000_000)
        let a = Self.accelScale, g = Self.gyroScale

        let imu = try IIOIMU(device: "mpu6050", discovery: tree.discovery)
        let collector = DeviceEventCollector()
        try imu.start(sampleRate: 50, handler: collector.handler)
        device.write(record)
        #expect(collector.wait { $0.samples.count == 1 })
        imu.stop()
        #expect(collector.samples.first?.acceleration == SIMD3(2000 * a, -1000 * a, 3000 * a))
        #expect(collector.samples.first?.rotationRate == SIMD3(-10 * g, -20 * g, 30 * g))

        // An explicit matrix replaces the kernel's for every sensor.
        let flipped = MountMatrix(x: SIMD3(1, 0, 0), y: SIMD3(0, -1, 0), z: SIMD3(0, 0, -1))
        let overridden = try IIOIMU(device: "mpu6050", discovery: tree.discovery, mountMatrix: flipped)
        #expect(overridden.info.chip == "mpu6050 (iio:device0) (mount matrix 1, 0, 0; 0, -1, 0; 0, 0, -1)")
        let second = DeviceEventCollector()
        try overridden.start(sampleRate: 50, handler: second.handler)
        device.write(record)
        #expect(second.wait { $0.samples.count == 1 })
        overridden.stop()
        #expect(second.samples.first?.acceleration == SIMD3(1000 * a, -2000 * a, -3000 * a))
        #expect(second.samples.first?.rotationRate == SIMD3(10 * g, -20 * g, -30 * g))
    }

    @Test func withoutAMonotonicClockRecordsAreStampedWithTheReadTime() throws {
        let tree = try IIOFakeTree()
        let device = try mpu6050(tree)
        // An old kernel without current_timestamp_clock stamps with CLOCK_REALTIME: the channel stays off.
        try FileManager.default.removeItem(atPath: device.directory + "/current_timestamp_clock")
        let imu = try IIOIMU(device: "mpu6050", discovery: tree.discovery)
        let collector = DeviceEventCollector()
        try imu.start(sampleRate: 50, handler: collector.handler)
        defer { imu.stop() }
        #expect(device.attribute("scan_elements/in_timestamp_en") == "0")
        // Records are 6 × 2 bytes now, no padding.
        let records = (0..<5).flatMap { index in
            [Int16(index), 0, 16384, 0, 0, 0].flatMap(littleEndian)
        }
        let written = MonotonicClock.now()
        device.write(records)
        #expect(collector.wait { $0.samples.count == 5 })
        let samples = collector.samples
        #expect(samples.map { $0.acceleration!.x } == (0..<5).map { Double($0) * Self.accelScale })
        // The newest at the read, the older ones back-dated by the 20 ms period.
        #expect(samples[4].timestamp >= written)
        #expect(samples[4].timestamp <= MonotonicClock.now())
        for (older, newer) in zip(samples, samples.dropFirst()) {
            #expect(newer.timestamp - older.timestamp == 20_000_000)
        }
    }

    @Test func aDeviceThatDisappearsIsReportedOnceAndCanBeStartedAgainWhenBack() throws {
        let tree = try IIOFakeTree()
        let device = try mpu6050(tree)
        let imu = try IIOIMU(device: "mpu6050", discovery: tree.discovery)
        let collector = DeviceEventCollector()
        try imu.start(sampleRate: 50, handler: collector.handler)
        device.write(sixAxisRecord(accel: SIMD3(0, 0, 16384), gyro: .zero, timestamp: 1_000_000_000))
        #expect(collector.wait { $0.samples.count == 1 })
        #expect(device.readerDescriptors == 1, "the reader has the node open")
        device.vanish()
        #expect(collector.wait { !$0.faults.isEmpty })
        // The fault ends the reader's thread, which closes the node last: nothing can follow.
        #expect(eventually(within: .seconds(10)) { device.readerDescriptors == 0 })
        #expect(collector.all.count == 2)
        // The node's end of file, or (if the reader looked in between) the sysfs directory gone.
        #expect(collector.faults.count == 1)
        guard case .unavailable(let why) = collector.faults.first else {
            Issue.record("\(collector.faults) is not one unavailable fault")
            return
        }
        #expect(why.contains("IIO device mpu6050 (iio:device0) is gone"), "\(why)")
        imu.stop()

        let missing = "no IIO device named 'mpu6050' under \(tree.discovery.sysfsRoot) (devices: none)"
        #expect(throws: IMUDeviceError.unavailable(missing)) { try imu.start(sampleRate: 50) { _ in } }
        let returned = try mpu6050(tree)
        let again = DeviceEventCollector()
        try imu.start(sampleRate: 50, handler: again.handler)
        returned.write(sixAxisRecord(accel: SIMD3(0, 0, 16384), gyro: .zero, timestamp: 2_000_000_000))
        #expect(again.wait { $0.samples.count == 1 })
        imu.stop()
        #expect(again.samples.map(\.timestamp) == [2_000_000_000])
        #expect(again.faults.isEmpty)
        #expect(returned.attribute("buffer/enable") == "0")
    }

    @Test func aVanishedSysfsDirectoryEndsTheStreamEvenWithTheNodeOpen() throws {
        let tree = try IIOFakeTree()
        let device = try mpu6050(tree)
        let imu = try IIOIMU(device: "mpu6050", discovery: tree.discovery)
        let collector = DeviceEventCollector()
        try imu.start(sampleRate: 50, handler: collector.handler)
        defer { imu.stop() }
        #expect(device.readerDescriptors == 1, "the reader has the node open")
        try FileManager.default.removeItem(atPath: device.directory)
        #expect(collector.wait { !$0.faults.isEmpty })
        // The fault ends the reader's thread, which closes the node last: nothing can follow.
        #expect(eventually(within: .seconds(10)) { device.readerDescriptors == 0 })
        #expect(collector.faults == [.unavailable(
            "IIO device mpu6050 (iio:device0) is gone (\(device.directory) vanished)")])
        #expect(collector.samples.isEmpty)
    }

    @Test func aSeparateMagnetometerRidesOnTheNextSample() throws {
        let tree = try IIOFakeTree()
        let imuDevice = try mpu6050(tree, number: 0)
        let magnetometer = try tree.addDevice(
            number: 1, name: "ak8975",
            channels: IIOFakeChannel.axes("magn", from: 0, type: "le:s16/16>>0")
                + [IIOFakeChannel(name: "in_timestamp", index: 3, type: "le:s64/64>>0")],
            attributes: ["in_magn_scale": "0.003", "sampling_frequency": "8", "sampling_frequency_available": "8 100"])
        let imu = try IMUDeviceSpecification.open(
            "iio:mpu6050+ak8975,sysfs=\(tree.discovery.sysfsRoot),dev=\(tree.discovery.deviceDirectory)")
        #expect(imu.info.chip == "mpu6050 (iio:device0) + ak8975 (iio:device1)")
        #expect(imu.info.sensors == .all)
        #expect(imu.info.magnetometerRange == 32768 * 0.003 * 100)

        let collector = DeviceEventCollector()
        try imu.start(sampleRate: 50, handler: collector.handler)
        defer { imu.stop() }
        #expect(magnetometer.attribute("buffer/enable") == "1")
        #expect(magnetometer.attribute("sampling_frequency") == "100")
        // The magnetometer measured at 1.010 s; the IMU at 1.000, 1.020 and 1.040 s.
        magnetometer.write([100, -200, 300].flatMap { littleEndian(Int16($0)) } + [0, 0] + littleEndian(Int64(1_010_000_000)))
        Thread.sleep(forTimeInterval: 0.15)
        imuDevice.write([1_000_000_000, 1_020_000_000, 1_040_000_000].flatMap {
            sixAxisRecord(accel: SIMD3(0, 0, 16384), gyro: .zero, timestamp: $0)
        })
        #expect(collector.wait { $0.samples.count == 3 })
        let samples = collector.samples
        #expect(samples[0].magneticField == nil)
        let field = try #require(samples[1].magneticField)
        // Gauss × 100 = µT: 0.3, −0.6, 0.9 G.
        #expect(maxDifference(field, SIMD3(30, -60, 90)) < 1e-9)
        #expect(samples[2].magneticField == nil)
        #expect(collector.faults.isEmpty)
    }

    @Test func keepsTheDeviceContract() throws {
        let tree = try IIOFakeTree()
        // A 9-axis IMU: accelerometer ±2 g, gyroscope ±250 °/s, magnetometer 0.15 µT per count, timestamp.
        let device = try tree.addDevice(
            name: "icm20948",
            channels: IIOFakeChannel.axes("accel", from: 0, type: "le:s16/16>>0")
                + IIOFakeChannel.axes("anglvel", from: 3, type: "le:s16/16>>0")
                + IIOFakeChannel.axes("magn", from: 6, type: "le:s16/16>>0")
                + [IIOFakeChannel(name: "in_timestamp", index: 9, type: "le:s64/64>>0")],
            attributes: [
                "in_accel_scale": "0.000598550", "in_anglvel_scale": "0.000133158", "in_magn_scale": "0.0015",
                "sampling_frequency": "200", "sampling_frequency_available": "50 100 200 500",
            ])
        // At rest face up: +1 g on z (16384 counts), no rotation, 19.95 µT north and 45 µT down.
        device.startStreaming(rate: 200) { time in
            [0, 0, 16384, 0, 0, 0, 0, 133, -300].flatMap { littleEndian(Int16($0)) } + [UInt8](repeating: 0, count: 6)
                + littleEndian(Int64(time))
        }
        defer { device.stopStreaming() }
        try IMUDeviceConformance.check(
            { try IIOIMU(device: "icm20948", discovery: tree.discovery) },
            expecting: .init(
                acceleration: SIMD3(0, 0, 9.80665), rotationRate: .zero, magneticField: SIMD3(0, 19.95, -45)))
    }
}
