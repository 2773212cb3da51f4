import Testing

@testable import MotionHAL

/// The grammar IMU and barometer strings share: one reader, so one answer to the same mistake.
@Suite struct DeviceSpecificationGrammarTests {
    private func imuError(_ text: String) -> String? {
        do {
            _ = try IMUDeviceSpecification.parse(text)
            return nil
        } catch {
            guard case .invalidSpecification(let message) = error else { return "\(error)" }
            return message
        }
    }

    private func barometerError(_ text: String) -> String? {
        do {
            _ = try BarometerSpecification(parsing: text)
            return nil
        } catch {
            return error.message
        }
    }

    @Test(arguments: [
        ("sim:seed=1,seed=2", "option 'seed' given twice in 'sim:seed=1,seed=2'"),
        ("sim:seed=1,", "empty option in 'sim:seed=1,'"),
        ("sim:seed", "option 'seed' of driver sim needs the form key=value"),
        ("sim:seed=", "option 'seed=' of driver sim needs the form key=value"),
        ("sim:seed=0xZZ", "option 'seed' of driver sim: '0xZZ' is not an unsigned 64-bit integer"),
        ("sim:rate=fast", "option 'rate' of driver sim: 'fast' is not a number of Hz"),
        ("iio:x,sysfs=/a,sysfs=/b", "option 'sysfs' given twice in 'iio:x,sysfs=/a,sysfs=/b'"),
        ("iio:x,", "empty option in 'iio:x,'"),
        ("iio", "driver iio needs an argument, e.g. '"),
        ("i2c:/dev/i2c-1", "i2c target '/dev/i2c-1' needs the form BUS@ADDRESS, e.g. '/dev/i2c-1@0x"),
        ("i2c:/dev/i2c-1@128", "i2c address '128' is not a 7-bit address such as 0x"),
        ("  ", "empty "),
    ])
    func theSameMistakeGetsTheSameAnswer(text: String, expected: String) {
        let imu = imuError(text), barometer = barometerError(text)
        #expect(imu?.hasPrefix(expected) == true, "IMU: \(imu ?? "accepted")")
        #expect(barometer?.hasPrefix(expected) == true, "barometer: \(barometer ?? "accepted")")
    }

    @Test func aDriverWithoutArgumentNamesWhatWasGiven() {
        #expect(imuError("auto:mpu6050") == "driver auto takes no argument: 'auto:mpu6050'")
        #expect(barometerError("none:x") == "driver none takes no argument: 'none:x'")
    }

    @Test func unknownDriversListTheRegistry() {
        #expect(imuError("spi:0") == "unknown driver 'spi' in 'spi:0' (known drivers: auto, sim, replay, iio, i2c)")
        #expect(barometerError("spi:0") == "unknown barometer driver 'spi' in 'spi:0' (known drivers: none, sim, iio, i2c)")
        #expect(IMUDeviceSpecification.driverNames == ["auto", "sim", "replay", "iio", "i2c"])
        #expect(BarometerSpecification.driverNames == ["none", "sim", "iio", "i2c"])
    }

    @Test func optionsKeepTheirOrderAndRefuseUnknownKeys() throws {
        let options = try DeviceSpecificationGrammar.options(
            ["b=2", " a = 1 "], driver: "x", whole: "x:b=2,a=1", known: ["a", "b"], form: "key=value")
        #expect(options.map { "\($0.key)=\($0.value)" } == ["b=2", "a=1"])
        #expect(throws: DeviceSpecificationSyntaxError("unknown option 'c' of driver x (known options: a, b)")) {
            try DeviceSpecificationGrammar.options(["c=3"], driver: "x", whole: "x:c=3", known: ["a", "b"], form: "key=value")
        }
    }
}
