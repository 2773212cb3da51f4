import Foundation
import MotionHAL
import MotionTestSupport
import Testing

/// Barometer strings: each form, the simulator's options, errors that name the bad part, and
/// `description` round-tripping.
@Suite struct BarometerSpecificationTests {
    @Test func eachFormParses() throws {
        #expect(try BarometerSpecification(parsing: "none") == .none)
        #expect(try BarometerSpecification(parsing: " sim ") == .simulated(.init()))
        #expect(try BarometerSpecification(parsing: "sim:") == .simulated(.init()))
        #expect(try BarometerSpecification(parsing: "iio:bmp280") == .iio(name: "bmp280"))
        #expect(try BarometerSpecification(parsing: "iio:iio:device3,sysfs=/tmp/sys") == .iio(name: "iio:device3", sysfsRoot: "/tmp/sys"))
        #expect(try BarometerSpecification(parsing: "i2c:/dev/i2c-1@0x76") == .i2c(bus: "/dev/i2c-1", address: 0x76))
        #expect(try BarometerSpecification(parsing: "i2c:/dev/i2c-0@93,chip=lps22hb") == .i2c(bus: "/dev/i2c-0", address: 0x5D, chip: "lps22hb"))
    }

    @Test func simulatorOptionsSetTheConfiguration() throws {
        var expected = SimulatedBarometer.Configuration(sampleRate: 50, altitudeProfile: .climb(height: 12.5, duration: 30), seed: 0xBEEF)
        expected.referencePressure = 95_000
        expected.temperature = -3.5
        expected.pressureNoise = 0
        let parsed = try BarometerSpecification(parsing: "sim:rate=50, pressure=95000,temperature=-3.5,noise=0,seed=0xbeef,climb=12.5@30")
        #expect(parsed == .simulated(expected))
        #expect(try BarometerSpecification(parsing: "sim:alt=120") == .simulated(.init(altitudeProfile: .constant(120))))
        #expect(try BarometerSpecification(parsing: "sim:floors=3") == .simulated(.init(altitudeProfile: .floors(count: 3))))
    }

    @Test(arguments: [
        "none", "sim", "sim:rate=50", "sim:rate=12.5,pressure=95000.25,temperature=-3.5,noise=0.3,seed=77,climb=-10@2.5",
        "sim:alt=-20", "sim:floors=4", "iio:bmp280", "iio:iio:device0,sysfs=/tmp/fake sys", "i2c:/dev/i2c-1@0x76",
        "i2c:/dev/i2c-7@0x5c,chip=lps22df",
    ])
    func descriptionRoundTrips(text: String) throws {
        let specification = try BarometerSpecification(parsing: text)
        #expect(specification.description == text)
        #expect(try BarometerSpecification(parsing: specification.description) == specification)
    }

    @Test(arguments: [
        ("", "empty barometer specification"),
        ("bmp", "unknown barometer driver 'bmp' in 'bmp' (known drivers: none, sim, iio, i2c)"),
        ("none:x", "driver none takes no argument: 'none:x'"),
        ("sim:rate=fast", "option 'rate' of driver sim: 'fast' is not a number of Hz"),
        ("sim:rate=500", "option 'rate' of driver sim: 500 Hz is outside 1...200 Hz"),
        ("sim:rate=10,rate=20", "option 'rate' given twice in 'sim:rate=10,rate=20'"),
        ("sim:rate", "option 'rate' of driver sim needs the form key=value"),
        ("sim:rate=10,", "empty option in 'sim:rate=10,'"),
        ("sim:depth=3", "unknown option 'depth' of driver sim (known options: rate, pressure, temperature, noise, seed, alt, climb, floors, motion)"),
        ("sim:alt=3,floors=2", "options 'alt' and 'floors' of driver sim both set the altitude profile: give one"),
        ("sim:climb=10", "option 'climb' of driver sim: '10' needs the form METRES@SECONDS, e.g. 10@20"),
        ("sim:climb=10@0", "option 'climb' of driver sim: the climb needs a duration > 0 s"),
        ("sim:floors=0", "option 'floors' of driver sim: '0' is not a number of floors in 1...1000"),
        ("sim:noise=-1", "option 'noise' of driver sim: -1 Pa is outside 0...1000 Pa"),
        ("sim:seed=-1", "option 'seed' of driver sim: '-1' is not an unsigned 64-bit integer"),
        ("iio", "driver iio needs an argument, e.g. 'iio:bmp280'"),
        ("iio:bmp280,dev=/dev", "unknown option 'dev' of driver iio (known options: sysfs)"),
        ("iio:bmp280,sysfs=", "option 'sysfs=' of driver iio needs the form sysfs=…"),
        ("iio:,sysfs=/sys", "driver iio needs a device before its options, e.g. 'iio:bmp280'"),
        ("i2c:/dev/i2c-1", "i2c target '/dev/i2c-1' needs the form BUS@ADDRESS, e.g. '/dev/i2c-1@0x76'"),
        ("i2c:/dev/i2c-1@0x80", "i2c address '0x80' is not a 7-bit address such as 0x76"),
        ("i2c:/dev/i2c-1@0x76,chip=bmp390", "option 'chip' of driver i2c: unknown barometer chip 'bmp390' (known chips: bmp280, bme280, lps22hb, lps22df, ms5837, ms5837-30ba, ms5837-02ba)"),
        ("i2c:/dev/i2c-1@0x76,chip=bmp280,chip=bme280", "option 'chip' given twice in 'i2c:/dev/i2c-1@0x76,chip=bmp280,chip=bme280'"),
    ])
    func errorsNameTheBadPart(text: String, message: String) {
        #expect(throws: BarometerSpecificationError(message)) { try BarometerSpecification(parsing: text) }
    }

    @Test func makeDeviceOpensWhatTheSpecificationNames() throws {
        #expect(try BarometerSpecification.none.makeDevice() == nil)
        let simulated = try #require(try BarometerSpecification(parsing: "sim:rate=40,alt=10").makeDevice() as? SimulatedBarometer)
        #expect(simulated.info.defaultSampleRate == 40 && simulated.configuration.altitudeProfile == .constant(10))
        let tree = try IIOFakeTree()
        try tree.addDevice(name: "bmp280", channels: [], attributes: ["in_pressure_input": "100"])
        let iio = try #require(try BarometerSpecification.iio(name: "bmp280", sysfsRoot: tree.discovery.sysfsRoot).makeDevice() as? IIOBarometer)
        #expect(iio.info.chip == "bmp280 (iio:device0)")
        let error = expectError(IMUDeviceError.self) { try BarometerSpecification(parsing: "i2c:/nonexistent/i2c-9@0x76").makeDevice() }
        if case .unavailable(let why) = error { #expect(why.hasPrefix("cannot open I2C bus /nonexistent/i2c-9")) } else { Issue.record("\(String(describing: error))") }
    }
}
