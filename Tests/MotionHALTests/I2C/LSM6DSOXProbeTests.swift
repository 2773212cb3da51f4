import MotionHAL
import MotionTestSupport
import Testing

/// Finding the LSM6DSOX, and the LIS3MDL beside it, by their WHO_AM_I registers.
@Suite struct LSM6DSOXProbeTests {
    @Test func aloneItIsASixAxisDevice() throws {
        let bench = LSM6DSOXTestBench()
        let device = try bench.device()
        #expect(device.model.name == "lsm6dsox")
        #expect(device.info.driver == "lsm6dsox")
        #expect(device.info.chip == "ST LSM6DSOX at 0x6a")
        #expect(device.info.sensors == [.accelerometer, .gyroscope])
        #expect(device.info.magnetometerRange == nil)
        #expect(device.info.supportedSampleRates == 12.5...1666)
        #expect(device.info.defaultSampleRate == 208)
        // ±8 g: 32767 × 0.244 mg; ±2000 dps: 32767 × 70 mdps.
        #expect(abs(device.info.accelerometerRange! - 32767 * 0.244e-3 * 9.80665) < 1e-9)
        #expect(abs(device.info.gyroscopeRange! - 32767 * 70e-3 * .pi / 180) < 1e-9)
    }

    @Test(arguments: [UInt8(0x1C), 0x1E])
    func withALIS3MDLOnTheBusItIsNineAxis(magnetometerAddress: UInt8) throws {
        let bench = LSM6DSOXTestBench(magnetometerAddress: magnetometerAddress)
        let device = try bench.device()
        #expect(device.info.sensors == .all)
        #expect(device.info.chip == "ST LSM6DSOX at 0x6a with LIS3MDL at 0x\(String(magnetometerAddress, radix: 16))")
        // ±4 gauss: 32767 / 6842 gauss.
        #expect(abs(device.info.magnetometerRange! - 32767 * 100 / 6842) < 1e-9)
        #expect(try bench.driver().magnetometerAddress == magnetometerAddress)
    }

    @Test func theSecondAddressWorksToo() throws {
        let bench = LSM6DSOXTestBench()
        bench.bus.detach(address: 0x6A)
        bench.bus.attach(bench.chip, at: 0x6B)
        let device = try I2CIMU(openingBus: { [bus = bench.bus] in bus }, busName: bench.bus.name, address: 0x6B)
        #expect(device.info.chip == "ST LSM6DSOX at 0x6b")
    }

    @Test func aChipWithAnotherIdentityIsNotAnLSM6DSOX() throws {
        // 0x6B is the LSM6DSR/ISM330DHCX's WHO_AM_I: same addresses, different chip.
        let bench = LSM6DSOXTestBench(whoAmI: 0x6B)
        #expect(try I2CChipModel.lsm6dsox.probe(bench.bus, bench.address) == nil)
        let error = expectError(IMUDeviceError.self) { try bench.device(.lsm6dsox) }
        #expect(error == .unavailable("the chip at 0x6a on emulated-i2c is none of the supported chips (lsm6dsox)"))
    }

    @Test func anotherChipAtTheMagnetometerAddressIsNotUsed() throws {
        let bench = LSM6DSOXTestBench()
        bench.bus.attach(EmulatedLSM6DSOX(motion: .atRest()), at: 0x1C)  // WHO_AM_I 0x6C, not 0x3D
        let device = try bench.device()
        #expect(device.info.sensors == [.accelerometer, .gyroscope])
    }

    @Test func anEmptyAddressIsUnavailable() throws {
        let bus = EmulatedI2CBus()
        let error = expectError(IMUDeviceError.self) {
            try I2CIMU(openingBus: { bus }, busName: bus.name, address: 0x6A, models: [.lsm6dsox])
        }
        #expect(error == .unavailable("no chip answers at address 0x6a on emulated-i2c"))
    }

    @Test func theProbeConfiguresNothing() throws {
        let bench = LSM6DSOXTestBench(magnetometerAddress: 0x1C)
        bench.bus.isLogging = true
        _ = try bench.driver()
        #expect(bench.bus.transfers.allSatisfy { $0.isRead })
        #expect(bench.bus.transfers.map(\.register) == [0x0F, 0x0F])
    }

    @Test func fifoTagsDecodeIntoSensorSlotAndParity() {
        let gyroscope = LSM6DSOXFIFOTag(0b00001_01_1)
        #expect(gyroscope.sensor == .gyroscope && gyroscope.slot == 1 && gyroscope.parity == 1)
        let accelerometer = LSM6DSOXFIFOTag(0b00010_10_0)
        #expect(accelerometer.sensor == .accelerometer && accelerometer.slot == 2 && accelerometer.parity == 0)
        #expect(LSM6DSOXFIFOTag(0b00100_11_0).sensor == .other(0x04))  // timestamp
        #expect(LSM6DSOXFIFOTag(0x00).sensor == nil)
        #expect(LSM6DSOXFIFOTag(0b11010_00_0).sensor == nil)  // 0x1A: undefined
    }

    @Test func outputDataRatesAreTheNearestInProportion() {
        let requests = [12.5, 13, 100, 140, 150, 200, 1000, 1666, 5000]
        let chosen = requests.map { LSM6DSOXOutputDataRate.nearest(to: $0).rate }
        #expect(chosen == [12.5, 12.5, 104, 104, 208, 208, 833, 1666, 6667])
        #expect(LSM6DSOXOutputDataRate.nearest(to: 208).code == 5)
    }
}
