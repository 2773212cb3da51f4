import MotionHAL
import MotionTestSupport
import Testing

/// Finding an MS5837 at 0x76, the BMP280 / BME280's address, without a chip ID: each chip is taken for
/// itself and never for the other, the part is told by the PROM's version field, and a name overrides it.
@Suite struct MS5837ProbeTests {
    @Test(arguments: [(UInt8(0x1A), "MS5837-30BA"), (0x15, "MS5837-02BA"), (0x00, "MS5837-02BA")])
    func thePartIsToldByTheVersionField(version: UInt8, part: String) throws {
        let bench = BarometerTestBench(chip: EmulatedMS5837(version: version), at: 0x76)
        let device = try bench.device()
        #expect(device.model.name == "ms5837")
        #expect(device.info.chip == "TE \(part) at 0x76")
    }

    @Test func aBMP280At0x76IsNotTakenForAnMS5837() throws {
        let bench = BarometerTestBench(.bmp280)
        bench.bus.isLogging = true
        #expect(try bench.device().model.name == "bmp280")
        // Found by its chip ID before the MS5837's probe could send a reset.
        #expect(bench.bus.transfers.allSatisfy { $0.isRead && $0.register == 0xD0 })
        // Asked for an MS5837, the probe resets and reads the PROM: the Bosch chip answers zeros there.
        #expect(try BarometerChipModel.ms5837.probe(bench.bus, 0x76, time: bench.time.device) == nil)
        let error = expectError(IMUDeviceError.self) { try bench.device(BarometerChipModel.models(named: "ms5837-30ba")) }
        #expect(error == .unavailable("the chip at 0x76 on emulated-i2c is no MS5837-30BA: the PROM's C1…C6 read all 0 or all 0xFFFF (no calibration)"))
        let auto = expectError(IMUDeviceError.self) { try bench.device(BarometerChipModel.models(named: "ms5837")) }
        #expect(auto == .unavailable("the chip at 0x76 on emulated-i2c is none of the supported barometers (ms5837)"))
    }

    @Test func anMS5837IsNotTakenForABoschChip() throws {
        // It answers 0 to the Bosch probes' read of 0xD0 (no such command): no chip ID matches.
        let bench = BarometerTestBench(.ms5837_30ba)
        #expect(try BarometerChipModel.bmp280.probe(bench.bus, 0x76, time: bench.time.device) == nil)
        #expect(try BarometerChipModel.bme280.probe(bench.bus, 0x76, time: bench.time.device) == nil)
        let error = expectError(IMUDeviceError.self) { try bench.device([.bmp280, .bme280]) }
        #expect(error == .unavailable("the chip at 0x76 on emulated-i2c is none of the supported barometers (bmp280, bme280)"))
        #expect(try bench.device().model.name == "ms5837")
    }

    @Test func anUnknownVersionNeedsTheNameAndTheNameOverridesTheVersion() throws {
        // A valid PROM with a version field neither datasheet gives (an MS5637 at the same address passes
        // the CRC too): not taken unnamed; named, taken as that part.
        let bench = BarometerTestBench(chip: EmulatedMS5837(version: 0x33), at: 0x76)
        let error = expectError(IMUDeviceError.self) { try bench.device() }
        #expect(error == .unavailable("the chip at 0x76 on emulated-i2c is none of the supported barometers (bmp280, bme280, lps22hb, lps22df, ms5837)"))
        #expect(try bench.device(BarometerChipModel.models(named: "ms5837-30ba")).info.chip == "TE MS5837-30BA at 0x76")
        // A -30BA's version, named a -02BA: the name wins (the formulas are the caller's choice).
        let thirty = BarometerTestBench(.ms5837_30ba)
        let named = try thirty.device(BarometerChipModel.models(named: "ms5837-02ba"))
        #expect(named.model.name == "ms5837-02ba" && named.info.chip == "TE MS5837-02BA at 0x76")
    }

    @Test func aBadCRCIsNoMS5837AndTheNamedProbeSaysWhy() throws {
        var prom = MS5837Compensation.datasheetExample30BA.promWords()
        prom[6] ^= 0x0010
        let bench = BarometerTestBench(chip: EmulatedMS5837(prom: prom), at: 0x76)
        #expect(try BarometerChipModel.ms5837.probe(bench.bus, 0x76, time: bench.time.device) == nil)
        let error = expectError(IMUDeviceError.self) { try bench.device(BarometerChipModel.models(named: "ms5837-30ba")) }
        #expect(error == .unavailable("the chip at 0x76 on emulated-i2c is no MS5837-30BA: the PROM's CRC-4 is 9 but its words give \(MS5837Compensation.crc4(prom: prom)) (corrupt calibration or not an MS5837)"))
    }

    @Test func theProbeResetsBeforeReadingThePROMAndOnlyAt0x76() throws {
        // Just powered on, the emulated chip's PROM reads 0 until a reset: the probe's reset is what loads it.
        let bench = BarometerTestBench(.ms5837_02ba)
        bench.bus.isLogging = true
        #expect(try BarometerChipModel.ms5837.probe(bench.bus, 0x76, time: bench.time.device) != nil)
        #expect(bench.bus.transfers.first.map { !$0.isRead && $0.register == 0x1E && $0.bytes.isEmpty } == true)
        // Elsewhere it sends nothing (another chip there must not see a reset command).
        let other = EmulatedI2CBus()
        other.attach(EmulatedSTPressureSensor(), at: 0x5C)
        other.isLogging = true
        #expect(try BarometerChipModel.ms5837.probe(other, 0x5C) == nil)
        #expect(other.transfers.isEmpty)
    }

    @Test func theSpecificationNamesTheParts() throws {
        #expect(try BarometerSpecification(parsing: "i2c:/dev/i2c-1@0x76,chip=ms5837-30ba") == .i2c(bus: "/dev/i2c-1", address: 0x76, chip: "ms5837-30ba"))
        #expect(try BarometerSpecification(parsing: "i2c:/dev/i2c-1@0x76,chip=ms5837") == .i2c(bus: "/dev/i2c-1", address: 0x76, chip: "ms5837"))
        #expect(try BarometerChipModel.models(named: "ms5837-02ba").map(\.name) == ["ms5837-02ba"])
        #expect(BarometerChipModel.all.map(\.name) == ["bmp280", "bme280", "lps22hb", "lps22df", "ms5837"])
    }
}
