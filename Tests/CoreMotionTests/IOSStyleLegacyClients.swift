import CoreMotion
import Foundation

// iOS 7 code against CMStepCounter, and a Parkinson's study app against CMMovementDisorderManager, written
// as their apps are. They compile unchanged against Apple's `import CoreMotion` (Swift 6 language mode).

/// An iOS 7 fitness app's step counter (CMStepCounter, deprecated since iOS 8 but still shipped).
@available(*, deprecated, message: "uses CMStepCounter as iOS 7 apps do")
final class LegacyStepCounter {
    private let counter = CMStepCounter()
    private let queue: OperationQueue

    init(queue: OperationQueue) {
        self.queue = queue
    }

    var isAvailable: Bool { CMStepCounter.isStepCountingAvailable() }

    /// Every `every` steps, the total since the start.
    func start(every: Int, update: @escaping (Int) -> Void) {
        counter.startStepCountingUpdates(to: queue, updateOn: every) { steps, _, error in
            if error == nil { update(steps) }
        }
    }

    func stop() { counter.stopStepCountingUpdates() }

    func steps(from start: Date, to end: Date) async -> Int {
        (try? await counter.queryStepCountStarting(from: start, to: end, to: queue)) ?? 0
    }
}

/// A tremor study's dashboard: monitors for a week and shows the last day's results, or why it cannot.
final class TremorDashboard {
    private let manager = CMMovementDisorderManager()

    enum State: Equatable {
        case unavailable
        case results(tremorMinutes: Int)
        case failed(code: Int)
    }

    func refresh() async -> State {
        guard CMMovementDisorderManager.isAvailable(), CMMovementDisorderManager.authorizationStatus() == .authorized else {
            return .unavailable
        }
        manager.monitorKinesias(forDuration: 7 * 24 * 3600)
        do {
            let results = try await manager.queryTremor(from: Date(timeIntervalSinceNow: -86400), to: Date())
            return .results(tremorMinutes: results.filter { $0.percentNone < 0.5 }.count)
        } catch {
            return .failed(code: (error as NSError).code)
        }
    }

    /// What the query says when the app asks anyway (the handler form).
    func queryDespiteUnavailability(_ done: @escaping (Int, Int?) -> Void) {
        manager.queryTremor(from: Date(timeIntervalSinceNow: -3600), to: Date()) { results, error in
            done(results.count, (error as NSError?)?.code)
        }
    }
}
