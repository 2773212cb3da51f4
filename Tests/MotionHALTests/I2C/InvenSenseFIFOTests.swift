import Foundation
import MotionHAL
import MotionTestSupport
import Testing

/// FIFO overflow handling in the driver, and the emulation's FIFO and register behaviour the driver relies on.
@Suite struct InvenSenseFIFOTests {
    @Test(arguments: [EmulatedInvenSenseModel.mpu6050, .mpu9250])
    func anOverflowIsReportedOnceThenSamplesContinue(model: EmulatedInvenSenseModel) throws {
        let time = TestTime.manual()
        let (driver, bus, _) = InvenSenseTestSupport.driver(model, time: time)
        try driver.start(sampleRate: 1000)
        defer { driver.stop() }
        _ = try driver.readSamples()
        // 1024 bytes hold 85 frames, 512 bytes 42: 150 ms at 1 kHz is far more.
        time.pass(0.15)
        bus.isLogging = true
        #expect {
            try driver.readSamples()
        } throws: { error in
            guard case .readFailed(let why) = error as? IMUDeviceError else { return false }
            return why.hasPrefix("FIFO overflow on the \(driver.variant.chip) at 0x68 on emulated-i2c")
        }
        // The FIFO was switched off, reset and switched on again.
        #expect(InvenSenseTestSupport.writes(bus, to: 0x68) == [[0x6A, 0x00], [0x6A, 0x04], [0x6A, 0x40]])
        let run = InvenSenseTestSupport.poll(driver, for: 0.2, time: time)
        #expect(run.errors.isEmpty, "\(run.errors)")
        #expect(run.samples.count > 150 && run.samples.count < 230, "\(run.samples.count) samples in 0.2 s")
        #expect(run.samples.allSatisfy { $0.acceleration == SIMD3(0, 0, 9.80665) }, "frames aligned after the reset")
    }

    /// Configures the emulated chip by hand: awake, 1 kHz, FIFO on with `selection`.
    private func configure(_ bus: EmulatedI2CBus, selection: UInt8, configuration: UInt8 = 0x01) {
        try! bus.writeRegister(address: 0x68, 0x6B, 0x01)
        try! bus.writeRegister(address: 0x68, 0x1A, configuration)
        try! bus.writeRegister(address: 0x68, 0x19, 0)
        try! bus.writeRegister(address: 0x68, 0x23, selection)
        try! bus.writeRegister(address: 0x68, 0x6A, 0x40)
    }

    @Test func theEmulatedFIFOFollowsFIFOEnAndItsPortDoesNotIncrement() throws {
        let time = TestTime.manual()
        let (bus, _) = InvenSenseTestSupport.bus(
            .mpu6050, motion: .atRest(acceleration: SIMD3(0, 0, 9.80665)), time: time)
        configure(bus, selection: 0x88)  // accelerometer and temperature: 8-byte frames
        time.pass(0.02)
        let countAndFirst = try bus.readRegisters(address: 0x68, startingAt: 0x72, count: 3)
        let count = Int(countAndFirst[0]) << 8 | Int(countAndFirst[1])
        #expect(count == 8 * 20, "FIFO_COUNT \(count): 20 frames in 20 ms at 1 kHz")
        #expect(countAndFirst[2] == 0, "ACCEL_XOUT_H of the first frame")
        let frame = try bus.readRegisters(address: 0x68, startingAt: 0x74, count: 7)
        // The rest of frame 1: ACCEL_X low, Y, Z = 16384 (±2 g after reset), TEMP for 25 °C = −3920.
        let temperature = Int16(bitPattern: UInt16(frame[5]) << 8 | UInt16(frame[6]))
        #expect(Array(frame[0..<5]) == [0x00, 0x00, 0x00, 0x40, 0x00])
        #expect(temperature == -3920)
        // Ordinary registers auto-increment: ACCEL_ZOUT_H/L, TEMP_OUT_H/L.
        let registers = try bus.readRegisters(address: 0x68, startingAt: 0x3F, count: 4)
        #expect(registers == [0x40, 0x00, frame[5], frame[6]])
    }

    @Test func fifoResetNeedsTheFIFOOff() throws {
        let time = TestTime.manual()
        let (bus, chip) = InvenSenseTestSupport.bus(.mpu6500, time: time)
        configure(bus, selection: 0x78)
        time.pass(0.02)
        try bus.writeRegister(address: 0x68, 0x6A, 0x44)  // FIFO_EN and FIFO_RESET: ignored
        #expect(chip.fifoCount == 12 * 20)
        try bus.writeRegister(address: 0x68, 0x6A, 0x04)
        #expect(chip.register(0x6A) == 0, "FIFO_RESET clears itself")
        #expect(chip.fifoCount == 0)
    }

    @Test func aFullFIFOOverwritesOrKeepsItsOldestBytes() throws {
        // MPU-6050: the oldest bytes go; MPU-6500 with FIFO_MODE 1: the new ones.
        let time = TestTime.manual()
        let (overwriting, overwritingChip) = InvenSenseTestSupport.bus(.mpu6050, time: time)
        configure(overwriting, selection: 0x08)
        let (keeping, keepingChip) = InvenSenseTestSupport.bus(.mpu6500, time: time)
        configure(keeping, selection: 0x08, configuration: 0x41)
        time.pass(0.25)
        // Asleep, the chips stop sampling: no new overflow can set the flag between the reads below.
        for bus in [overwriting, keeping] { try bus.writeRegister(address: 0x68, 0x6B, 0x40) }
        #expect(overwritingChip.fifoCount == 1024)
        #expect(keepingChip.fifoCount == 512)
        for bus in [overwriting, keeping] {
            #expect(try bus.readRegister(address: 0x68, 0x3A) & 0x10 != 0, "FIFO_OFLOW_INT")
            #expect(try bus.readRegister(address: 0x68, 0x3A) & 0x10 == 0, "cleared by reading")
        }
        // 1024 = 170 frames of 6 bytes + 4: after overwriting, the oldest frame is cut.
        let oldest = try overwriting.readRegisters(address: 0x68, startingAt: 0x74, count: 6)
        #expect(oldest == [0x00, 0x00, 0x40, 0x00, 0x00, 0x00], "the FIFO starts inside a frame (ACCEL_Y, Z)")
        let kept = try keeping.readRegisters(address: 0x68, startingAt: 0x74, count: 6)
        #expect(kept == [0x00, 0x00, 0x00, 0x00, 0x40, 0x00], "the first frame whole")
    }

    @Test func deviceResetRestoresResetValuesAndTakesTime() throws {
        let time = TestTime.manual()
        let (bus, chip) = InvenSenseTestSupport.bus(.mpu6050, time: time)
        configure(bus, selection: 0x78)
        try bus.writeRegister(address: 0x68, 0x6B, 0x80)
        #expect(chip.register(0x6B) == 0xC0, "DEVICE_RESET reads 1 while resetting, SLEEP is the reset value")
        try bus.writeRegister(address: 0x68, 0x19, 7)
        #expect(chip.register(0x19) == 0, "a write during the reset is lost")
        #expect(chip.register(0x6A) == 0 && chip.register(0x23) == 0 && chip.fifoCount == 0)
        time.pass(EmulatedInvenSenseMPU.resetDuration - 0.001)
        #expect(chip.register(0x6B) == 0xC0, "still resetting 1 ms before the reset time")
        time.pass(0.001)
        #expect(chip.register(0x6B) == 0x40, "DEVICE_RESET cleared itself")
        #expect(chip.register(0x75) == 0x68)
        try bus.writeRegister(address: 0x68, 0x19, 7)
        #expect(chip.register(0x19) == 7)
    }

    @Test func sleepStopsSampling() throws {
        let time = TestTime.manual()
        let (bus, chip) = InvenSenseTestSupport.bus(.mpu9250, time: time)
        configure(bus, selection: 0x78)
        try bus.writeRegister(address: 0x68, 0x6B, 0x40)
        let count = chip.fifoCount
        time.pass(0.03)
        #expect(chip.fifoCount == count)
        try bus.writeRegister(address: 0x68, 0x6B, 0x01)
        time.pass(0.03)
        #expect(chip.fifoCount == count + 12 * 30, "30 frames of 12 bytes in 30 ms at 1 kHz")
    }

    @Test func theConfiguredRateDecidesHowFastTheFIFOFills() throws {
        // MPU-6050 without low-pass: 8 kHz / (1 + 7) = 1 kHz; with it, 1 kHz / (1 + 9) = 100 Hz.
        // MPU-6500 without low-pass: 8 kHz whatever SMPLRT_DIV says.
        let setups: [(EmulatedInvenSenseModel, configuration: UInt8, divider: UInt8, rate: Double)] = [
            (.mpu6050, 0x00, 7, 1000), (.mpu6050, 0x01, 9, 100), (.mpu6500, 0x00, 7, 8000),
        ]
        for (model, configuration, divider, rate) in setups {
            let time = TestTime.manual()
            let (bus, chip) = InvenSenseTestSupport.bus(model, time: time)
            try bus.writeRegister(address: 0x68, 0x6B, 0x01)
            try bus.writeRegister(address: 0x68, 0x1A, configuration)
            try bus.writeRegister(address: 0x68, 0x19, divider)
            try bus.writeRegister(address: 0x68, 0x23, 0x08)
            try bus.writeRegister(address: 0x68, 0x6A, 0x40)
            time.pass(0.04)
            let frames = Double(chip.fifoCount / 6)
            // 8 kHz fills the 512 bytes within 11 ms: then the FIFO is full.
            let expected = min(rate * 0.04, Double(model.fifoCapacity / 6))
            #expect(
                frames == expected.rounded(.down),
                "\(model) CONFIG \(configuration) SMPLRT_DIV \(divider): \(frames) frames, expected \(expected)")
        }
    }
}
