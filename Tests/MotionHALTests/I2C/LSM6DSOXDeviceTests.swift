import Foundation
import MotionHAL
import MotionTestSupport
import Testing

/// The LSM6DSOX through ``I2CIMU``, as the agent runs it: removal, restart, and the device contract.
@Suite struct LSM6DSOXDeviceTests {
    @Test(arguments: [UInt8(0x6A), 0x1C])
    func removingAChipIsUnavailableAndReattachingItWorks(removed: UInt8) throws {
        let bench = LSM6DSOXTestBench(magnetometerAddress: 0x1C)
        let device = try bench.device()
        let log = DeviceEventCollector()
        try device.start(sampleRate: 208, handler: log.handler)
        bench.time.pass(0.15)
        #expect(!log.samples.isEmpty)
        let detached: any EmulatedI2CChip = removed == 0x6A ? bench.chip : try #require(bench.magnetometer)
        bench.bus.detach(address: removed)
        bench.time.pass(0.05)
        #expect(log.faults.contains { if case .unavailable = $0 { true } else { false } })
        let countAfterFault = log.samples.count
        bench.time.pass(0.05)
        #expect(log.samples.count == countAfterFault)  // polling ended
        device.stop()

        if removed == 0x6A {
            let error = expectError(IMUDeviceError.self) { try device.start(sampleRate: 208) { _ in } }
            #expect(error == .unavailable("no chip answers at address 0x6a on emulated-i2c"))
        }
        bench.bus.attach(detached, at: removed)
        let again = DeviceEventCollector()
        try device.start(sampleRate: 208, handler: again.handler)
        bench.time.pass(0.2)
        device.stop()
        #expect(again.faults.isEmpty)
        #expect(again.samples.count > 25)
        #expect(again.samples.contains { $0.magneticField != nil })
    }

    @Test func sixAxisConformance() throws {
        let bench = LSM6DSOXTestBench()
        try IMUDeviceConformance.check(
            { try bench.device() }, expecting: .init(acceleration: SIMD3(0, 0, 9.80665), rotationRate: .zero), time: bench.time)
    }

    @Test func nineAxisConformance() throws {
        let bench = LSM6DSOXTestBench(magnetometerAddress: 0x1C)
        try IMUDeviceConformance.check(
            { try bench.device() },
            expecting: .init(acceleration: SIMD3(0, 0, 9.80665), rotationRate: .zero, magneticField: SIMD3(0, 20, -40)),
            time: bench.time)
    }
}
