import MotionHAL
import Testing

@Suite struct IMUDeviceSpecificationTests {
    /// The message of an `invalidSpecification` error thrown by `body`, or nil.
    func invalidSpecificationMessage(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch IMUDeviceError.invalidSpecification(let message) {
            return message
        } catch {
            return nil
        }
    }

    @Test func plainSimUsesTheDefaults() throws {
        let device = try IMUDeviceSpecification.open("sim")
        #expect(device.info.driver == "sim")
        #expect(device.info.defaultSampleRate == 200)
        let simulator = try #require(device as? SimulatedIMU)
        #expect(simulator.configuration == SimulatedIMU.Configuration())
        #expect(simulator.configuration.motion == .demo)
    }

    @Test func simOptionsSetRateMotionAndSeed() throws {
        let device = try IMUDeviceSpecification.open(" sim:rate=500, motion=stationary ,seed=7 ")
        #expect(device.info.defaultSampleRate == 500)
        let simulator = try #require(device as? SimulatedIMU)
        #expect(simulator.configuration.motion == .stationary(attitude: .identity))
        #expect(simulator.configuration.seed == 7)
        #expect(simulator.samples(count: 5) == SimulatedIMU(configuration: simulator.configuration).samples(count: 5))

        let spin = try IMUDeviceSpecification.parse("sim:motion=spin,seed=0x10,rate=12.5")
        var expected = SimulatedIMU.Configuration(sampleRate: 12.5, motion: .spin, seed: 16)
        #expect(spin == .simulated(expected))
        expected.motion = .demo
        #expect(try IMUDeviceSpecification.parse("sim:motion=demo,rate=12.5,seed=16") == .simulated(expected))
        #expect(try IMUDeviceSpecification.parse("sim:") == .simulated(SimulatedIMU.Configuration()))
    }

    @Test func batchAndFaultOptionsConfigureTheSimulator() throws {
        let specification = try IMUDeviceSpecification.parse(
            "sim:batch=0.25,fault_after=0.3,fault_duration=0.5,fault_every=2")
        var expected = SimulatedIMU.Configuration()
        expected.deliveryInterval = 0.25
        expected.faultInjection = SimulatedFaultInjection(after: 0.3, duration: 0.5, every: 2)
        #expect(specification == .simulated(expected))

        // Without fault_duration: a fault event without an outage; without fault_every: a single fault.
        let single = try IMUDeviceSpecification.parse("sim:fault_after=1.5")
        expected = SimulatedIMU.Configuration()
        expected.faultInjection = SimulatedFaultInjection(after: 1.5, duration: 0, every: nil)
        #expect(single == .simulated(expected))

        // The documented batch range is inclusive at both ends.
        for (text, interval) in [("0.0005", 0.0005), ("1", 1.0)] {
            let device = try #require(try IMUDeviceSpecification.open("sim:batch=\(text)") as? SimulatedIMU)
            #expect(device.configuration.deliveryInterval == interval)
        }
        #expect(try IMUDeviceSpecification.parse("sim") == .simulated(SimulatedIMU.Configuration()))
    }

    @Test func unknownDriverIsNamed() {
        let message = invalidSpecificationMessage { _ = try IMUDeviceSpecification.open("bogus:rate=5") }
        #expect(message?.contains("unknown driver 'bogus'") == true, "\(message ?? "no error")")
        #expect(invalidSpecificationMessage { _ = try IMUDeviceSpecification.open("  ") } != nil)
    }

    @Test(arguments: [
        ("sim:speed=3", "'speed'"),
        ("sim:rate", "'rate'"),
        ("sim:rate=fast", "'rate'"),
        ("sim:rate=9000", "'rate'"),
        ("sim:rate=nan", "'rate'"),
        ("sim:seed=-1", "'seed'"),
        ("sim:seed=0xZZ", "'seed'"),
        ("sim:motion=wobble", "'motion'"),
        ("sim:rate=100,rate=200", "'rate'"),
        ("sim:rate=100,,seed=2", "empty option"),
        ("i2c:/dev/i2c-1@0x99", "'0x99'"),
        ("i2c:/dev/i2c-1", "BUS@ADDRESS"),
        ("i2c:/dev/i2c-1@0x6a,sensors=gyroscope", "'sensors'"),
        ("i2c:/dev/i2c-1@0x6a,rate=fast", "'rate'"),
        ("i2c:/dev/i2c-1@0x6a,rate=0", "'rate'"),
        ("i2c:/dev/i2c-1@0x6a,speed=1", "known options: rate, sensors"),
        ("iio:mpu6050,rate=-5", "'rate'"),
        ("replay", "replay"),
        ("sim:batch=0", "'batch'"),
        ("sim:batch=2", "'batch'"),
        ("sim:batch=soon", "'batch'"),
        ("sim:fault_after=-1", "'fault_after'"),
        ("sim:fault_duration=1", "needs 'fault_after'"),
        ("sim:fault_every=2", "needs 'fault_after'"),
        ("sim:fault_after=1,fault_duration=2,fault_every=2", "'fault_every'"),
        ("sim:fault_after=1,fault_duration=inf", "'fault_duration'"),
    ])
    func badOptionsAreRejectedNamingTheField(specification: String, namedPart: String) {
        let message = invalidSpecificationMessage { _ = try IMUDeviceSpecification.open(specification) }
        #expect(message?.contains(namedPart) == true, "\(specification) → \(message ?? "no error")")
    }

    @Test func recordingAndHardwareDriversParseAndSayWhyTheyCannotOpen() throws {
        #expect(try IMUDeviceSpecification.parse("replay:/var/log/run.imu") == .replay(path: "/var/log/run.imu"))
        #expect(try IMUDeviceSpecification.parse("replay:/var/log/run.imu,loop") == .replay(path: "/var/log/run.imu", loop: true))
        #expect(try IMUDeviceSpecification.parse("replay:/a b/run.csv,fast,loop")
            == .replay(path: "/a b/run.csv", loop: true, asFastAsPossible: true))
        #expect(try IMUDeviceSpecification.parse("iio:mpu6050") == .iio(name: "mpu6050"))
        #expect(try IMUDeviceSpecification.parse("i2c:/dev/i2c-1@0x68") == .i2c(bus: "/dev/i2c-1", address: 0x68))
        #expect(try IMUDeviceSpecification.parse("i2c:/dev/i2c-1@0x6a, sensors=accelerometer, rate=max")
            == .i2c(bus: "/dev/i2c-1", address: 0x6A, sampling: .init(rate: .highest, accelerometerOnly: true)))
        #expect(try IMUDeviceSpecification.parse("i2c:/dev/i2c-1@0x68,rate=500")
            == .i2c(bus: "/dev/i2c-1", address: 0x68, sampling: .init(rate: .hertz(500))))
        #expect(try IMUDeviceSpecification.parse("iio:lsm6dsox_accel,sensors=accelerometer,rate=max,sysfs=/tmp/iio")
            == .iio(name: "lsm6dsox_accel", sysfsRoot: "/tmp/iio", sampling: .init(rate: .highest, accelerometerOnly: true)))
        // No such bus or IIO tree here: the reason names what is missing.
        let reasons = [
            ("i2c:/dev/i2c-97@0x68", "cannot open I2C bus /dev/i2c-97"),
            ("iio:mpu6050,sysfs=/nonexistent/iio", "/nonexistent/iio"),
        ]
        for (specification, reason) in reasons {
            #expect {
                _ = try IMUDeviceSpecification.open(specification)
            } throws: { error in
                guard case .unavailable(let why) = error as? IMUDeviceError else { return false }
                return why.contains(reason)
            }
        }
        // A recording that cannot be read names the file.
        #expect {
            _ = try IMUDeviceSpecification.open("replay:/var/log/run.imu")
        } throws: { error in
            guard case .unavailable(let why) = error as? IMUDeviceError else { return false }
            return why.contains("cannot replay") && why.contains("/var/log/run.imu")
        }
    }
}
