import MotionHAL
import MotionTestSupport
import Testing

/// Finding a barometer by its chip ID: each model in turn, and the errors when none fits.
@Suite struct BarometerProbeTests {
    /// Each chip, its model's name, its description, its rates and (for the water-pressure parts, whose
    /// range a depth gauge needs) its rated pressures.
    static let chips: [(BarometerTestBench.Chip, String, String, ClosedRange<Double>, ClosedRange<Double>?)] = [
        (.bmp280, "bmp280", "Bosch BMP280 at 0x76", 0.25...125.0, nil),
        (.bme280, "bme280", "Bosch BME280 at 0x77", 1...95, nil),
        (.lps22hb, "lps22hb", "ST LPS22HB at 0x5c", 1...75, nil),
        (.lps22df, "lps22df", "ST LPS22DF at 0x5d", 1...200, nil),
        (.ms5837_30ba, "ms5837", "TE MS5837-30BA at 0x76", 1...100, 0...3_000_000),
        (.ms5837_02ba, "ms5837", "TE MS5837-02BA at 0x76", 1...100, 1_000...120_000),
    ]

    @Test(arguments: chips)
    func eachChipIsFoundByItsIdentity(
        chip: BarometerTestBench.Chip, model: String, name: String, rates: ClosedRange<Double>, pressures: ClosedRange<Double>?
    ) throws {
        let device = try BarometerTestBench(chip).device()
        #expect(device.model.name == model)
        #expect(
            device.info
                == BarometerInfo(
                    driver: "i2c", chip: name, supportedSampleRates: rates, defaultSampleRate: 25, hasTemperature: true, pressureRange: pressures))
    }

    @Test(arguments: [(BarometerTestBench.Chip.bmp280, UInt8(0x77)), (.bme280, 0x76), (.lps22hb, 0x5D), (.lps22df, 0x5C)])
    func theOtherAddressWorksToo(chip: BarometerTestBench.Chip, address: UInt8) throws {
        let bench = BarometerTestBench(chip)
        bench.bus.detach(address: bench.address)
        bench.bus.attach(bench.chip, at: address)
        let device = try I2CBarometer(openingBus: { [bus = bench.bus] in bus }, busName: bench.bus.name, address: address)
        #expect(device.model.name == chip.rawValue)
    }

    @Test func aWrongIdentityIsNotThatModelAndTheNextIsTried() throws {
        // A BME280 (0x60) is no BMP280 (0x58); an LPS22DF (0xB4) is no LPS22HB (0xB1).
        let bosch = BarometerTestBench(chip: EmulatedBoschBarometer(model: .bme280), at: 0x76)
        #expect(try BarometerChipModel.bmp280.probe(bosch.bus, 0x76) == nil)
        #expect(try bosch.device().model.name == "bme280")
        let st = BarometerTestBench(chip: EmulatedSTPressureSensor(model: .lps22df), at: 0x5C)
        #expect(try BarometerChipModel.lps22hb.probe(st.bus, 0x5C) == nil)
        #expect(try st.device().model.name == "lps22df")
    }

    @Test func aChipOfNoKnownIdentityIsUnavailable() throws {
        // 0xB3 is the LPS22HH's WHO_AM_I: same registers, a chip this driver does not know.
        let bench = BarometerTestBench(chip: EmulatedSTPressureSensor(whoAmI: 0xB3), at: 0x5C)
        let error = expectError(IMUDeviceError.self) { try bench.device() }
        #expect(error == .unavailable("the chip at 0x5c on emulated-i2c is none of the supported barometers (bmp280, bme280, lps22hb, lps22df, ms5837)"))
    }

    @Test func anAddressWithoutAcknowledgeIsUnavailable() throws {
        let bus = EmulatedI2CBus()
        let error = expectError(IMUDeviceError.self) {
            try I2CBarometer(openingBus: { bus }, busName: bus.name, address: 0x76)
        }
        #expect(error == .unavailable("no chip answers at address 0x76 on emulated-i2c"))
    }

    @Test func aNamedChipIsTheOnlyOneAccepted() throws {
        let bench = BarometerTestBench(.bmp280)
        #expect(try bench.device(BarometerChipModel.models(named: "bmp280")).model.name == "bmp280")
        let error = expectError(IMUDeviceError.self) { try bench.device(BarometerChipModel.models(named: "lps22hb")) }
        #expect(error == .unavailable("the chip at 0x76 on emulated-i2c is none of the supported barometers (lps22hb)"))
        #expect(throws: IMUDeviceError.invalidSpecification("unknown barometer chip 'bmp390' (known chips: bmp280, bme280, lps22hb, lps22df, ms5837, ms5837-30ba, ms5837-02ba)")) {
            try BarometerChipModel.models(named: "bmp390")
        }
    }

    @Test func theProbeConfiguresNothing() throws {
        let bench = BarometerTestBench(.lps22hb)
        bench.bus.isLogging = true
        _ = try bench.device()
        #expect(bench.bus.transfers.allSatisfy { $0.isRead })
        // bmp280 and bme280 read the id register (0xD0), lps22hb WHO_AM_I (0x0F).
        #expect(bench.bus.transfers.map(\.register) == [0xD0, 0xD0, 0x0F])
    }

    @Test func startProbesAgainAndAReplacedChipIsUnavailable() throws {
        let bench = BarometerTestBench(.bmp280)
        let device = try bench.device()
        bench.bus.attach(EmulatedBoschBarometer(model: .bme280), at: 0x76)
        let error = expectError(IMUDeviceError.self) { try device.start(sampleRate: 25) { _ in } }
        #expect(error == .unavailable("the chip at 0x76 on emulated-i2c is none of the supported barometers (bmp280)"))
    }
}
