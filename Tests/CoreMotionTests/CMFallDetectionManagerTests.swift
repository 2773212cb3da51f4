import CoreMotion
import Foundation
import MotionHAL
import Testing

extension CMMotionManagerDeviceTests {
    /// ``CMFallDetectionManager`` on the process-wide device, a simulated person falling (nested so that the
    /// parent's `.serialized` keeps it from running beside the other tests of the device).
    @Suite struct CMFallDetectionManagerTests {
        /// A person who falls 4 s after the start (impact at about 4.9 s), lies 3 s and gets up over 3 s.
        static func usePersonFalling() {
            let fall = SimulatedFall(lyingDuration: 3, period: 60)
            CMLinuxMotionDevice.use(SimulatedIMU(configuration: .init(sampleRate: 100, motion: .fall(fall), seed: 1)))
        }

        @Test func aWearerWhoGetsUpIsDismissed() throws {
            Self.usePersonFalling()
            #expect(FallMonitor.isSupported)
            let monitor = FallMonitor()
            let start = Date()
            monitor.begin(responseWindow: 30)
            defer { monitor.end() }
            #expect(waitUntil(timeout: 30) { !monitor.allEvents.isEmpty })
            let event = try #require(monitor.allEvents.first)
            #expect(event.resolution == .dismissed)
            #expect(abs(event.date.timeIntervalSince(start) - 4.9) < 0.6, "the impact, \(event.date.timeIntervalSince(start)) s in")
            #expect(monitor.allEvents.count == 1)
        }

        @Test func aWearerWhoLiesOnIsUnresponsiveThroughTheAsyncForm() async throws {
            Self.usePersonFalling()
            let monitor = AsyncFallMonitor()
            await monitor.begin(responseWindow: 4)
            defer { monitor.end() }
            #expect(await awaitUntil(timeout: 30) { !monitor.allResolutions.isEmpty })
            #expect(monitor.allResolutions == [.unresponsive])
        }

        @Test func twentySecondsOfAStillDeviceReportNoFall() {
            // Replayed as fast as it goes: the wait is for the samples to have passed, not for time.
            let seconds = 20.0, rate = 200.0
            CMLinuxMotionDevice.use(CMFitnessTests.fastReplay(.stationary(attitude: .identity), seconds: seconds, rate: rate))
            // The counter first: the replay starts with the first subscription and does not wait, so a
            // counter that subscribed after the fall monitor could miss the first samples (3 of 4000 once,
            // under load) and wait for them in vain.
            let counter = CMMotionManager()
            counter.accelerometerUpdateInterval = 1 / rate
            let samples = Recorder<Double>()
            counter.startAccelerometerUpdates(to: OperationQueue()) { data, _ in
                if let data { samples.append(data.timestamp) }
            }
            let monitor = FallMonitor()
            monitor.begin()
            #expect(waitUntil(timeout: 20) { samples.count >= Int(seconds * rate) - 1 }, "\(samples.count) samples")
            counter.stopAccelerometerUpdates()
            monitor.end()
            #expect(monitor.allEvents.isEmpty)
        }
    }
}
