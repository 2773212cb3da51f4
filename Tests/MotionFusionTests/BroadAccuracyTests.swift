import Foundation
import MotionFusion
import MotionMath
import MotionHAL
import Testing

/// The filter's accuracy on all twelve BROAD trials, when the data set is present (`BROAD_DATA`, or a
/// developer's checkout beside `../shared/data/broad`; a user's clone has only the excerpt, tested in
/// `OrientationErrorTests`).
/// Fails when the mean regresses past the fusion issues' targets, a group of trials scores worse than
/// VQF's, or a trial far worse.
@Suite struct BroadAccuracyTests {
    /// `BROAD_DATA` if set, else `../shared/data/broad` beside the checkout.
    static let dataDirectory = ProcessInfo.processInfo.environment["BROAD_DATA"]
        ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../../shared/data/broad").standardizedFileURL.path
    static let hasData = FileManager.default.fileExists(atPath: dataDirectory + "/01_undisturbed_slow_rotation_A.csv")

    /// One trial's scores, degrees: 9-axis total and inclination RMSE, 6-axis inclination RMSE.
    struct Scores {
        var nineAxisTotal: Double
        var nineAxisInclination: Double
        var sixAxisInclination: Double
        /// Scored samples, and those whose 9-axis heading and inclination errors lie within 2 σ of the
        /// filter's own uncertainty.
        var scored = 0
        var headingWithinTwoSigma = 0
        var inclinationWithinTwoSigma = 0
    }

    /// VQF 2.1.2's scores per trial (`Benchmarks/broad/vqf_reference.py`, the published filter with its
    /// default parameters), prefix of the trial's file name → scores.
    static let vqf: [String: Scores] = [
        "01": Scores(nineAxisTotal: 1.99, nineAxisInclination: 0.60, sixAxisInclination: 0.60),
        "04": Scores(nineAxisTotal: 1.07, nineAxisInclination: 0.79, sixAxisInclination: 0.79),
        "06": Scores(nineAxisTotal: 4.03, nineAxisInclination: 0.80, sixAxisInclination: 0.80),
        "08": Scores(nineAxisTotal: 3.34, nineAxisInclination: 1.76, sixAxisInclination: 1.76),
        "10": Scores(nineAxisTotal: 1.80, nineAxisInclination: 0.30, sixAxisInclination: 0.30),
        "15": Scores(nineAxisTotal: 2.31, nineAxisInclination: 0.47, sixAxisInclination: 0.47),
        "21": Scores(nineAxisTotal: 4.08, nineAxisInclination: 1.72, sixAxisInclination: 1.72),
        "24": Scores(nineAxisTotal: 1.55, nineAxisInclination: 0.61, sixAxisInclination: 0.61),
        "26": Scores(nineAxisTotal: 1.75, nineAxisInclination: 0.56, sixAxisInclination: 0.56),
        "28": Scores(nineAxisTotal: 4.04, nineAxisInclination: 1.21, sixAxisInclination: 1.21),
        "32": Scores(nineAxisTotal: 7.67, nineAxisInclination: 0.56, sixAxisInclination: 0.56),
        "34": Scores(nineAxisTotal: 3.35, nineAxisInclination: 0.65, sixAxisInclination: 0.65),
    ]

    /// The scores of every trial, by file name.
    private func scores() throws -> [(trial: String, scores: Scores)] {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.dataDirectory).filter { $0.hasSuffix(".csv") }.sorted()
        var result: [(String, Scores)] = []
        for file in files {
            let recording = try IMURecording.load(contentsOf: Self.dataDirectory + "/" + file)
            var nine = FrameAttitudeEstimator(frame: .xMagneticNorthZVertical)
            var six = FrameAttitudeEstimator(frame: .xArbitraryZVertical)
            var nineErrors = OrientationErrorStatistics(), sixErrors = OrientationErrorStatistics()
            var withinTwoSigma = (heading: 0, inclination: 0)
            var previous: UInt64?
            for (index, sample) in recording.samples.enumerated() {
                let deltaTime = previous.map { Double(sample.timestamp - $0) / 1e9 } ?? 0
                previous = sample.timestamp
                nine.update(gyroscope: sample.rotationRate!, accelerometer: sample.acceleration, magnetometer: sample.magneticField, deltaTime: deltaTime)
                six.update(gyroscope: sample.rotationRate!, accelerometer: sample.acceleration, magnetometer: nil, deltaTime: deltaTime)
                guard recording.movement[index], let r = recording.referenceAttitudes[index] else { continue }
                let reference = Quaternion(w: r[0], x: r[1], y: r[2], z: r[3])
                let error = OrientationError(estimate: nine.attitudeInEastNorthUp, reference: reference)
                nineErrors.add(error)
                if error.heading <= 2 * nine.filter.headingUncertainty { withinTwoSigma.heading += 1 }
                if error.inclination <= 2 * nine.filter.inclinationUncertainty { withinTwoSigma.inclination += 1 }
                sixErrors.add(OrientationError(estimate: six.attitudeInEastNorthUp, reference: reference))
            }
            result.append((file, Scores(
                nineAxisTotal: nineErrors.totalRMSE, nineAxisInclination: nineErrors.inclinationRMSE,
                sixAxisInclination: sixErrors.inclinationRMSE, scored: nineErrors.count,
                headingWithinTwoSigma: withinTwoSigma.heading, inclinationWithinTwoSigma: withinTwoSigma.inclination)))
        }
        return result
    }

    @Test(.enabled(if: hasData, "needs ../shared/data/broad"), .timeLimit(.minutes(3)))
    func meanErrorsOnAllTrialsStayWithinTheTargets() throws {
        let trials = try scores()
        let count = Double(trials.count)
        let mean = Scores(
            nineAxisTotal: trials.map(\.scores.nineAxisTotal).reduce(0, +) / count,
            nineAxisInclination: trials.map(\.scores.nineAxisInclination).reduce(0, +) / count,
            sixAxisInclination: trials.map(\.scores.sixAxisInclination).reduce(0, +) / count)
        // Measured 2.14°, 0.67°, 0.68° (VQF: 3.08°, 0.83°, 0.83°); the targets: < 2.8°, < 0.75°, < 0.75°.
        #expect(mean.nineAxisTotal < 2.8, "9-axis total \(mean.nineAxisTotal)°")
        #expect(mean.nineAxisInclination < 0.75, "9-axis inclination \(mean.nineAxisInclination)°")
        #expect(mean.sixAxisInclination < 0.75, "6-axis inclination \(mean.sixAxisInclination)°")
        // Every group of trials (the groups `motion-bench broad --cross-validate` reports) below VQF's mean.
        let groups: [String: [String]] = [
            "undisturbed rotation": ["01", "04", "06", "08"], "translation and combined": ["10", "15", "21"],
            "tapping and vibration": ["24", "26"], "stationary magnet": ["28"], "attached magnet": ["32", "34"],
        ]
        for (group, prefixes) in groups {
            let members = trials.filter { prefixes.contains(String($0.trial.prefix(2))) }
            guard members.count == prefixes.count else { continue }
            let ours = members.map(\.scores.nineAxisTotal).reduce(0, +) / Double(members.count)
            let theirs = prefixes.compactMap { Self.vqf[$0]?.nineAxisTotal }.reduce(0, +) / Double(prefixes.count)
            #expect(ours < theirs, "\(group): 9-axis total \(ours)° against VQF's \(theirs)°")
        }
        // The filter's uncertainty is calibrated: of all scored samples, 90–98 % within 2 σ (measured 96.8 %
        // for the heading, 96.8 % for the inclination).
        let scored = Double(trials.map(\.scores.scored).reduce(0, +))
        let heading = Double(trials.map(\.scores.headingWithinTwoSigma).reduce(0, +)) / scored
        let inclination = Double(trials.map(\.scores.inclinationWithinTwoSigma).reduce(0, +)) / scored
        #expect((0.90...0.98).contains(heading), "heading within 2 σ: \(heading)")
        #expect((0.90...0.98).contains(inclination), "inclination within 2 σ: \(inclination)")
        // No trial far worse than VQF's: the 9-axis total within 40 % (trial 08, fast rotation with breaks,
        // is 4.59° against 3.34°: the stricter disturbance threshold rejects some of its fields), the
        // inclination within 10 %.
        for (trial, scores) in trials {
            guard let reference = Self.vqf[String(trial.prefix(2))] else { continue }
            #expect(scores.nineAxisTotal <= 1.4 * reference.nineAxisTotal, "\(trial): 9-axis total \(scores.nineAxisTotal)° (VQF \(reference.nineAxisTotal)°)")
            #expect(scores.nineAxisInclination <= 1.1 * reference.nineAxisInclination, "\(trial): 9-axis inclination \(scores.nineAxisInclination)°")
            #expect(scores.sixAxisInclination <= 1.1 * reference.sixAxisInclination, "\(trial): 6-axis inclination \(scores.sixAxisInclination)°")
        }
    }
}
