import AgentTestSupport
import Foundation
import Testing

/// `motionctl hardware`: the board's IMUs and the device strings that open them.
@Suite struct MotionctlHardwareTests {
    /// Writes a sysfs tree with an IIO accelerometer/gyroscope (device 0) and magnetometer (device 1).
    static func fakeTree() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("hw-\(UUID().uuidString)")
        func device(_ number: Int, name: String, kinds: [String], scales: [String: String]) throws {
            var files = ["name": name, "buffer/enable": "0", "buffer/length": "16", "sampling_frequency": "100"]
            for (offset, kind) in kinds.enumerated() {
                for (axis, letter) in ["x", "y", "z"].enumerated() {
                    let channel = "in_\(kind)_\(letter)"
                    files["\(channel)_raw"] = "0"
                    files["scan_elements/\(channel)_en"] = "0"
                    files["scan_elements/\(channel)_index"] = String(offset * 3 + axis)
                    files["scan_elements/\(channel)_type"] = "le:s16/16>>0"
                }
            }
            files.merge(scales) { $1 }
            for (path, text) in files {
                let file = root.appendingPathComponent("sys/iio:device\(number)/\(path)")
                try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try (text + "\n").write(to: file, atomically: false, encoding: .utf8)
            }
        }
        try device(0, name: "mpu6050", kinds: ["accel", "anglvel"], scales: ["in_accel_scale": "0.0006", "in_anglvel_scale": "0.001"])
        try device(1, name: "ak8975", kinds: ["magn"], scales: ["in_magn_scale": "0.003"])
        try FileManager.default.createDirectory(at: root.appendingPathComponent("dev"), withIntermediateDirectories: true)
        return root
    }

    @Test func listsTheIIODevicesAndTheStringThatOpensThem() throws {
        let root = try Self.fakeTree()
        defer { try? FileManager.default.removeItem(at: root) }
        let sysfs = root.appendingPathComponent("sys").path, dev = root.appendingPathComponent("dev").path
        let run = try AgentProcess.run("motionctl", arguments: ["hardware", "--sysfs", sysfs, "--dev", dev, "--i2c", ""])
        #expect(run.status == 0, "\(run.log)")
        let options = ",sysfs=\(sysfs),dev=\(dev)"
        #expect(run.output.contains("iio:device0  mpu6050  accelerometer, gyroscope  iio:iio:device0\(options)   (auto)"), "\(run.output)")
        #expect(run.output.contains("iio:device1  ak8975  magnetometer  iio:iio:device1\(options)"))
        #expect(run.output.contains("auto joins them: iio:iio:device0+iio:device1\(options)"))
    }

    @Test func saysSoWhenThereIsNoIMU() throws {
        let run = try AgentProcess.run(
            "motionctl", arguments: ["hardware", "--sysfs", "/nonexistent/iio", "--i2c", "/dev/i2c-97"])
        #expect(run.status == 69)
        #expect(run.output.contains("none: device unavailable: no IIO sysfs directory /nonexistent/iio"), "\(run.output)")
        #expect(run.log.contains("no IMU found"))
    }
}
