import Foundation
import MotionHAL
import MotionTestSupport
import Testing

/// SI values out of the FIFO against the emulated physics, within the quantisation of the chip.
@Suite struct InvenSenseValueTests {
    /// Starts the driver, polls briefly and returns the samples.
    private func samples(
        _ model: EmulatedInvenSenseModel, motion: EmulatedMotion,
        accelerometerRange: InvenSenseAccelerometerRange = .g8, gyroscopeRange: InvenSenseGyroscopeRange = .dps2000
    ) throws -> (samples: [IMUSample], driver: InvenSenseMPU, chip: EmulatedInvenSenseMPU) {
        let time = TestTime.manual()
        let (driver, _, chip) = InvenSenseTestSupport.driver(
            model, motion: motion, accelerometerRange: accelerometerRange, gyroscopeRange: gyroscopeRange, time: time)
        try driver.start(sampleRate: 200)
        defer { driver.stop() }
        let run = InvenSenseTestSupport.poll(driver, for: 0.06, time: time)
        #expect(run.errors.isEmpty, "\(run.errors)")
        #expect(run.samples.count >= 6)
        return (run.samples, driver, chip)
    }

    @Test(arguments: [EmulatedInvenSenseModel.mpu6050, .mpu9250])
    func atRestFaceUpReadsOneGUp(model: EmulatedInvenSenseModel) throws {
        let (samples, _, _) = try samples(model, motion: .atRest())
        for sample in samples {
            // 1 g is exactly 4096 LSB at ±8 g, 0 °/s exactly 0 LSB.
            #expect(sample.acceleration == SIMD3(0, 0, 9.80665))
            #expect(sample.rotationRate == SIMD3(0, 0, 0))
        }
    }

    @Test(arguments: [EmulatedInvenSenseModel.mpu6050, .mpu6500])
    func aRotatedTurningChipReadsItsMotionWithinOneLSB(model: EmulatedInvenSenseModel) throws {
        // Tilted: gravity along (0.3, −0.5, 0.81) normalised, turning at a known rate.
        let direction = SIMD3<Double>(0.3, -0.5, 0.81)
        let acceleration = direction / length(direction) * 9.80665
        let rotationRate = SIMD3<Double>(0.7, -1.3, 2.9)
        let (samples, driver, _) = try samples(
            model, motion: .atRest(acceleration: acceleration, rotationRate: rotationRate))
        for sample in samples {
            #expect(maxDifference(try #require(sample.acceleration), acceleration) <= driver.accelerometerRange.scale)
            #expect(maxDifference(try #require(sample.rotationRate), rotationRate) <= driver.gyroscopeRange.scale)
        }
    }

    @Test(arguments: zip(InvenSenseAccelerometerRange.allCases, InvenSenseGyroscopeRange.allCases))
    func eachRangeSetting(
        accelerometerRange: InvenSenseAccelerometerRange, gyroscopeRange: InvenSenseGyroscopeRange
    ) throws {
        let g = 9.80665
        let fullScaleG = Double(2 << accelerometerRange.rawValue)
        let fullScaleRadians = Double(250 << gyroscopeRange.rawValue) * .pi / 180
        // Most of each range, so a wrong scale cannot hide.
        let acceleration = SIMD3(0.9, -0.55, 0.3) * fullScaleG * g
        let rotationRate = SIMD3(-0.8, 0.45, 0.95) * fullScaleRadians
        let (samples, driver, chip) = try samples(
            .mpu9250, motion: .atRest(acceleration: acceleration, rotationRate: rotationRate),
            accelerometerRange: accelerometerRange, gyroscopeRange: gyroscopeRange)
        #expect(chip.register(0x1C) == accelerometerRange.rawValue << 3, "ACCEL_CONFIG AFS_SEL")
        #expect(chip.register(0x1B) == gyroscopeRange.rawValue << 3, "GYRO_CONFIG FS_SEL")
        let accelerometerLSB = g / (16384 / fullScaleG * 2)
        let gyroscopeLSB = .pi / 180 / [131, 65.5, 32.8, 16.4][Int(gyroscopeRange.rawValue)]
        #expect(abs(driver.accelerometerRange.scale - accelerometerLSB) < 1e-12)
        #expect(abs(driver.gyroscopeRange.scale - gyroscopeLSB) < 1e-12)
        #expect(abs(driver.info.accelerometerRange! - 32767 * accelerometerLSB) < 1e-9)
        #expect(abs(driver.info.gyroscopeRange! - 32767 * gyroscopeLSB) < 1e-9)
        for sample in samples {
            #expect(maxDifference(try #require(sample.acceleration), acceleration) <= accelerometerLSB)
            #expect(maxDifference(try #require(sample.rotationRate), rotationRate) <= gyroscopeLSB)
        }
    }

    @Test func beyondFullScaleSaturatesAndIsReported() throws {
        // 12 g and 40 rad/s (2292 °/s) against ±8 g and ±2000 °/s.
        let (samples, driver, _) = try samples(
            .mpu6050, motion: .atRest(acceleration: SIMD3(0, 0, 12 * 9.80665), rotationRate: SIMD3(-40, 0, 0)))
        let first = try #require(samples.first)
        #expect(first.acceleration?.z == 32767 * 9.80665 / 4096)
        #expect(first.rotationRate?.x == -32768 * .pi / 180 / 16.4)
        var screen = IMUSampleScreen(info: driver.info)
        let (kept, fault) = screen.screen(samples)
        #expect(kept == samples)
        #expect(fault == .readFailed("accelerometer and gyroscope saturated (reading at full scale)"))
    }
}
