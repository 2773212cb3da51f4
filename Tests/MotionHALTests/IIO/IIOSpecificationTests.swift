import MotionHAL
import Testing

/// `iio:…` device strings.
@Suite struct IIOSpecificationTests {
    @Test func parsesDeviceMagnetometerAndDirectories() throws {
        #expect(try IMUDeviceSpecification.parse("iio:mpu6050") == .iio(name: "mpu6050"))
        #expect(try IMUDeviceSpecification.parse("iio:iio:device2") == .iio(name: "iio:device2"))
        #expect(try IMUDeviceSpecification.parse(" iio:mpu6050+ak8975 , sysfs=/tmp/sys ,dev=/tmp/dev ") == .iio(
            name: "mpu6050", magnetometer: "ak8975", sysfsRoot: "/tmp/sys", deviceDirectory: "/tmp/dev"))
        #expect(try IMUDeviceSpecification.parse("iio:bmi160,dev=/run/dev") == .iio(
            name: "bmi160", sysfsRoot: "/sys/bus/iio/devices", deviceDirectory: "/run/dev"))
    }

    @Test(arguments: [
        ("iio:", "driver iio needs an argument, e.g. 'iio:mpu6050'"),
        ("iio:a+b+c", "iio device 'a+b+c' needs the form DEVICE or DEVICE+MAGNETOMETER, e.g. 'mpu6050+ak8975'"),
        ("iio:+ak8975", "iio device '+ak8975' needs the form DEVICE or DEVICE+MAGNETOMETER, e.g. 'mpu6050+ak8975'"),
        ("iio:mpu6050,speed=3", "unknown option 'speed' of driver iio (known options: sysfs, dev, rate, sensors)"),
        ("iio:mpu6050,sysfs=", "option 'sysfs=' of driver iio needs the form sysfs=DIR, dev=DIR, rate=HZ, rate=max or sensors=accelerometer"),
        ("iio:mpu6050,sysfs=/a,sysfs=/b", "option 'sysfs' given twice in 'iio:mpu6050,sysfs=/a,sysfs=/b'"),
    ])
    func badStringsAreRejectedNamingThePart(text: String, message: String) {
        #expect(throws: IMUDeviceError.invalidSpecification(message)) { try IMUDeviceSpecification.parse(text) }
    }

    @Test func opensTheDeviceOrSaysWhyNot() throws {
        let tree = try IIOFakeTree()
        try tree.addDevice(
            name: "bmi160", channels: IIOFakeChannel.sixAxis,
            attributes: ["sampling_frequency": "100", "sampling_frequency_available": "25 50 100 200 400 800 1600"])
        let roots = "sysfs=\(tree.discovery.sysfsRoot),dev=\(tree.discovery.deviceDirectory)"
        let device = try IMUDeviceSpecification.open("iio:bmi160,\(roots)")
        #expect(device is IIOIMU)
        #expect(device.info.supportedSampleRates == 25...1600)
        #expect(throws: IMUDeviceError.unavailable(
            "no IIO device named 'lsm6dsl' under \(tree.discovery.sysfsRoot) (devices: bmi160 (iio:device0))")
        ) { try IMUDeviceSpecification.open("iio:lsm6dsl,\(roots)") }
    }
}
