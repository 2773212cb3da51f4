import Foundation
import MotionHAL
import MotionTestSupport
import Testing

/// The InvenSense chips as whole devices through ``I2CIMU``: the device contract, removal, and the register
/// writes of a start as the bus sees them.
@Suite struct InvenSenseDeviceTests {
    @Test(arguments: [TestTime.real, .manual()])
    func mpu6050KeepsTheDeviceContract(time: TestTime) throws {
        let (bus, _) = InvenSenseTestSupport.bus(.mpu6050, time: time)
        try IMUDeviceConformance.check(
            { try I2CIMU(openingBus: { bus }, busName: bus.name, address: 0x68, time: time.device) },
            expecting: .init(acceleration: SIMD3(0, 0, 9.80665), rotationRate: .zero, magneticField: nil),
            rate: 500, time: time)
    }

    @Test func mpu9250KeepsTheDeviceContract() throws {
        let time = TestTime.manual()
        let field = SIMD3<Double>(0, 20, -40)
        let (bus, _) = InvenSenseTestSupport.bus(.mpu9250, motion: .atRest(magneticField: field), time: time)
        try IMUDeviceConformance.check(
            { try I2CIMU(openingBus: { bus }, busName: bus.name, address: 0x68, time: time.device) },
            expecting: .init(acceleration: SIMD3(0, 0, 9.80665), rotationRate: .zero, magneticField: field),
            rate: 500, time: time)
    }

    @Test func aRemovedChipIsUnavailableAndStartsAgainWhenBack() throws {
        let time = TestTime.manual()
        let (bus, chip) = InvenSenseTestSupport.bus(.mpu9250, time: time)
        let device = try I2CIMU(openingBus: { bus }, busName: bus.name, address: 0x68, time: time.device)
        let recorder = IMUDeviceConformance.Recorder(now: time.nanosecondSource)
        try device.start(sampleRate: 200, handler: recorder.handler)
        time.pass(0.15)
        #expect(!recorder.samples.isEmpty)
        bus.detach(address: 0x68)
        time.pass(0.1)
        device.stop()
        #expect(recorder.faults == [.unavailable("no chip answers at address 0x68 on emulated-i2c")])

        #expect(throws: IMUDeviceError.unavailable("no chip answers at address 0x68 on emulated-i2c")) {
            try device.start(sampleRate: 200) { _ in }
        }
        chip.attach(to: bus)
        let again = IMUDeviceConformance.Recorder(now: time.nanosecondSource)
        try device.start(sampleRate: 200, handler: again.handler)
        time.pass(0.2)
        device.stop()
        #expect(again.faults.isEmpty, "\(again.faults)")
        #expect(again.samples.count >= 30, "\(again.samples.count) samples in 0.2 s at 200 Hz after reattaching")
        #expect(again.samples.contains { $0.magneticField != nil })
    }

    @Test func startResetsAndConfiguresInOrder() throws {
        let time = TestTime.manual()
        let (driver, bus, chip) = InvenSenseTestSupport.driver(.mpu6050, time: time)
        bus.isLogging = true
        try driver.start(sampleRate: 100)
        #expect(
            bus.transfers.filter { $0.register == 0x6B }.map(\.isRead).prefix(2) == [false, true],
            "PWR_MGMT_1 read back after the reset, for DEVICE_RESET to clear")
        #expect(
            InvenSenseTestSupport.writes(bus, to: 0x68) == [
                [0x6B, 0x80],  // PWR_MGMT_1 DEVICE_RESET
                [0x6B, 0x01],  // PWR_MGMT_1 awake, PLL clock
                [0x1B, 0x18],  // GYRO_CONFIG ±2000 °/s
                [0x1C, 0x10],  // ACCEL_CONFIG ±8 g
                [0x1A, 0x03],  // CONFIG DLPF_CFG 3: 42 / 44 Hz below the 50 Hz Nyquist frequency
                [0x19, 0x09],  // SMPLRT_DIV 9: 100 Hz
                [0x38, 0x10],  // INT_ENABLE FIFO_OFLOW_EN
                [0x23, 0x78],  // FIFO_EN gyroscope x, y, z and accelerometer
                [0x6A, 0x00],  // USER_CTRL FIFO off,
                [0x6A, 0x04],  // FIFO_RESET,
                [0x6A, 0x40],  // FIFO on
            ])
        // The emulation drops writes while DEVICE_RESET is in progress: the driver waited.
        #expect(
            [0x6B, 0x1B, 0x1C, 0x1A, 0x19, 0x38, 0x23, 0x6A].map { chip.register($0) }
                == [0x01, 0x18, 0x10, 0x03, 0x09, 0x10, 0x78, 0x40])
        driver.stop()
        #expect(InvenSenseTestSupport.writes(bus, to: 0x68).last == [0x6B, 0x40], "asleep after stop")
        #expect(chip.register(0x6B) == 0x40)
    }

    @Test func theMPU9250AlsoSetsItsAccelerometerFilterAndBypass() throws {
        let time = TestTime.manual()
        let (driver, bus, chip) = InvenSenseTestSupport.driver(.mpu9250, time: time)
        bus.isLogging = true
        try driver.start(sampleRate: 1000)
        defer { driver.stop() }
        let writes = InvenSenseTestSupport.writes(bus, to: 0x68)
        #expect(writes.contains([0x1A, 0x01]) && writes.contains([0x1D, 0x01]), "DLPF_CFG and A_DLPF_CFG 1 at 1 kHz")
        #expect(writes.contains([0x19, 0x00]))
        #expect(writes.contains([0x37, 0x02]), "INT_PIN_CFG BYPASS_EN")
        #expect(chip.isBypassEnabled)
        // The AK8963 is configured after the bypass switch is closed.
        let firstMagnetometerTransfer = try #require(bus.transfers.firstIndex { $0.address == 0x0C })
        let bypass = try #require(bus.transfers.firstIndex { !$0.isRead && $0.register == 0x37 && $0.address == 0x68 })
        #expect(bypass < firstMagnetometerTransfer)
    }
}
