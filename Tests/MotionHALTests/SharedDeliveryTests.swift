import Foundation
import MotionHAL
import MotionTestSupport
import Synchronization
import Testing

/// Simulated devices on the process's shared delivery threads (`sim:…,clock=shared`): many devices each
/// at its own rate on the pool's threads (four per core), every sample delivered once and in order, stop waiting for the
/// device's last delivery, and a start after a stop.
@Suite struct SharedDeliveryTests {
    @Test func manySharedDevicesEachDeliverEverySampleInOrderAtTheirRate() throws {
        let rates: [Double] = Array(repeating: 10, count: 100) + Array(repeating: 50, count: 100)
        let devices = try rates.enumerated().map { index, rate in
            try #require(try IMUDeviceSpecification.open("sim:rate=\(rate),seed=\(index),batch=\(1 / rate),clock=shared") as? SimulatedIMU)
        }
        let collectors = devices.map { _ in DeviceEventCollector() }
        let started = Date()
        for (device, (collector, rate)) in zip(devices, zip(collectors, rates)) {
            try device.start(sampleRate: rate, handler: collector.handler)
        }
        // 1.5 s of samples at each device's rate (the count is checked against the time that passed).
        #expect(eventually(within: .seconds(10)) {
            zip(collectors, rates).allSatisfy { collector, rate in Double(collector.samples.count) >= 1.5 * rate }
        })
        let elapsed = Date().timeIntervalSince(started)
        let stopping = Date()
        for device in devices { device.stop() }
        #expect(Date().timeIntervalSince(stopping) < 1, "a stop between ticks returns at once")
        let threads = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count
        for (collector, rate) in zip(collectors, rates) {
            let samples = collector.samples
            let expected = elapsed * rate
            #expect(Double(samples.count) >= expected - 3 && Double(samples.count) <= expected + 2, "\(samples.count) of \(expected) at \(rate) Hz")
            #expect(zip(samples, samples.dropFirst()).allSatisfy { $1.timestamp > $0.timestamp }, "in order, none twice")
            // One sample per delivery: the batch is the sample period.
            #expect(collector.all.allSatisfy { if case .samples(let batch) = $0 { batch.count <= 2 } else { true } })
        }
        #expect(threads < 100, "200 devices on \(threads) threads")
        // Stopped: nothing more arrives.
        let counts = collectors.map(\.all.count)
        Thread.sleep(forTimeInterval: 0.3)
        #expect(collectors.map(\.all.count) == counts)
    }

    @Test func aSharedDeviceStartsAgainAfterAStop() throws {
        let device = try #require(try IMUDeviceSpecification.open("sim:rate=100,batch=0.01,clock=shared") as? SimulatedIMU)
        for _ in 0..<3 {
            let collector = DeviceEventCollector()
            try device.start(sampleRate: 100, handler: collector.handler)
            #expect(collector.wait(timeout: 2) { $0.samples.count >= 10 })
            device.stop()
        }
    }

    @Test func theClockOptionIsChecked() {
        #expect(throws: IMUDeviceError.self) { try IMUDeviceSpecification.open("sim:clock=everyone") }
        #expect((try? IMUDeviceSpecification.open("sim:clock=own")) != nil)
    }
}
