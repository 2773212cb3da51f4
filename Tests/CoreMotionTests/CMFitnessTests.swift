@testable import CoreMotion
import Foundation
import MotionEngine
import MotionHAL
import Testing

extension CMMotionManagerDeviceTests {
    /// CMPedometer, CMMotionActivityManager, CMAltimeter and the Linux motion events, driven by the
    /// simulator's scenarios of known truth through the iPhone-style clients (nested so that the parent's
    /// `.serialized` keeps them off the device of the other tests).
    @Suite struct CMFitnessTests {
        /// What a client handed over, from any thread.
        final class Log<Entry>: @unchecked Sendable {
            private let lock = NSLock()
            private var entries: [Entry] = []
            func append(_ entry: Entry) { lock.withLock { entries.append(entry) } }
            var all: [Entry] { lock.withLock { entries } }
        }

        /// A scenario replayed as fast as possible: `seconds` of it in a fraction of that.
        static func fastReplay(_ motion: SimulatedMotion, seconds: Double, rate: Double = 200) -> ReplayIMU {
            let simulator = SimulatedIMU(configuration: .init(sampleRate: rate, motion: motion, seed: 3))
            let recording = IMURecording(samples: simulator.samples(count: Int(seconds * rate)), sampleRate: rate)
            return ReplayIMU(recording: recording, name: "scenario", asFastAsPossible: true)
        }

        static func serialQueue() -> OperationQueue {
            let queue = OperationQueue()
            queue.maxConcurrentOperationCount = 1
            return queue
        }

        @Test func thePedometerCountsAWalkOfKnownStepsAndKeepsItForQueries() throws {
            let gait = SimulatedGait.walking
            MotionDetectorHost.shared.forgetHistory()
            MotionAltimeter.shared.setDevice(nil)
            let started = Date()
            // Ends as the second bout ends, so the last update is taken while walking (with a cadence).
            CMLinuxMotionDevice.use(Self.fastReplay(.gait(gait), seconds: gait.cycleDuration))
            let counter = StepCounter(queue: Self.serialQueue())
            #expect(counter.isAvailable && CMPedometer.isDistanceAvailable() && CMPedometer.isCadenceAvailable())
            #expect(!CMPedometer.isFloorCountingAvailable(), "no barometer")
            let live = Log<(Int, Double?, Double?)>()
            let pauses = Log<Bool>()
            counter.watchPauses { paused, _ in pauses.append(paused) }
            counter.startCounting(from: started) { live.append(($0, $1, $2)) }
            let truth = gait.steps(at: gait.cycleDuration)
            #expect(waitUntil(timeout: 20) { (live.all.last?.0 ?? 0) >= truth - 1 }, "live: \(live.all.last.map { "\($0)" } ?? "none")")
            counter.stopCounting()
            counter.stopWatchingPauses()
            // The replay runs ahead of the wall clock: its samples are stamped up to a minute from now.
            let counted = Log<(Int, Int?)>()
            counter.steps(from: started, to: Date().addingTimeInterval(120)) { counted.append(($0, $1)) }
            #expect(waitUntil { !counted.all.isEmpty })
            let steps = try #require(counted.all.first).0
            #expect(abs(steps - truth) <= truth / 50, "\(steps) steps of \(truth)")
            #expect(counted.all.first?.1 == nil, "no floors without a barometer")
            let last = try #require(live.all.last)
            // About 0.7 m a step at 1.8 steps/s.
            #expect(abs((last.1 ?? 0) - Double(truth) * 0.7) < Double(truth) * 0.05, "distance \(last.1 ?? 0) m")
            #expect(live.all.last.map { ($0.2 ?? 0) > 100 && ($0.2 ?? 0) < 116 } == true, "cadence about 108 steps/min: \(live.all.suffix(2))")
            // Two bouts: resume, pause, resume (and a pause after the last one, once it has settled).
            #expect(Array(pauses.all.prefix(3)) == [false, true, false], "\(pauses.all)")
            // Floors count only while walking ("ascended by walking"): not a minute after the last step.
            let lastStep = try #require(MotionDetectorHost.shared.lastSampleTime)
            #expect(MotionDetectorHost.shared.recordFloor(at: lastStep - 5, up: true))
            #expect(!MotionDetectorHost.shared.recordFloor(at: lastStep + 60, up: true))
        }

        @Test func theActivityManagerTellsRunningFromStandingAndKeepsTheHistory() throws {
            let gait = SimulatedGait.running
            MotionDetectorHost.shared.forgetHistory()
            let started = Date()
            CMLinuxMotionDevice.use(Self.fastReplay(.gait(gait), seconds: gait.pause + gait.boutDuration + gait.pause))
            let tracker = ActivityTracker()
            let seen = Log<(String, CMMotionActivityConfidence)>()
            #expect(tracker.start(on: Self.serialQueue()) { seen.append(($0, $1)) })
            #expect(waitUntil(timeout: 20) { seen.all.contains { $0.0 == "running" && $0.1 == .high } && seen.all.last?.0 == "still" })
            tracker.stop()
            let history = Log<[(Date, String)]>()
            tracker.history(from: started, to: Date().addingTimeInterval(120), on: Self.serialQueue()) { history.append($0) }
            #expect(waitUntil { !history.all.isEmpty })
            var stretches: [String] = []
            for (_, name) in history.all.first ?? [] where stretches.last != name { stretches.append(name) }
            #expect(stretches == ["still", "running", "still"], "\(stretches)")
        }

        @Test func motionEventsReachTheManagerAsTheyHappen() throws {
            MotionDetectorHost.shared.forgetHistory()
            CMLinuxMotionDevice.use(Self.fastReplay(.drop(SimulatedDrop()), seconds: 20))
            let manager = CMMotionManager()
            #expect(manager.linuxIsMotionEventAvailable)
            let events = Log<(CMLinuxMotionEvent.Kind, Double)>()
            let states = Log<CMLinuxMotionStateChange.Kind>()
            manager.linuxStartMotionStateUpdates(to: Self.serialQueue()) { change, _ in
                if let change { states.append(change.kind) }
            }
            manager.linuxStartMotionEventUpdates(to: Self.serialQueue()) { event, _ in
                if let event { events.append((event.kind, event.magnitude)) }
            }
            #expect(waitUntil(timeout: 20) { events.all.count >= 4 })
            manager.linuxStopMotionEventUpdates()
            manager.linuxStopMotionStateUpdates()
            #expect(events.all.map(\.0).prefix(4) == [.freeFall, .impact, .freeFall, .impact], "\(events.all)")
            #expect(events.all.first.map { abs($0.1 - 1) < 0.05 } == true, "implied height \(events.all.first?.1 ?? 0) m")
            // Face up from the first samples, then moving as the device was lifted and dropped.
            #expect(states.all.contains(.orientation) && states.all.contains(.moving), "\(states.all)")
        }

        @Test func aLaterStateClientIsToldTheCurrentStatesFirst() throws {
            MotionDetectorHost.shared.forgetHistory()
            CMLinuxMotionDevice.use(Self.fastReplay(.stationary(attitude: .identity), seconds: 5))
            let first = CMMotionManager(), second = CMMotionManager()
            first.linuxStartMotionEventUpdates(to: Self.serialQueue()) { _, _ in }
            defer { first.linuxStopMotionEventUpdates() }
            #expect(waitUntil { MotionDetectorHost.shared.currentStates.contains(.orientation(.faceUp)) })
            let states = Log<(CMLinuxMotionStateChange.Kind, Bool, String?)>()
            second.linuxStartMotionStateUpdates(to: Self.serialQueue()) { change, _ in
                if let change { states.append((change.kind, change.isActive, change.orientation)) }
            }
            #expect(waitUntil { states.all.count >= 2 })
            second.linuxStopMotionStateUpdates()
            // At rest face up: not moving, face up, the vibration meter stopped (the order of currentStates).
            #expect(states.all.first.map { $0.0 == .moving && !$0.1 } == true, "\(states.all)")
            #expect(states.all.contains { $0.0 == .orientation && $0.2 == "face_up" }, "\(states.all)")
        }

        @Test func theAltimeterReadsAClimbOfSixMetresAndCountsNoFloorStandingStill() throws {
            CMLinuxMotionDevice.use(Self.fastReplay(.stationary(attitude: .identity), seconds: 1))
            let before = MotionDetectorHost.shared.pedometerTotals(from: 0, to: .infinity)
            try CMAltimeter.useLinuxBarometer(specification: "sim:rate=50,climb=6@2")
            defer { MotionAltimeter.shared.setDevice(nil) }
            #expect(CMAltimeter.isRelativeAltitudeAvailable() && CMAltimeter.authorizationStatus() == .authorized)
            #expect(CMPedometer.isFloorCountingAvailable())
            let tracker = AltitudeTracker()
            let readings = Log<(Double, Double)>()
            let absolute = Log<(Double, Double)>()
            #expect(tracker.start(on: Self.serialQueue()) { readings.append(($0, $1)) })
            tracker.startAbsolute(on: Self.serialQueue()) { absolute.append(($0, $1)) }
            // 2 s before the climb, 2 s of climbing, then a second of readings (50 at 50 Hz) for the smoothing to settle.
            #expect(waitUntil(timeout: 30) { (readings.all.last?.0 ?? 0) > 5.9 && readings.all.count > 200 })
            let climbed = readings.all.count
            #expect(waitUntil(timeout: 10) { readings.all.count >= climbed + 50 })
            tracker.stop()
            let first = try #require(readings.all.first), last = try #require(readings.all.last)
            #expect(first.0 == 0 && abs(first.1 - 101.325) < 0.01, "starts at 0 m and 101.325 kPa: \(first)")
            #expect(abs(last.0 - 6) < 0.5, "climbed \(last.0) m")
            #expect(abs(last.1 - (101.325 - 0.0721)) < 0.01, "\(last.1) kPa")
            // 170 m without a sea-level pressure given (MOTION_SEA_LEVEL_PRESSURE), 10 m with one.
            let accuracy = ProcessInfo.processInfo.environment["MOTION_SEA_LEVEL_PRESSURE"] == nil ? 170.0 : 10.0
            #expect(absolute.all.last.map { abs($0.0 - 6) < 0.5 && $0.1 == accuracy } == true, "\(absolute.all.last.map { "\($0)" } ?? "none")")
            // Two floors' height, but nobody walked (an elevator): no floor is counted.
            let after = MotionDetectorHost.shared.pedometerTotals(from: 0, to: .infinity)
            #expect(after.floorsAscended == before.floorsAscended, "floors \(after.floorsAscended - before.floorsAscended)")
        }

        @Test func appTestDoublesSubclassTheDataClasses() {
            #expect(ActivityTracker.describe(WalkingActivity()) == "walking" && WalkingActivity().confidence == .high)
            #expect(ActivityTracker.describe(CMMotionActivity()) == "unknown")
            #expect(FixedPedometerData().numberOfSteps == 1234 && CMPedometerData().numberOfSteps == 0)
            #expect(CMAltitudeData().relativeAltitude == 0 && CMPedometerEvent().type == .pause && CMAbsoluteAltitudeData().altitude == 0)
        }

        @Test func withoutABarometerTheAltimeterSaysSo() {
            MotionAltimeter.shared.setDevice(nil)
            #expect(!CMAltimeter.isRelativeAltitudeAvailable())
            let errors = Log<Int>()
            let altimeter = CMAltimeter()
            altimeter.startRelativeAltitudeUpdates(to: Self.serialQueue()) { data, error in
                if data == nil, let error = error as NSError? { errors.append(error.code) }
            }
            #expect(waitUntil { errors.all == [Int(CMErrorNotAvailable.rawValue)] })
            altimeter.stopRelativeAltitudeUpdates()
        }
    }
}
