import Foundation
import MotionHAL
import MotionTestSupport
import Synchronization
import Testing

/// Every barometer keeps the device contract: the emulated chips (both MS5837 parts among them) through ``I2CBarometer``, the IIO
/// driver on a fake sysfs tree and the simulator.
@Suite struct BarometerConformanceTests {
    /// The emulated air: 100 000 Pa, 21.5 °C.
    static let atmosphere = EmulatedAtmosphere.constant(pressure: 100_000, temperature: 21.5)

    @Test(arguments: BarometerTestBench.Chip.allCases)
    func i2cChips(_ chip: BarometerTestBench.Chip) throws {
        let bench = BarometerTestBench(chip, atmosphere: Self.atmosphere)
        // Bosch: 20-bit values (IIR on), 0.17 Pa and 0.005 °C steps; the integer formulas' t_fine may be a few
        // units low (0.03 Pa each) and they round to 1/256 Pa and 0.01 °C (see BoschBarometerDriverTests).
        // ST: 1/4096 hPa = 0.024 Pa and 0.01 °C steps. MS5837: the datasheet's integer P, rounded down to
        // 0.1 mbar (10 Pa) on a -30BA and 0.01 mbar (1 Pa) on a -02BA, TEMP to 0.01 °C.
        let (pressureTolerance, temperatureTolerance): (Double, Double) = switch chip {
        case .bmp280, .bme280: (0.35, 0.011)
        case .lps22hb, .lps22df: (0.013, 0.006)
        case .ms5837_30ba: (10, 0.011)
        case .ms5837_02ba: (1, 0.011)
        }
        try BarometerConformance.check(
            { try bench.device() },
            expecting: .init(
                pressure: 100_000, pressureTolerance: pressureTolerance, temperature: 21.5,
                temperatureTolerance: temperatureTolerance),
            faults: bench.faults, time: bench.time)
    }

    @Test func iioDevice() throws {
        let tree = try IIOFakeTree()
        let attributes = [
            "in_pressure_input": "100.000000", "in_temp_input": "21500", "sampling_frequency": "25",
            "sampling_frequency_available": "1 10 25 50 75",
        ]
        let fake = Mutex(try tree.addDevice(number: 1, name: "lps22hb", channels: [], attributes: attributes))
        let faults = BarometerConformance.Faults(
            breakReads: { fake.withLock { try? "garbage\n".write(toFile: $0.directory + "/in_pressure_input", atomically: true, encoding: .utf8) } },
            repairReads: { fake.withLock { try? "100.000000\n".write(toFile: $0.directory + "/in_pressure_input", atomically: true, encoding: .utf8) } },
            vanish: { fake.withLock { $0.vanish() } },
            reappear: { fake.withLock { if let device = try? tree.addDevice(number: 1, name: "lps22hb", channels: [], attributes: attributes) { $0 = device } } })
        try BarometerConformance.check(
            { try IIOBarometer(device: "lps22hb", discovery: tree.discovery) },
            expecting: .init(pressure: 100_000, pressureTolerance: 1e-6, temperature: 21.5, temperatureTolerance: 1e-9),
            faults: faults)
    }

    @Test func simulator() throws {
        // 1 Pa noise: the mean of ten readings is within 1.5 Pa, each reading within 1.5 + 5 Pa.
        guard case .simulated(let configuration) = try BarometerSpecification(parsing: "sim") else {
            Issue.record("\"sim\" is not the simulator")
            return
        }
        let time = TestTime.manual()
        try BarometerConformance.check(
            { SimulatedBarometer(configuration: configuration, time: time.device) },
            expecting: .init(pressure: 101_325, pressureTolerance: 1.5, pressureNoise: 1, temperature: 20), time: time)
    }
}
