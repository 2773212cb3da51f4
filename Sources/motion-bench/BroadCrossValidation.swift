import Dispatch
import Foundation
import MotionEngine
import MotionFusion
import MotionHAL
import MotionMath
import Synchronization

/// `motion-bench broad DIR --cross-validate`: how the attitude filter's tuning does on trials it was not
/// tuned on. Every candidate setting of a small grid of physically meaningful parameters (how long linear
/// accelerations last, how long the gyroscope is trusted for the heading, how large and how lasting a
/// magnetic disturbance is expected) runs the 9-axis filter over every trial; then, leaving each trial out
/// in turn, the candidate with the lowest mean 9-axis total error on the other trials is scored on the one
/// left out. The table shows that held-out score per trial and per group beside the default settings'
/// ("default"; the grid's choice on all the trials is printed below it) and, with `--vqf FILE`, VQF's.
enum BroadCrossValidation {
    /// The candidate grid: one axis per physical setting.
    struct Candidate: Sendable {
        /// Specific-force low-pass, s (``AttitudeFilter/Settings/accelerometerTimeConstant``).
        let accelerometerTimeConstant: Double
        /// Heading correction, s (``AttitudeFilter/Settings/magnetometerTimeConstant``).
        let magnetometerTimeConstant: Double
        /// Expected disturbance: relative norm deviation; the dip threshold is 100° times it (0.1 → 10°).
        let disturbance: Double
        /// How long a steady different field must last to be adopted, s.
        let newReferenceTime: Double

        /// The 9-axis settings.
        var settings: AttitudeFilter.Settings {
            AttitudeFilter.Settings(
                useMagnetometer: true, accelerometerTimeConstant: accelerometerTimeConstant,
                magnetometerTimeConstant: magnetometerTimeConstant, magneticNormThreshold: disturbance,
                magneticDipThreshold: disturbance * 100 * .pi / 180, magneticNewReferenceTime: newReferenceTime)
        }

        var label: String {
            "τa \(format(accelerometerTimeConstant)) s, τm \(format(magnetometerTimeConstant)) s, "
                + "disturbance \(format(disturbance * 100)) %, new field \(format(newReferenceTime)) s"
        }

        private func format(_ value: Double) -> String { String(format: "%g", value) }

        /// The accelerometer's time constants, s: chosen first, on the 6-axis inclination they govern.
        static let accelerometerTimeConstants: [Double] = [1.5, 2, 3, 4.5]

        /// The magnetometer's settings for one accelerometer time constant: chosen second, on the 9-axis total.
        static func grid(accelerometerTimeConstant: Double) -> [Candidate] {
            [8, 15, 30].flatMap { magnetometer in
                [0.025, 0.05, 0.1, 0.2].flatMap { disturbance in
                    [5, 10, 20, 40].map { newReference in
                        Candidate(
                            accelerometerTimeConstant: accelerometerTimeConstant, magnetometerTimeConstant: magnetometer,
                            disturbance: disturbance, newReferenceTime: newReference)
                    }
                }
            }
        }
    }

    /// The BROAD trial groups the issue reports by, from the trial's name (`NN_undisturbed_slow_rotation_A`).
    static func group(of trial: String) -> String {
        if trial.contains("attached_magnet") { return "attached magnet" }
        if trial.contains("stationary_magnet") { return "stationary magnet" }
        if trial.contains("tapping") || trial.contains("vibration") { return "tapping and vibration" }
        if trial.contains("translation") || trial.contains("combined") { return "translation and combined" }
        if trial.contains("rotation") { return "undisturbed rotation" }
        return "other"
    }

    static let groupOrder = [
        "undisturbed rotation", "translation and combined", "tapping and vibration", "stationary magnet",
        "attached magnet", "other",
    ]

    /// `jobs` × `trials` statistics, computed on every core.
    private static func scores(
        of jobs: Int, _ trials: [BroadTrial], _ score: @Sendable (Int, BroadTrial) -> OrientationErrorStatistics
    ) -> [[OrientationErrorStatistics]] {
        let results = Mutex([[OrientationErrorStatistics]](
            repeating: Array(repeating: OrientationErrorStatistics(), count: trials.count), count: jobs))
        DispatchQueue.concurrentPerform(iterations: jobs * trials.count) { job in
            let (candidate, trial) = job.quotientAndRemainder(dividingBy: trials.count)
            let statistics = score(candidate, trials[trial])
            results.withLock { $0[candidate][trial] = statistics }
        }
        return results.withLock { $0 }
    }

    /// One held-out trial: the accelerometer time constant and the 9-axis candidate chosen on the others.
    private struct Choice {
        let heldOut: Int
        let candidate: Candidate
        let statistics: OrientationErrorStatistics
        let sixAxisInclination: Double
    }

    /// Runs the two-stage cross-validation over `trials` (on every core) and prints the table.
    /// - Parameter vqf: VQF's 9-axis total per trial (``vqfTotals(_:)``), for its column.
    static func run(_ trials: [BroadTrial], vqf: [String: Double]) -> String {
        let constants = Candidate.accelerometerTimeConstants
        let sixAxis = scores(of: constants.count, trials) { index, trial in
            trial.score(AttitudeFilter.Settings(accelerometerTimeConstant: constants[index]), frame: .xArbitraryZVertical)
        }
        let accelerometerValidation = LeaveOneOutCrossValidation(scores: sixAxis.map { $0.map(\.inclinationRMSE) })
        let grids = constants.map { Candidate.grid(accelerometerTimeConstant: $0) }
        let nineAxis = grids.map { grid in scores(of: grid.count, trials) { index, trial in trial.score(grid[index].settings) } }
        let magneticValidations = nineAxis.map { table in LeaveOneOutCrossValidation(scores: table.map { $0.map(\.totalRMSE) }) }
        let choices = accelerometerValidation.folds.map { fold in
            let magnetic = magneticValidations[fold.chosen].folds[fold.heldOut]
            return Choice(
                heldOut: fold.heldOut, candidate: grids[fold.chosen][magnetic.chosen],
                statistics: nineAxis[fold.chosen][magnetic.chosen][fold.heldOut], sixAxisInclination: fold.score)
        }
        let defaults = trials.map { $0.score(AttitudeFilter.Settings(useMagnetometer: true)) }
        let fittedAccelerometer = accelerometerValidation.fitted
        let fittedTable = nineAxis[fittedAccelerometer]
        var lines = report(trials: trials, choices: choices, defaults: defaults, vqf: vqf)
        lines.append("")
        lines.append("fitted on all \(trials.count) trials: \(grids[fittedAccelerometer][magneticValidations[fittedAccelerometer].fitted].label)")
        // How flat the optimum is.
        let sixMeans = sixAxis.map { $0.map(\.inclinationRMSE).reduce(0, +) / Double(trials.count) }
        lines.append("6-axis inclination on all trials by accelerometer τ: "
            + zip(constants, sixMeans).map { String(format: "%g s %.3f°", $0, $1) }.joined(separator: ", "))
        let means = fittedTable.map { row in row.map(\.totalRMSE).reduce(0, +) / Double(row.count) }
        lines.append("best magnetometer settings at that τ on all trials (mean 9-axis total):")
        for candidate in means.indices.sorted(by: { means[$0] < means[$1] }).prefix(6) {
            lines.append(String(format: "  %5.2f  ", means[candidate]) + grids[fittedAccelerometer][candidate].label)
        }
        return lines.joined(separator: "\n")
    }

    private static func report(
        trials: [BroadTrial], choices: [Choice], defaults: [OrientationErrorStatistics], vqf: [String: Double]
    ) -> [String] {
        func cell(_ value: Double?) -> String { value.map { String(format: "%7.2f", $0) } ?? "      –" }
        let width = max(trials.map(\.name.count).max() ?? 5, 26)
        func padded(_ text: String) -> String { text.padding(toLength: width, withPad: " ", startingAt: 0) }
        let candidates = Candidate.accelerometerTimeConstants.count * Candidate.grid(accelerometerTimeConstant: 1).count
        var lines = [
            "Leave-one-trial-out cross-validation (BROAD metric, RMSE in degrees over moving samples): each trial",
            "scored with the settings chosen on the other \(trials.count - 1): the accelerometer τ on their 6-axis inclination,",
            "then the magnetometer τ, expected disturbance and new-field time on their 9-axis total (\(candidates) candidates)",
            "",
            padded("trial") + "  CV tot CV head CV incl 6ax inc default    VQF  chosen on the others",
        ]
        for choice in choices {
            let name = trials[choice.heldOut].name
            lines.append(
                padded(name) + " " + [choice.statistics.totalRMSE, choice.statistics.headingRMSE,
                    choice.statistics.inclinationRMSE, choice.sixAxisInclination, defaults[choice.heldOut].totalRMSE,
                    vqf[name]].map(cell).joined(separator: " ") + "  " + choice.candidate.label)
        }
        lines.append("")
        lines.append(padded("group (mean of its trials)") + "  CV tot CV head CV incl 6ax inc default    VQF")
        let groups = Dictionary(grouping: choices, by: { group(of: trials[$0.heldOut].name) })
        for (name, members) in groupOrder.map({ ($0, groups[$0] ?? []) }) + [("all trials", choices)] {
            guard !members.isEmpty else { continue }
            func mean(_ value: (Choice) -> Double?) -> Double? {
                let values = members.compactMap(value)
                return values.count == members.count ? values.reduce(0, +) / Double(values.count) : nil
            }
            lines.append(padded(name) + " " + [
                mean { $0.statistics.totalRMSE }, mean { $0.statistics.headingRMSE }, mean { $0.statistics.inclinationRMSE },
                mean(\.sixAxisInclination), mean { defaults[$0.heldOut].totalRMSE }, mean { vqf[trials[$0.heldOut].name] },
            ].map(cell).joined(separator: " "))
        }
        lines.append("(default: the default settings, whose disturbance rule is VQF's, not the grid's choice on these trials)")
        return lines
    }

    /// VQF's 9-axis total per trial from `vqf_reference.py --json`'s output (text before the JSON is skipped).
    static func vqfTotals(_ text: String) throws -> [String: Double] {
        guard let start = text.firstIndex(of: "{"),
            let document = try? JSONSerialization.jsonObject(with: Data(text[start...].utf8)) as? [String: Any],
            let trials = document["trials"] as? [[String: Any]]
        else { throw BenchError("--vqf: not the JSON vqf_reference.py --json prints") }
        var totals: [String: Double] = [:]
        for trial in trials {
            if let name = trial["trial"] as? String, let nine = trial["9"] as? [String: Any], let total = nine["total"] as? Double {
                totals[name] = total
            }
        }
        return totals
    }
}
