import Foundation
import MotionHAL
import MotionTestSupport

/// Shared set-up for the InvenSense driver tests: an emulated chip on an emulated bus, and a poll loop that
/// runs a driver the way ``I2CIMU`` does, on the test's thread.
enum InvenSenseTestSupport {
    /// The variant the driver has for each emulated part.
    static func variant(_ model: EmulatedInvenSenseModel) -> InvenSenseVariant {
        switch model {
        case .mpu6050: .mpu6050
        case .mpu6500: .mpu6500
        case .mpu9250: .mpu9250
        case .mpu9255: .mpu9255
        }
    }

    /// A bus with an emulated `model` at `address` (and its AK8963 behind the bypass switch), the chip on
    /// `time` (real by default; a manual clock's for tests that advance it).
    static func bus(
        _ model: EmulatedInvenSenseModel, motion: EmulatedMotion = .atRest(), oscillatorError: Double = 0,
        whoAmI: UInt8? = nil, address: UInt8 = 0x68, time: TestTime = .real
    ) -> (bus: EmulatedI2CBus, chip: EmulatedInvenSenseMPU) {
        let bus = EmulatedI2CBus()
        let chip = EmulatedInvenSenseMPU(
            model: model, motion: motion, oscillatorError: oscillatorError, whoAmI: whoAmI, now: time.nanosecondSource)
        chip.attach(to: bus, at: address)
        return (bus, chip)
    }

    /// A driver for the emulated `model`, not started; driver and chip on `time`.
    static func driver(
        _ model: EmulatedInvenSenseModel, motion: EmulatedMotion = .atRest(), oscillatorError: Double = 0,
        accelerometerRange: InvenSenseAccelerometerRange = .g8, gyroscopeRange: InvenSenseGyroscopeRange = .dps2000,
        time: TestTime = .real
    ) -> (driver: InvenSenseMPU, bus: EmulatedI2CBus, chip: EmulatedInvenSenseMPU) {
        let (bus, chip) = bus(model, motion: motion, oscillatorError: oscillatorError, time: time)
        let driver = InvenSenseMPU(
            bus: bus, address: 0x68, variant: variant(model), accelerometerRange: accelerometerRange,
            gyroscopeRange: gyroscopeRange, time: time.device)
        return (driver, bus, chip)
    }

    /// What polling a started driver gave.
    struct Run {
        /// Every sample, in order.
        var samples: [IMUSample] = []
        /// The number of non-empty reads.
        var bursts = 0
        /// The errors thrown, in order.
        var errors: [IMUDeviceError] = []
    }

    /// Polls `driver` every `interval` s for `duration` s of `time`.
    static func poll(_ driver: InvenSenseMPU, for duration: Double, every interval: Double = 0.01, time: TestTime = .real) -> Run {
        var run = Run()
        let end = time.now + UInt64(duration * 1e9)
        while time.now < end {
            time.pass(interval)
            do {
                let samples = try driver.readSamples()
                if !samples.isEmpty { run.bursts += 1 }
                run.samples += samples
            } catch {
                run.errors.append(error)
            }
        }
        return run
    }

    /// The writes to `address` in a bus's log, as (register, bytes).
    static func writes(_ bus: EmulatedI2CBus, to address: UInt8) -> [[UInt8]] {
        bus.transfers.filter { !$0.isRead && $0.address == address }.map { [$0.register] + $0.bytes }
    }

    /// The median of the spacings of consecutive timestamps, ns; not a number for fewer than two samples.
    static func medianSpacing(_ samples: some Collection<IMUSample>) -> Double {
        let times = samples.map(\.timestamp)
        let spacings = zip(times, times.dropFirst()).map { Double($1) - Double($0) }.sorted()
        return spacings.isEmpty ? .nan : spacings[spacings.count / 2]
    }
}
