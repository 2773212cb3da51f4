import MotionHAL
import MotionTestSupport

/// An emulated barometer chip on an emulated bus, and the ways the tests open it.
struct BarometerTestBench {
    /// The emulated chips, at their first address (the BME280 and the LPS22DF at their second; the
    /// MS5837's only one).
    enum Chip: String, CaseIterable, Sendable {
        case bmp280, bme280, lps22hb, lps22df
        case ms5837_30ba = "ms5837-30ba", ms5837_02ba = "ms5837-02ba"

        /// The address the bench puts the chip at.
        var address: UInt8 {
            switch self {
            case .bmp280: 0x76
            case .bme280: 0x77
            case .lps22hb: 0x5C
            case .lps22df: 0x5D
            case .ms5837_30ba, .ms5837_02ba: 0x76
            }
        }
    }

    let bus = EmulatedI2CBus()
    let chip: any EmulatedI2CChip
    let address: UInt8
    /// The time of the chip, the driver and the device.
    let time: TestTime

    /// Attaches `chip` measuring `atmosphere` at its address, on `time` (a manual clock by default: the
    /// tests advance it instead of waiting).
    init(_ chip: Chip, atmosphere: EmulatedAtmosphere = .constant(), oscillatorError: Double = 0, time: TestTime = .manual()) {
        let now = time.nanosecondSource
        switch chip {
        case .bmp280: self.chip = EmulatedBoschBarometer(model: .bmp280, atmosphere: atmosphere, oscillatorError: oscillatorError, now: now)
        case .bme280: self.chip = EmulatedBoschBarometer(model: .bme280, atmosphere: atmosphere, oscillatorError: oscillatorError, now: now)
        case .lps22hb: self.chip = EmulatedSTPressureSensor(model: .lps22hb, atmosphere: atmosphere, oscillatorError: oscillatorError, now: now)
        case .lps22df: self.chip = EmulatedSTPressureSensor(model: .lps22df, atmosphere: atmosphere, oscillatorError: oscillatorError, now: now)
        case .ms5837_30ba: self.chip = EmulatedMS5837(variant: .ms5837_30ba, atmosphere: atmosphere, now: now)
        case .ms5837_02ba: self.chip = EmulatedMS5837(variant: .ms5837_02ba, atmosphere: atmosphere, now: now)
        }
        address = chip.address
        self.time = time
        bus.attach(self.chip, at: address)
    }

    /// Attaches an already made emulated chip at `address`; `time` must be the one the chip was made with.
    init(chip: any EmulatedI2CChip, at address: UInt8, time: TestTime = .real) {
        self.chip = chip
        self.address = address
        self.time = time
        bus.attach(chip, at: address)
    }

    /// The chip through ``I2CBarometer``, as the agent opens it.
    func device(_ models: [BarometerChipModel] = BarometerChipModel.all) throws -> I2CBarometer {
        try I2CBarometer(openingBus: { [bus] in bus }, busName: bus.name, address: address, models: models, time: time.device)
    }

    /// The chip's driver alone, found by probing every model.
    func driver() throws -> any BarometerChipDriver {
        for model in BarometerChipModel.all {
            if let driver = try model.probe(bus, address, time: time.device) { return driver }
        }
        throw IMUDeviceError.unavailable("no barometer at \(address)")
    }

    /// What ``BarometerConformance`` needs to break the bus and take the chip away.
    var faults: BarometerConformance.Faults {
        BarometerConformance.Faults(
            breakReads: { [bus] in bus.failNextTransfers(1) },
            vanish: { [bus, address] in bus.detach(address: address) },
            reappear: { [bus, chip, address] in bus.attach(chip, at: address) })
    }
}

/// Starts `driver` at `rate` and reads it every 2 ms of `time` (as the poll thread would, faster) until it
/// gives a reading or `timeout` seconds pass.
func firstReading(of driver: any BarometerChipDriver, rate: Double, timeout: Double = 1, time: TestTime) throws -> PressureReading? {
    try driver.start(sampleRate: rate)
    let deadline = time.now + MonotonicClock.nanoseconds(timeout)
    while time.now < deadline {
        if let reading = try driver.read() { return reading }
        time.pass(0.002)
    }
    return nil
}
