import Foundation
import MotionHAL
import MotionTestSupport
import Testing

/// The LIS3MDL beside the LSM6DSOX: configuration, values, and its bit-7 auto-increment rule.
@Suite struct STLIS3MDLTests {
    static let field = SIMD3(23.4, -7.9, -41.3)

    @Test func theFieldIsExactWithinOneCountAndDeliveredOnce() throws {
        let bench = LSM6DSOXTestBench(motion: .atRest(magneticField: Self.field), magnetometerAddress: 0x1C)
        let driver = try bench.driver()
        try driver.start(sampleRate: 208)
        // Ultra-high performance on X/Y (OM 11) and Z (OMZ 11), 80 Hz (DO 111), ±4 gauss, BDU, continuous.
        let magnetometer = try #require(bench.magnetometer)
        #expect(magnetometer.register(0x20) == 0x7C)
        #expect(magnetometer.register(0x21) == 0x00)
        #expect(magnetometer.register(0x22) == 0x00)
        #expect(magnetometer.register(0x23) == 0x0C)
        #expect(magnetometer.register(0x24) == 0x40)
        #expect(magnetometer.conversionRate == 80)
        let samples = try collectSamples(from: driver, for: 0.5, time: bench.time)
        driver.stop()
        let fields = samples.compactMap(\.magneticField)
        // 80 Hz beside 208 Hz: each value once, the samples in between without one.
        #expect(fields.count >= 28 && fields.count <= 42, "\(fields.count) magnetometer values in 0.5 s")
        #expect(samples.count > 2 * fields.count)
        for field in fields {
            #expect(maxDifference(field, Self.field) <= LIS3MDLScale.gauss4.sensitivity)
        }
        #expect(magnetometer.register(0x22) == 0x03)  // stop powers it down
    }

    @Test func withoutBitSevenTheChipRepeatsTheRegister() throws {
        let bench = LSM6DSOXTestBench(motion: .atRest(magneticField: Self.field), magnetometerAddress: 0x1E)
        let driver = try bench.driver()
        try driver.start(sampleRate: 104)
        bench.time.pass(0.05)
        let repeated = try bench.bus.readRegisters(address: 0x1E, startingAt: 0x28, count: 6)
        #expect(Set(repeated).count == 1)
        let incremented = try bench.bus.readRegisters(address: 0x1E, startingAt: 0x28 | 0x80, count: 6)
        let counts = (0..<3).map { axis in
            Int16(bitPattern: UInt16(incremented[2 * axis]) | UInt16(incremented[2 * axis + 1]) << 8)
        }
        #expect(counts == [1601, -541, -2826])  // round(µT × 68.42)
        #expect(repeated[0] == incremented[0])
        // The driver's multi-byte reads of the magnetometer all carry the flag.
        bench.bus.isLogging = true
        _ = try collectSamples(from: driver, for: 0.1, time: bench.time)
        driver.stop()
        let reads = bench.bus.transfers.filter { $0.isRead && $0.address == 0x1E }
        #expect(!reads.isEmpty)
        #expect(reads.allSatisfy { $0.bytes.count == 7 && $0.register == 0x27 | 0x80 })
    }

    @Test func otherScalesAndSlowerRates() throws {
        let strong = SIMD3(-612.5, 250.0, 90.25)  // beyond ±4 gauss, inside ±8
        let bench = LSM6DSOXTestBench(motion: .atRest(magneticField: strong), magnetometerAddress: 0x1C)
        let driver = try bench.driver(.lsm6dsox(magnetometerScale: .gauss8))
        #expect(driver.info.magnetometerRange == 32767 * 100 / 3421.0)
        try driver.start(sampleRate: 26)
        let magnetometer = try #require(bench.magnetometer)
        #expect(magnetometer.register(0x21) == 0x20)  // FS 01
        #expect(magnetometer.register(0x20) == 0x74)  // DO 101: 20 Hz beside 26 Hz
        let samples = try collectSamples(from: driver, for: 0.4, time: bench.time)
        driver.stop()
        let fields = samples.compactMap(\.magneticField)
        #expect(fields.count >= 5 && fields.count <= 9)
        for field in fields {
            #expect(maxDifference(field, strong) <= LIS3MDLScale.gauss8.sensitivity)
        }
    }

    @Test func aSoftResetRestoresTheDefaults() throws {
        let chip = EmulatedLIS3MDL(motion: .atRest())
        chip.write(startingAt: 0x20 | 0x80, bytes: [0x7C, 0x60, 0x00, 0x0C, 0x40])
        #expect((0x20...0x24).map { chip.register($0) } == [0x7C, 0x60, 0x00, 0x0C, 0x40])
        chip.write(startingAt: 0x21, bytes: [0x04])
        #expect((0x20...0x24).map { chip.register($0) } == [0x10, 0x00, 0x03, 0x00, 0x00])
        #expect(chip.read(startingAt: 0x0F, count: 1) == [0x3D])
    }
}
