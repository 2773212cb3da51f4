import Foundation
import MotionHAL
import MotionTestSupport
import Testing

/// `sensors=accelerometer,rate=max` on each I²C chip, as the vibration service runs them: the accelerometer
/// alone at the chip's highest rate, measured against its register-level emulation. The emulations sample
/// the motion at their own instants and quantise it as the chip does; they do not filter, so a tone well
/// inside the band must come back at its amplitude and frequency.
@Suite struct AccelerometerOnlySamplingTests {
    /// What one chip should do with the accelerometer alone at its highest rate.
    struct Expectation: CustomTestStringConvertible, Sendable {
        var chip: String
        var rate: Double
        var bandwidth: Double
        /// The test tone, Hz: under 0.4 × the rate and the bandwidth.
        var tone: Double
        var testDescription: String { chip }
    }

    static let expectations = [
        Expectation(chip: "lsm6dsox", rate: 6667, bandwidth: 3333.5, tone: 1234),
        Expectation(chip: "icm20948", rate: 4500, bandwidth: 1209, tone: 789),
        Expectation(chip: "mpu6050", rate: 1000, bandwidth: 184, tone: 123),
    ]

    /// 0.5 g along z on top of gravity, at `frequency` Hz.
    static func tone(_ frequency: Double) -> EmulatedMotion {
        EmulatedMotion { time in
            let seconds = Double(time) / 1e9
            return IMUSample(
                timestamp: time, acceleration: SIMD3(0, 0, 9.80665 + 4.903325 * sin(2 * .pi * frequency * seconds)),
                rotationRate: SIMD3(0.1, 0.2, 0.3), magneticField: SIMD3(0, 20, -40))
        }
    }

    /// An emulated `chip` measuring `motion` on its own bus, and the device opened with `sampling`.
    static func device(
        _ chip: String, motion: EmulatedMotion, sampling: IMUSamplingRequest, time: TestTime
    ) throws -> (device: I2CIMU, emulation: any EmulatedI2CChip) {
        let bus = EmulatedI2CBus()
        let emulation: any EmulatedI2CChip
        let address: UInt8
        switch chip {
        case "lsm6dsox":
            address = 0x6A
            emulation = EmulatedLSM6DSOX(motion: motion, now: time.nanosecondSource)
            bus.attach(emulation, at: address)
        case "icm20948":
            address = 0x68
            let icm = EmulatedICM20948(motion: motion, now: time.nanosecondSource)
            icm.attach(to: bus, at: address)
            emulation = icm
        default:
            address = 0x68
            let mpu = EmulatedInvenSenseMPU(model: .mpu6050, motion: motion, now: time.nanosecondSource)
            mpu.attach(to: bus, at: address)
            emulation = mpu
        }
        let device = try I2CIMU(
            openingBus: { bus }, busName: bus.name, address: address, time: time.device, sampling: sampling)
        return (device, emulation)
    }

    @Test(arguments: expectations)
    func theHighestRateCarriesTheAccelerometerAlone(expected: Expectation) throws {
        let time = TestTime.manual()
        let (device, emulation) = try Self.device(
            expected.chip, motion: Self.tone(expected.tone), sampling: .init(rate: .highest, accelerometerOnly: true),
            time: time)
        #expect(device.info.sensors == [.accelerometer])
        #expect(device.info.defaultSampleRate == expected.rate)
        #expect(device.info.accelerometerBandwidth == expected.bandwidth)
        #expect(device.info.gyroscopeRange == nil && device.info.magnetometerRange == nil)
        #expect(device.info.chip.hasSuffix("accelerometer only"))

        let recorder = IMUDeviceConformance.Recorder(now: time.nanosecondSource)
        try device.start(sampleRate: device.info.defaultSampleRate, handler: recorder.handler)
        for _ in 0..<50 { time.pass(0.01) }
        switch emulation {
        case let chip as EmulatedLSM6DSOX:
            #expect(chip.register(0x11) >> 4 == 0, "CTRL2_G: the gyroscope powered down")
            #expect(chip.register(0x09) == 0x0A, "FIFO_CTRL3: BDR_XL 6667 Hz, BDR_GY 0")
        case let chip as EmulatedICM20948:
            #expect(chip.outputDataRate == 4500, "ACCEL_FCHOICE 0, the gyroscope off")
        case let chip as EmulatedInvenSenseMPU:
            #expect(chip.register(0x23) == 0x08, "FIFO_EN: ACCEL_FIFO_EN alone")
        default:
            Issue.record("unexpected emulation")
        }
        device.stop()
        let samples = recorder.samples
        #expect(recorder.faults.isEmpty, "\(recorder.faults)")
        // Half a second, less the chip's start-up.
        #expect(Double(samples.count) > 0.4 * expected.rate, "\(samples.count) samples")
        #expect(samples.allSatisfy { $0.rotationRate == nil && $0.magneticField == nil && $0.acceleration != nil })
        let spacing = LSM6DSOXTestBench.medianSpacing(samples) / 1e9
        #expect(abs(spacing * expected.rate - 1) < 0.01, "median spacing \(spacing) s")

        // The tone's amplitude and frequency from the delivered samples (least squares at the tone).
        let start = Double(samples[0].timestamp) / 1e9
        var (sine, cosine, power) = (0.0, 0.0, 0.0)
        for sample in samples {
            let phase = 2 * .pi * expected.tone * (Double(sample.timestamp) / 1e9 - start)
            let value = sample.acceleration!.z - 9.80665
            sine += value * sin(phase)
            cosine += value * cos(phase)
            power += value * value
        }
        let amplitude = 2 * (sine * sine + cosine * cosine).squareRoot() / Double(samples.count)
        let rms = (power / Double(samples.count)).squareRoot()
        #expect(abs(amplitude / 4.903325 - 1) < 0.01, "amplitude \(amplitude) m/s²")
        // All of the signal at the tone: nothing aliased elsewhere.
        #expect(abs(rms * 2.0.squareRoot() / amplitude - 1) < 0.01, "RMS \(rms), amplitude \(amplitude)")
    }

    @Test func theICM20948BypassesItsFilterOnlyAboveTheMiddleRate() throws {
        let time = TestTime.manual()
        let fast = try Self.device(
            "icm20948", motion: .atRest(), sampling: .init(rate: .hertz(2300), accelerometerOnly: true), time: time)
        #expect(fast.device.info.defaultSampleRate == 4500)
        let slow = try Self.device(
            "icm20948", motion: .atRest(), sampling: .init(rate: .hertz(2200), accelerometerOnly: true), time: time)
        #expect(slow.device.info.defaultSampleRate == 1125)
        #expect(slow.device.info.accelerometerBandwidth == 246)
        let icm = try #require(fast.emulation as? EmulatedICM20948)
        try fast.device.start(sampleRate: 4500) { _ in }
        time.pass(0.02)
        #expect(icm.outputDataRate == 4500)
        fast.device.stop()
    }

    @Test func everySensorKeepsTheDriversRatesAndStatesTheFilter() throws {
        let time = TestTime.manual()
        let lsm = try Self.device("lsm6dsox", motion: .atRest(), sampling: .deviceDefault, time: time).device
        #expect(lsm.info.defaultSampleRate == 208 && lsm.info.accelerometerBandwidth == 104)
        let fastest = try Self.device("lsm6dsox", motion: .atRest(), sampling: .init(rate: .highest), time: time).device
        #expect(fastest.info.defaultSampleRate == 1666 && fastest.info.sensors.contains(.gyroscope))
        let mpu = try Self.device("mpu6050", motion: .atRest(), sampling: .init(rate: .hertz(300)), time: time).device
        #expect(mpu.info.defaultSampleRate == 1000.0 / 3, "the divider's rate, not the request")
        #expect(mpu.info.accelerometerBandwidth == 94)
    }

    @Test func aRateTheModeCannotReachIsRefusedNamingTheRates() throws {
        let time = TestTime.manual()
        let error = expectError(IMUDeviceError.self) {
            _ = try Self.device("lsm6dsox", motion: .atRest(), sampling: .init(rate: .hertz(6667)), time: time)
        }
        #expect(error == .invalidSpecification("rate=6667 Hz: the lsm6dsox runs at 12.5...1666 Hz (rate=max asks for the highest)"))
        let alone = expectError(IMUDeviceError.self) {
            _ = try Self.device(
                "mpu6050", motion: .atRest(), sampling: .init(rate: .hertz(2000), accelerometerOnly: true), time: time)
        }
        #expect(alone == .invalidSpecification(
            "rate=2000 Hz: the mpu6050 runs with the accelerometer alone at 4...1000 Hz (rate=max asks for the highest)"))
    }
}
