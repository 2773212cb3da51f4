import Foundation
import MotionHAL
import Testing

/// Finding IIO devices and reading their channels, scales, offsets, rates and mount matrices.
@Suite struct IIODiscoveryTests {
    /// An ADXL345 at device 0 and an MPU-6050 with a temperature channel at device 1, and the MPU's trigger.
    private func twoDevices() throws -> IIOFakeTree {
        let tree = try IIOFakeTree()
        try tree.addDevice(
            number: 0, name: "adxl345", channels: IIOFakeChannel.axes("accel", from: 0, type: "le:s13/16>>0"),
            attributes: ["in_accel_scale": "0.038300", "sampling_frequency": "100",
                         "sampling_frequency_available": "[6.25 6.25 3200]"])
        try tree.addDevice(
            number: 1, name: "mpu6050",
            channels: IIOFakeChannel.sixAxis + [IIOFakeChannel(name: "in_temp", index: 7, type: "le:s16/16>>0")],
            attributes: [
                // x has a scale and an offset of its own; y and z use the shared ones.
                "in_accel_x_scale": "0.01", "in_accel_x_offset": "-2",
                "in_accel_scale": "0.005", "in_accel_offset": "4",
                "in_anglvel_scale": "0.001064724",
                "sampling_frequency": "50", "sampling_frequency_available": "10 1000 50 100 200 500",
            ])
        try tree.addTrigger(number: 0, name: "mpu6050-dev1")
        return tree
    }

    @Test func findsDevicesByNameAndByDirectory() throws {
        let tree = try twoDevices()
        let byName = try tree.discovery.device("mpu6050")
        #expect(byName.directoryName == "iio:device1" && byName.number == 1 && byName.name == "mpu6050")
        #expect(byName.nodePath == tree.discovery.deviceDirectory + "/iio:device1")
        #expect(byName.sysfsPath == tree.discovery.sysfsRoot + "/iio:device1")
        #expect(try tree.discovery.device("iio:device0").name == "adxl345")
        #expect(try tree.discovery.devices().map(\.name) == ["adxl345", "mpu6050"])
        #expect(tree.discovery.triggerNames() == ["mpu6050-dev1"])
        // The temperature channel is not an IMU channel; the rest are, each with its scan index and type.
        #expect(byName.channels.map(\.name) == [
            "in_accel_x", "in_accel_y", "in_accel_z", "in_anglvel_x", "in_anglvel_y", "in_anglvel_z", "in_timestamp",
        ])
        #expect(byName.bufferedSensors == [.acceleration, .angularVelocity])
        #expect(byName.timestampChannel?.scanIndex == 6)
        let timestampType = IIOScanElementType(endianness: .little, isSigned: true, bits: 64, storageBits: 64)
        #expect(byName.timestampChannel?.scanType == timestampType)
        #expect(byName.hasBuffer)
    }

    @Test func aMissingDeviceIsNamedWithTheDevicesThereAre() throws {
        let tree = try twoDevices()
        let present = "adxl345 (iio:device0), mpu6050 (iio:device1)"
        #expect(throws: IMUDeviceError.unavailable(
            "no IIO device named 'bmi160' under \(tree.discovery.sysfsRoot) (devices: \(present))")
        ) { try tree.discovery.device("bmi160") }
        #expect(throws: IMUDeviceError.unavailable("no IIO device iio:device7 under \(tree.discovery.sysfsRoot)")) {
            try tree.discovery.device("iio:device7")
        }
        let nowhere = IIODeviceDiscovery(sysfsRoot: tree.root + "/missing")
        #expect(throws: IMUDeviceError.unavailable(
            "no IIO sysfs directory \(tree.root)/missing (is the kernel's industrialio module loaded?)")
        ) { try nowhere.devices() }
    }

    @Test func scaleAndOffsetPerChannelAndShared() throws {
        let tree = try twoDevices()
        let device = try tree.discovery.device("mpu6050")
        let accel = try #require(device.bufferedAxes(of: .acceleration))
        #expect(accel.map(\.scale) == [0.01, 0.005, 0.005])
        #expect(accel.map(\.offset) == [-2, 4, 4])
        // (raw + offset) × scale, m/s².
        #expect(accel[0].value(raw: 1002) == 10.0)
        #expect(accel[1].value(raw: 1958) == 9.81)
        #expect(accel[2].value(raw: -204) == -1.0)
        let gyro = try #require(device.bufferedAxes(of: .angularVelocity))
        #expect(gyro.allSatisfy { $0.scale == 0.001064724 && $0.offset == 0 })
        #expect(gyro[0].value(raw: 1000) == 1000 * 0.001064724)
        // Full scale from the s16 type: the larger of |−32768 + 4| and |32767 + 4|, times 0.005.
        #expect(accel[1].fullScale == 32771 * 0.005)
    }

    @Test func magnetometerGaussBecomeMicrotesla() throws {
        let tree = try IIOFakeTree()
        try tree.addDevice(
            name: "ak8975", channels: IIOFakeChannel.axes("magn", from: 0, type: "le:s16/16>>0"),
            attributes: ["in_magn_x_scale": "0.003", "in_magn_y_scale": "0.003", "in_magn_z_scale": "0.0015"])
        let magn = try #require(try tree.discovery.device("ak8975").bufferedAxes(of: .magneticField))
        // ABI: Gauss after offset and scale; 1 G = 100 µT.
        #expect(abs(magn[0].value(raw: 100) - 30) < 1e-12)  // 0.3 G
        #expect(abs(magn[2].value(raw: -300) - -45) < 1e-12)  // −0.45 G
        #expect(IIOChannel.Kind.magneticField.unitFactor == 100)
        #expect(IIOChannel.Kind.acceleration.unitFactor == 1 && IIOChannel.Kind.angularVelocity.unitFactor == 1)
    }

    @Test func samplingFrequenciesAsListOrRange() throws {
        let tree = try twoDevices()
        let list = try #require(try tree.discovery.device("mpu6050").samplingFrequency(for: [.acceleration]))
        #expect(list.rates == .list([10, 50, 100, 200, 500, 1000]))
        #expect(list.rate(atLeast: 100) == 100)
        #expect(list.rate(atLeast: 101) == 200)
        #expect(list.rate(atLeast: 1) == 10)
        #expect(list.rate(atLeast: 5000) == 1000)
        let range = try #require(try tree.discovery.device("adxl345").samplingFrequency(for: [.acceleration]))
        #expect(range.supportedRange == 6.25...3200)
        #expect(range.rate(atLeast: 100) == 100)
        #expect(range.rate(atLeast: 101) == 106.25)
        #expect(throws: IMUDeviceError.unavailable("f: '10 fast' is not a list of sample rates in Hz")) {
            try IIOSamplingFrequency.parseRates("10 fast", file: "f")
        }
    }

    @Test func mountMatricesPerTypeThenShared() throws {
        let tree = try IIOFakeTree()
        try tree.addDevice(
            name: "icm20948", channels: IIOFakeChannel.sixAxis + IIOFakeChannel.axes("magn", from: 7, type: "le:s16/16>>0"),
            attributes: ["in_accel_mount_matrix": "0, 1, 0; -1, 0, 0; 0, 0, 1", "mount_matrix": "-1, 0, 0; 0, 1, 0; 0, 0, -1"])
        let device = try tree.discovery.device("icm20948")
        let turned = MountMatrix(x: SIMD3(0, 1, 0), y: SIMD3(-1, 0, 0), z: SIMD3(0, 0, 1))
        let flipped = MountMatrix(x: SIMD3(-1, 0, 0), y: SIMD3(0, 1, 0), z: SIMD3(0, 0, -1))
        #expect(device.mountMatrix(for: .acceleration) == turned)
        #expect(device.mountMatrix(for: .angularVelocity) == flipped)
        #expect(device.mountMatrix(for: .magneticField) == device.mountMatrix(for: .angularVelocity))
    }

    /// A fake BMI160 (6 axes and a timestamp, 100 Hz) with `attributes` added, `channels` instead of the
    /// usual ones and the file `removed` (relative to the device directory) deleted, and its directory.
    private func bmi160(
        channels: [IIOFakeChannel] = IIOFakeChannel.sixAxis, attributes: [String: String] = [:], removed: String? = nil
    ) throws -> (tree: IIOFakeTree, directory: String) {
        let tree = try IIOFakeTree()
        let device = try tree.addDevice(
            name: "bmi160", channels: channels, attributes: attributes.merging(["sampling_frequency": "100"]) { a, _ in a })
        if let removed { try FileManager.default.removeItem(atPath: "\(device.directory)/\(removed)") }
        return (tree, device.directory)
    }

    @Test func aMalformedScanTypeIsNamedWithItsText() throws {
        var channels = IIOFakeChannel.sixAxis
        channels[4].type = "le:s16/16>>x"
        let (tree, directory) = try bmi160(channels: channels)
        let why = "'le:s16/16>>x' is not a scan element type ([be|le]:[s|u]BITS/STORAGE>>SHIFT): shift 'x' is not a number"
        #expect(throws: IMUDeviceError.unavailable("\(directory)/scan_elements/in_anglvel_y_type: \(why)")) {
            try IIOIMU(device: "bmi160", discovery: tree.discovery)
        }
    }

    @Test func aScaleThatIsNoNumberIsNamed() throws {
        let (tree, directory) = try bmi160(attributes: ["in_accel_scale": "fast"])
        #expect(throws: IMUDeviceError.unavailable("\(directory)/in_accel_scale: 'fast' is not a number")) {
            try IIOIMU(device: "bmi160", discovery: tree.discovery)
        }
    }

    @Test func aMalformedMountMatrixIsNamed() throws {
        let (tree, directory) = try bmi160(attributes: ["mount_matrix": "1, 0, 0; 0, 1, 0"])
        let why = "mount matrix '1, 0, 0; 0, 1, 0': needs 3 rows separated by ';', found 2"
        #expect(throws: IMUDeviceError.unavailable("\(directory)/mount_matrix: \(why)")) {
            try IIOIMU(device: "bmi160", discovery: tree.discovery)
        }
    }

    @Test func aMissingIndexFileIsNamed() throws {
        let (tree, directory) = try bmi160(removed: "scan_elements/in_accel_z_index")
        #expect(throws: IMUDeviceError.unavailable(
            "cannot read \(directory)/scan_elements/in_accel_z_index: No such file or directory")
        ) { try IIOIMU(device: "bmi160", discovery: tree.discovery) }
    }

    @Test func aDeviceWithoutSamplingFrequencyIsRefused() throws {
        let (tree, _) = try bmi160(removed: "sampling_frequency")
        #expect(throws: IMUDeviceError.unavailable("IIO device bmi160 (iio:device0) has no sampling_frequency attribute")) {
            try IIOIMU(device: "bmi160", discovery: tree.discovery)
        }
    }
}
