import Foundation
import MotionHAL
import MotionTestSupport
import Testing

/// The ICM-20948 run by ``I2CIMU`` on the emulated bus: the device contract, removal, saturation and FIFO
/// overflow as the consumer sees them.
@Suite struct ICM20948DeviceTests {
    typealias Bench = ICM20948TestBench
    static let g = 9.80665

    @Test func conformance() throws {
        let bench = Bench()
        try IMUDeviceConformance.check(
            { try bench.device() },
            expecting: .init(acceleration: SIMD3(0, 0, Self.g), rotationRate: .zero, magneticField: SIMD3(0, 20, -40)),
            time: bench.time)
    }

    @Test func identifiedThroughTheCatalog() throws {
        let device = try Bench(address: 0x69).device()
        #expect(device.model.name == "icm20948")
        #expect(device.info.driver == "icm20948")
    }

    @Test func removalIsUnavailableAndStartWorksAfterReattaching() throws {
        let bench = Bench()
        let device = try bench.device()
        let first = DeviceEventCollector()
        try device.start(sampleRate: 225, handler: first.handler)
        bench.time.pass(0.15)
        bench.bus.detach(address: 0x68)
        bench.bus.detach(address: 0x0C)
        bench.time.pass(0.1)
        let events = first.all
        #expect(first.faults.count == 1)
        if case .fault(.unavailable(let why)) = events.last {
            #expect(why == "no chip answers at address 0x68 on emulated-i2c" || why == "no chip answers at address 0x0c on emulated-i2c")
        } else {
            Issue.record("the last event is \(String(describing: events.last)), not .fault(.unavailable)")
        }
        #expect(first.samples.count > 20)
        device.stop()

        #expect(throws: IMUDeviceError.self) { try device.start(sampleRate: 225) { _ in } }
        bench.chip.attach(to: bench.bus)
        let second = DeviceEventCollector()
        try device.start(sampleRate: 225, handler: second.handler)
        bench.time.pass(0.15)
        device.stop()
        #expect(second.faults.isEmpty)
        #expect(second.samples.count > 20)
        #expect(second.samples.allSatisfy { maxDifference($0.acceleration, SIMD3(0, 0, Self.g)) < 0.003 })
    }

    @Test func saturationIsReportedOnce() throws {
        let bench = Bench(motion: .atRest(acceleration: SIMD3(0, 0, 3 * Self.g)))
        let device = try bench.device(ICM20948Configuration(accelerometerRange: .g2))
        #expect(device.info.accelerometerRange == 2 * Self.g)
        let log = DeviceEventCollector()
        try device.start(sampleRate: 225, handler: log.handler)
        bench.time.pass(0.2)
        device.stop()
        #expect(log.faults == [.readFailed("accelerometer saturated (reading at full scale)")])
        #expect(log.samples.count > 20)
        #expect(log.samples.allSatisfy { $0.acceleration?.z == 32767 * 2 * Self.g / 32768 })
    }

    @Test func fifoOverflowIsOneFaultAndSamplesContinue() throws {
        let bench = Bench()
        let bus = ICM20948StallingBus(bench.bus, time: bench.time)
        let device = try I2CIMU(openingBus: { bus }, busName: bus.name, address: 0x68, time: bench.time.device)
        let log = DeviceEventCollector()
        try device.start(sampleRate: 1125, handler: log.handler)
        bench.time.pass(0.1)
        bus.stallNextFIFOCountRead(seconds: 0.08)  // 90 frames of 12 bytes into 512
        bench.time.pass(0.3)
        device.stop()
        #expect(log.faults.count == 1)
        #expect(log.faults.first.map { "\($0)" }?.hasPrefix("read failed: FIFO overflow") == true)
        let events = log.all
        let faultIndex = try #require(events.firstIndex { if case .fault = $0 { true } else { false } })
        let after = events[(faultIndex + 1)...].flatMap { event -> [IMUSample] in
            if case .samples(let samples) = event { return samples }
            return []
        }
        #expect(after.count > 100, "\(after.count) samples after the overflow")
        let timestamps = log.samples.map(\.timestamp)
        #expect(zip(timestamps, timestamps.dropFirst()).allSatisfy { $0 < $1 })
    }
}
