import Foundation
import MotionHAL
import Testing

/// `auto`: the IMU the kernel offers, found from sysfs alone.
@Suite struct IIODetectionTests {
    @Test func findsTheFirstDeviceWithAnAccelerometerAndAGyroscopeAndASeparateMagnetometer() throws {
        let tree = try IIOFakeTree()
        #expect(tree.discovery.detectedIMUSpecification() == nil, "an empty tree offers no IMU")
        // An accelerometer alone (device 0) is not an IMU; device 1 is; device 2 is a magnetometer.
        try tree.addDevice(number: 0, name: "adxl345", channels: IIOFakeChannel.axes("accel", from: 0, type: "le:s13/16>>0"),
                           attributes: ["in_accel_scale": "0.0383", "sampling_frequency": "100"])
        #expect(tree.discovery.detectedIMUSpecification() == nil)
        try tree.addDevice(number: 1, name: "mpu6050", channels: IIOFakeChannel.sixAxis,
                           attributes: ["in_accel_scale": "0.0006", "in_anglvel_scale": "0.001", "sampling_frequency": "100"])
        let options = ",sysfs=\(tree.discovery.sysfsRoot),dev=\(tree.discovery.deviceDirectory)"
        #expect(tree.discovery.detectedIMUSpecification() == "iio:iio:device1" + options)
        try tree.addDevice(number: 2, name: "ak8975", channels: IIOFakeChannel.axes("magn", from: 0, type: "le:s16/16>>0"),
                           attributes: ["in_magn_scale": "0.003", "sampling_frequency": "100"])
        let specification = try #require(tree.discovery.detectedIMUSpecification())
        #expect(specification == "iio:iio:device1+iio:device2" + options)
        // The string opens the pair as one 9-axis device.
        let device = try IMUDeviceSpecification.open(specification)
        #expect(device.info.driver == "iio" && device.info.sensors == .all)
    }

    @Test func autoParsesAndSaysWhenThereIsNoIMU() throws {
        #expect(try IMUDeviceSpecification.parse("auto") == .automatic)
        #expect(throws: IMUDeviceError.invalidSpecification("driver auto takes no argument: 'auto:mpu6050'")) {
            try IMUDeviceSpecification.parse("auto:mpu6050")
        }
        // A tree without an IMU (never the host's sysfs, which may have one).
        let tree = try IIOFakeTree()
        #expect {
            _ = try IMUDeviceSpecification.open("auto", detectingIn: tree.discovery)
        } throws: { error in
            guard case .unavailable(let why) = error as? IMUDeviceError else { return false }
            return why.hasPrefix("no IMU detected: no IIO device under \(tree.discovery.sysfsRoot)")
        }
        // Once the kernel offers one, auto opens it.
        try tree.addDevice(number: 0, name: "mpu6050", channels: IIOFakeChannel.sixAxis,
                           attributes: ["in_accel_scale": "0.0006", "in_anglvel_scale": "0.001", "sampling_frequency": "100"])
        let device = try IMUDeviceSpecification.open("auto", detectingIn: tree.discovery)
        #expect(device.info.driver == "iio" && device.info.chip.contains("mpu6050"), "\(device.info)")
    }
}
