import CoreMotion
import Foundation

// Fitness code written the way an iPhone app writes it, against CMPedometer, CMMotionActivityManager and
// CMAltimeter. It compiles unchanged against Apple's `import CoreMotion` (Swift 6 language mode); only the
// tests' choice of device (`CMLinuxMotionDevice.use`, `CMAltimeter.useLinuxBarometer`) is Linux's.

// MARK: - A step counter

/// Today's steps and a live count, as a fitness app's model keeps them.
final class StepCounter {
    private let pedometer = CMPedometer()
    private let queue: OperationQueue

    /// - Parameter queue: where results are handed over (an app passes `.main`).
    init(queue: OperationQueue = .main) {
        self.queue = queue
    }

    /// Whether this device counts steps at all.
    var isAvailable: Bool { CMPedometer.isStepCountingAvailable() && CMPedometer.authorizationStatus() != .denied }

    /// Starts a live count from `start`: steps, metres and steps per minute.
    func startCounting(from start: Date = Date(), update: @escaping @Sendable (_ steps: Int, _ metres: Double?, _ stepsPerMinute: Double?) -> Void) {
        guard isAvailable else { return }
        pedometer.startUpdates(from: start) { [queue] data, error in
            guard let data, error == nil else { return }
            let steps = data.numberOfSteps.intValue
            let metres = data.distance?.doubleValue
            let perMinute = data.currentCadence.map { $0.doubleValue * 60 }
            queue.addOperation { update(steps, metres, perMinute) }
        }
    }

    func stopCounting() {
        pedometer.stopUpdates()
    }

    /// The steps between two dates (0 when the pedometer cannot tell).
    func steps(from start: Date, to end: Date, completion: @escaping @Sendable (Int, Int?) -> Void) {
        pedometer.queryPedometerData(from: start, to: end) { [queue] data, error in
            let steps = error == nil ? data?.numberOfSteps.intValue ?? 0 : 0
            let floors = data?.floorsAscended?.intValue
            queue.addOperation { completion(steps, floors) }
        }
    }

    /// Pause / resume of the walk, for a workout's auto-pause.
    func watchPauses(_ changed: @escaping @Sendable (_ paused: Bool, _ at: Date) -> Void) {
        guard CMPedometer.isPedometerEventTrackingAvailable() else { return }
        pedometer.startEventUpdates { [queue] event, error in
            guard let event, error == nil else { return }
            let paused = event.type == .pause
            let date = event.date
            queue.addOperation { changed(paused, date) }
        }
    }

    func stopWatchingPauses() {
        pedometer.stopEventUpdates()
    }
}

// MARK: - An activity tracker

/// What the user is doing, in words, as a status line shows it.
final class ActivityTracker {
    private let manager = CMMotionActivityManager()

    static func describe(_ activity: CMMotionActivity) -> String {
        if activity.running { return "running" }
        if activity.walking { return "walking" }
        if activity.cycling { return "cycling" }
        if activity.automotive { return "driving" }
        if activity.stationary { return "still" }
        return "unknown"
    }

    func start(on queue: OperationQueue, update: @escaping (String, CMMotionActivityConfidence) -> Void) -> Bool {
        guard CMMotionActivityManager.isActivityAvailable() else { return false }
        manager.startActivityUpdates(to: queue) { activity in
            guard let activity else { return }
            update(Self.describe(activity), activity.confidence)
        }
        return true
    }

    func stop() {
        manager.stopActivityUpdates()
    }

    /// The activities of a time range, with their start dates.
    func history(from start: Date, to end: Date, on queue: OperationQueue, completion: @escaping ([(Date, String)]) -> Void) {
        manager.queryActivityStarting(from: start, to: end, to: queue) { activities, error in
            guard let activities, error == nil else { return completion([]) }
            completion(activities.map { ($0.startDate, Self.describe($0)) })
        }
    }
}

// MARK: - An altitude tracker

/// Metres climbed since the start, as a hiking app shows them, and the air pressure.
final class AltitudeTracker {
    private let altimeter = CMAltimeter()
    private(set) var highest: Double = 0

    func start(on queue: OperationQueue, update: @escaping (_ metres: Double, _ kilopascals: Double) -> Void) -> Bool {
        guard CMAltimeter.isRelativeAltitudeAvailable() else { return false }
        altimeter.startRelativeAltitudeUpdates(to: queue) { [weak self] data, error in
            guard let self, let data, error == nil else { return }
            let metres = data.relativeAltitude.doubleValue
            self.highest = max(self.highest, metres)
            update(metres, data.pressure.doubleValue)
        }
        return true
    }

    func startAbsolute(on queue: OperationQueue, update: @escaping (_ metres: Double, _ accuracy: Double) -> Void) {
        guard CMAltimeter.isAbsoluteAltitudeAvailable() else { return }
        altimeter.startAbsoluteAltitudeUpdates(to: queue) { data, error in
            guard let data, error == nil else { return }
            update(data.altitude, data.accuracy)
        }
    }

    func stop() {
        altimeter.stopRelativeAltitudeUpdates()
        altimeter.stopAbsoluteAltitudeUpdates()
    }
}

// MARK: - A cache of the last reading

/// The last pedometer data and activity kept across launches, as apps archive them (secure coding).
enum FitnessCache {
    static func archive(_ data: CMPedometerData, _ activity: CMMotionActivity) throws -> (Data, Data) {
        (try NSKeyedArchiver.archivedData(withRootObject: data, requiringSecureCoding: true),
         try NSKeyedArchiver.archivedData(withRootObject: activity, requiringSecureCoding: true))
    }

    static func restore(_ archives: (Data, Data)) throws -> (steps: Int, walking: Bool)? {
        guard let data = try NSKeyedUnarchiver.unarchivedObject(ofClass: CMPedometerData.self, from: archives.0),
            let activity = try NSKeyedUnarchiver.unarchivedObject(ofClass: CMMotionActivity.self, from: archives.1)
        else { return nil }
        return (data.numberOfSteps.intValue, activity.walking)
    }
}

// MARK: - Test doubles, as iOS unit tests write them

/// A walking activity for a unit test of code that reads activities.
final class WalkingActivity: CMMotionActivity {
    override var walking: Bool { true }
    override var confidence: CMMotionActivityConfidence { .high }
}

/// Pedometer data with a fixed count.
final class FixedPedometerData: CMPedometerData {
    override var numberOfSteps: NSNumber { 1234 }
    override var distance: NSNumber? { 987.5 }
}
