import CoreMotion
import Foundation
import MotionEngine
import MotionHAL
import Testing

extension CMMotionManagerDeviceTests {
    /// The deprecated CMStepCounter over the board's pedometer, through an iOS 7 app's code (nested so that
    /// the parent's `.serialized` keeps it from running beside the other tests of the device).
    @Suite struct CMStepCounterTests {
        @available(*, deprecated, message: "tests CMStepCounter")
        @Test func anIOS7StepCounterCountsAWalk() async throws {
            let gait = SimulatedGait.walking
            MotionDetectorHost.shared.forgetHistory()
            let started = Date()
            CMLinuxMotionDevice.use(CMFitnessTests.fastReplay(.gait(gait), seconds: gait.cycleDuration))
            let queue = CMFitnessTests.serialQueue()
            let counter = LegacyStepCounter(queue: queue)
            #expect(counter.isAvailable)
            let updates = CMFitnessTests.Log<Int>()
            counter.start(every: 10) { updates.append($0) }
            let truth = gait.steps(at: gait.cycleDuration)
            #expect(waitUntil(timeout: 20) { (updates.all.last ?? 0) >= truth - 10 }, "\(updates.all)")
            counter.stop()
            let reported = updates.all
            #expect(zip(reported, reported.dropFirst()).allSatisfy { $1 >= $0 + 10 }, "every 10 steps: \(reported)")
            // The replay runs ahead of the wall clock: its samples are stamped up to a minute from now.
            let steps = await counter.steps(from: started, to: Date().addingTimeInterval(120))
            #expect(abs(steps - truth) <= truth / 50, "\(steps) steps of \(truth)")
        }
    }
}

/// A tremor study's app on a board: no movement-disorder results, told as Apple tells a device without them.
@Suite struct TremorDashboardTests {
    @Test func theDashboardSaysUnavailableAndAQueryFailsWithNotAvailable() async {
        #expect(await TremorDashboard().refresh() == .unavailable)
        let answer = await withCheckedContinuation { continuation in
            TremorDashboard().queryDespiteUnavailability { count, code in continuation.resume(returning: (count, code)) }
        }
        #expect(answer.0 == 0 && answer.1 == Int(CMErrorNotAvailable.rawValue))
    }
}

extension CMMotionManagerDeviceTests {
    /// The barometer's readings as Apple's CMAmbientPressureData (a Linux addition on CMAltimeter).
    @Suite struct AmbientPressureTests {
        @Test func theBarometerReadsAsAmbientPressureData() throws {
            try CMAltimeter.useLinuxBarometer(specification: "sim:rate=10")
            defer { MotionAltimeter.shared.setDevice(nil) }
            let altimeter = CMAltimeter()
            let readings = CMFitnessTests.Log<(Double, Double)>()
            altimeter.linuxStartAmbientPressureUpdates(to: CMFitnessTests.serialQueue()) { data, error in
                guard let data, error == nil else { return }
                readings.append((data.pressure.converted(to: .kilopascals).value, data.temperature.converted(to: .celsius).value))
            }
            #expect(waitUntil(timeout: 10) { readings.all.count >= 3 })
            altimeter.linuxStopAmbientPressureUpdates()
            #expect(readings.all.allSatisfy { (90...110).contains($0.0) && $0.1.isFinite }, "\(readings.all.prefix(3))")
        }
    }
}
