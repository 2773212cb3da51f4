import MotionFusion
import Testing

@Suite struct LeaveOneOutCrossValidationTests {
    @Test func eachFoldChoosesOnTheOtherItemsAndScoresTheOneLeftOut() {
        // Candidate 0 is best on items 1 and 2, candidate 1 only on item 0, where it is far better: fitted on
        // everything candidate 1 wins (mean 2 against 3), but held out, item 0 gets candidate 0's score.
        let scores: [[Double]] = [
            [7, 1, 1],
            [0, 3, 3],
        ]
        let validation = LeaveOneOutCrossValidation(scores: scores)
        #expect(validation.fitted == 1)
        #expect(validation.folds.map(\.chosen) == [0, 1, 1])
        #expect(validation.folds.map(\.score) == [7, 3, 3])
        #expect(validation.meanScore == 13.0 / 3)
    }

    @Test func aCandidateWithANonFiniteScoreNeverWins() {
        let scores: [[Double]] = [
            [.nan, 0, 0],
            [1, 1, 1],
            [2, .infinity, 2],
        ]
        let validation = LeaveOneOutCrossValidation(scores: scores)
        #expect(validation.folds.map(\.chosen) == [1, 1, 1])
        #expect(validation.fitted == 1)
    }

    @Test func tiesGoToTheFirstCandidate() {
        let validation = LeaveOneOutCrossValidation(scores: [[1, 2], [1, 2]])
        #expect(validation.folds.map(\.chosen) == [0, 0] && validation.fitted == 0)
    }
}
