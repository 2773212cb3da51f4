/// Leave-one-out cross-validation over a table of scores: for each item held out, the candidate with the
/// lowest mean score over the other items, and the held-out item's score under that candidate. The mean of
/// those scores estimates how the selection procedure does on an item it has not seen, which the best
/// candidate's own mean (fitted on every item) overstates.
///
/// Pure value; no I/O. Used by `motion-bench broad --cross-validate` with the BROAD trials as items and
/// attitude-filter settings as candidates.
public struct LeaveOneOutCrossValidation: Sendable, Equatable {
    /// One fold: the item held out, the candidate chosen on the others, and the held-out item's score.
    public struct Fold: Sendable, Equatable {
        /// Index of the item held out.
        public let heldOut: Int
        /// Index of the candidate with the lowest mean score over the other items (the first on a tie).
        public let chosen: Int
        /// The held-out item's score under ``chosen``.
        public let score: Double
    }

    /// One fold per item, in item order.
    public let folds: [Fold]
    /// The candidate with the lowest mean over every item (what fitting on all of them picks).
    public let fitted: Int

    /// Runs the folds.
    /// - Parameter scores: `scores[candidate][item]`, lower is better; every row has the same number of
    ///   items (at least two) and there is at least one candidate. A candidate with a non-finite score
    ///   loses every fold.
    /// - Precondition: at least one candidate, at least two items, rows of equal length.
    public init(scores: [[Double]]) {
        precondition(!scores.isEmpty, "no candidates")
        let items = scores[0].count
        precondition(items >= 2 && scores.allSatisfy { $0.count == items }, "at least two items, rows of equal length")
        let totals = scores.map { row in row.reduce(0, +) }
        func best(_ meanOf: (Int) -> Double) -> Int {
            var chosen = 0
            for candidate in scores.indices.dropFirst() where Self.isLower(meanOf(candidate), than: meanOf(chosen)) {
                chosen = candidate
            }
            return chosen
        }
        folds = (0..<items).map { item in
            let chosen = best { candidate in (totals[candidate] - scores[candidate][item]) / Double(items - 1) }
            return Fold(heldOut: item, chosen: chosen, score: scores[chosen][item])
        }
        fitted = best { candidate in totals[candidate] / Double(items) }
    }

    /// Mean of the held-out scores.
    public var meanScore: Double { folds.map(\.score).reduce(0, +) / Double(folds.count) }

    /// `a < b`, with NaN and infinity losing to any finite value.
    private static func isLower(_ a: Double, than b: Double) -> Bool {
        guard a.isFinite else { return false }
        return !b.isFinite || a < b
    }
}
