import MotionMath
import Foundation
import MotionFusion
import MotionCommandLine
import MotionEngine
import MotionHAL

/// `motion-bench broad DIR`: the BROAD benchmark's error metric per trial and the mean, for the 6-axis
/// (`xArbitraryZVertical`) and 9-axis (`xMagneticNorthZVertical`, taken to East-North-Up) estimates; with
/// `--plots DIR`, an SVG plot of the errors over time per trial; and the 9-axis update time per sample.
/// Writes nothing unless asked to.
enum BroadBenchmark {
    static let usage = """
        usage: motion-bench broad DIR [--filter vqf] [--set NAME=VALUE,...] [--plots DIR] [--json]
               motion-bench broad DIR --cross-validate [--vqf FILE]
          DIR       a directory of BROAD trials as CSV (e.g. ../shared/data/broad)
          --filter  motionbridge (the default) or vqf: VQF as published (FusionReference, default
                    parameters, the recording's median sample time), which reports no uncertainty
          --set     attitude filter settings other than the defaults: AttitudeFilterSettings's property
                    names, values in its units (s, rad, rad/s, m/s², µT; true/false for
                    estimatesGyroscopeBias), e.g. magnetometerTimeConstant=9,gyroscopeScaleTimeConstant=0;
                    with --filter vqf, VQFReference.Parameters's names in VQF's units (s, °/s, degrees),
                    e.g. magneticNewMinimumRate=0
          --plots   write an SVG error plot per trial into this directory (created if missing)
          --json    print the figures as JSON
          --cross-validate
                    leave-one-trial-out cross-validation of the filter's tuning over a grid of settings:
                    each trial scored with the settings that did best on the others (runs on every core)
          --vqf FILE
                    with --cross-validate: VQF's column from what Benchmarks/broad/vqf_reference.py --json
                    printed
        """

    /// One trial's figures.
    struct TrialScore: Codable {
        let trial: String
        /// Samples scored (moving, with a reference).
        let scored: Int
        /// 6-axis RMSE, degrees.
        let sixAxis: Figures
        /// 9-axis RMSE, degrees.
        let nineAxis: Figures
        /// How well the 9-axis filter's own uncertainty describes its errors (nil for VQF, which has none).
        let uncertainty: UncertaintyCalibration?
    }

    /// The fraction of scored samples whose error lies within twice the filter's 1 σ, and the mean σ.
    struct UncertaintyCalibration: Codable {
        /// Scored samples with a heading error ≤ 2 σ, fraction.
        let headingWithinTwoSigma: Double
        /// Scored samples with an inclination error ≤ 2 σ, fraction.
        let inclinationWithinTwoSigma: Double
        /// Mean heading σ, degrees.
        let meanHeadingSigma: Double
        /// Mean inclination σ, degrees.
        let meanInclinationSigma: Double
        /// Scored samples (the weight of this trial in a mean over samples).
        let samples: Int

        init(errors: TrialErrors, uncertainties: [SIMD2<Double>]) {
            var heading = 0, inclination = 0, headingSigma = 0.0, inclinationSigma = 0.0
            for (index, sample) in errors.indices.enumerated() {
                let sigma = uncertainties[sample] * (180 / .pi)
                if errors.heading[index].y <= 2 * sigma.x { heading += 1 }
                if errors.inclination[index].y <= 2 * sigma.y { inclination += 1 }
                headingSigma += sigma.x
                inclinationSigma += sigma.y
            }
            let count = Double(max(errors.indices.count, 1))
            headingWithinTwoSigma = Double(heading) / count
            inclinationWithinTwoSigma = Double(inclination) / count
            meanHeadingSigma = headingSigma / count
            meanInclinationSigma = inclinationSigma / count
            samples = errors.indices.count
        }

        init(pooling trials: [UncertaintyCalibration]) {
            let total = Double(max(trials.map(\.samples).reduce(0, +), 1))
            func pooled(_ value: (UncertaintyCalibration) -> Double) -> Double {
                trials.map { value($0) * Double($0.samples) }.reduce(0, +) / total
            }
            headingWithinTwoSigma = pooled(\.headingWithinTwoSigma)
            inclinationWithinTwoSigma = pooled(\.inclinationWithinTwoSigma)
            meanHeadingSigma = pooled(\.meanHeadingSigma)
            meanInclinationSigma = pooled(\.meanInclinationSigma)
            samples = Int(total)
        }
    }

    /// RMS errors in degrees.
    struct Figures: Codable {
        let total: Double
        let heading: Double
        let inclination: Double

        init(_ statistics: OrientationErrorStatistics) {
            total = statistics.totalRMSE
            heading = statistics.headingRMSE
            inclination = statistics.inclinationRMSE
        }

        init(mean of: [Figures]) {
            let count = Double(max(of.count, 1))
            total = of.map(\.total).reduce(0, +) / count
            heading = of.map(\.heading).reduce(0, +) / count
            inclination = of.map(\.inclination).reduce(0, +) / count
        }
    }

    /// Everything the command prints.
    struct Report: Codable {
        let trials: [TrialScore]
        let meanSixAxis: Figures
        let meanNineAxis: Figures
        /// The uncertainty calibration over every scored sample of every trial (nil for VQF).
        let uncertainty: UncertaintyCalibration?
        /// 9-axis estimator update, ns per sample (best of 3 passes over all trials, one core; nil for VQF,
        /// whose time is its C++ core's, measured by Benchmarks/broad/run.sh).
        let nineAxisNanosecondsPerSample: Double?
        let samples: Int
    }

    /// Runs the command with the arguments after `broad` (already scanned).
    /// - Throws: ``BenchError`` for a directory without trials, a trial that cannot be read or a plot that
    ///   cannot be written; ``MotionCommandLine/CommandLineError`` for a usage error.
    static func run(_ options: ArgumentScanner) throws {
        guard options.positional.count == 1, let directory = options.positional.first else {
            throw CommandLineError("broad takes one directory")
        }
        let files = try trialFiles(in: directory)
        let plots = options["--plots"]
        if let plots {
            do {
                try FileManager.default.createDirectory(atPath: plots, withIntermediateDirectories: true)
            } catch {
                throw BenchError("cannot create \(plots): \(error.localizedDescription)")
            }
        }
        let reference: Bool
        switch options["--filter"] {
        case nil, "motionbridge": reference = false
        case "vqf": reference = true
        case let other?: throw CommandLineError("--filter takes motionbridge or vqf, not \(other)")
        }
        if reference, options.has("--cross-validate") { throw CommandLineError("--filter vqf excludes --cross-validate") }
        let settings = try reference ? AttitudeFilterSettings() : options["--set"].map(FilterSettingsOption.parse) ?? AttitudeFilterSettings()
        let parameters = try reference ? options["--set"].map(FilterSettingsOption.parseReference) ?? .init() : .init()
        if options.has("--cross-validate") {
            guard options["--set"] == nil else { throw CommandLineError("--set and --cross-validate exclude each other") }
            var vqf: [String: Double] = [:]
            if let path = options["--vqf"] {
                guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { throw BenchError("cannot read \(path)") }
                vqf = try BroadCrossValidation.vqfTotals(text)
            }
            let trials = try files.map { file in
                BroadTrial(name: (file as NSString).deletingPathExtension, recording: try load(file, in: directory))
            }
            print(BroadCrossValidation.run(trials, vqf: vqf))
            return
        }
        var recordings: [IMURecording] = []
        var scores: [TrialScore] = []
        for file in files {
            let recording = try load(file, in: directory)
            let trial = (file as NSString).deletingPathExtension
            let scored = BroadTrial(name: trial, recording: recording)
            let sixErrors: TrialErrors, nineErrors: TrialErrors, uncertainty: UncertaintyCalibration?
            if reference {
                let attitudes = BroadReferenceFilter.attitudes(recording, parameters: parameters)
                sixErrors = errors(attitudes.sixAxis, of: scored)
                nineErrors = errors(attitudes.nineAxis, of: scored)
                uncertainty = nil
            } else {
                let six = RecordingFusion(recording, frame: .xArbitraryZVertical, settings: settings)
                let nine = RecordingFusion(recording, frame: .xMagneticNorthZVertical, settings: settings)
                sixErrors = errors(six.attitudesInEastNorthUp, of: scored)
                nineErrors = errors(nine.attitudesInEastNorthUp, of: scored)
                uncertainty = UncertaintyCalibration(errors: nineErrors, uncertainties: nine.uncertainties)
            }
            scores.append(TrialScore(
                trial: trial, scored: nineErrors.statistics.count, sixAxis: Figures(sixErrors.statistics),
                nineAxis: Figures(nineErrors.statistics), uncertainty: uncertainty))
            if let plots {
                try writePlot(trial: trial, nine: nineErrors, six: sixErrors, into: plots)
            }
            recordings.append(recording)
        }
        let report = Report(
            trials: scores, meanSixAxis: Figures(mean: scores.map(\.sixAxis)),
            meanNineAxis: Figures(mean: scores.map(\.nineAxis)),
            uncertainty: reference ? nil : UncertaintyCalibration(pooling: scores.compactMap(\.uncertainty)),
            nineAxisNanosecondsPerSample: reference
                ? nil : nanosecondsPerUpdate(recordings, frame: .xMagneticNorthZVertical, settings: settings),
            samples: recordings.map(\.samples.count).reduce(0, +))
        if options.has("--json") {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: (try? encoder.encode(report)) ?? Data(), as: UTF8.self))
        } else {
            print(table(report, plots: plots))
        }
    }

    /// The names of the trials in `directory` (its `.csv` files), sorted.
    /// - Throws: ``BenchError`` when the directory cannot be read or holds no trial.
    static func trialFiles(in directory: String) throws -> [String] {
        let files: [String]
        do {
            files = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".csv") }.sorted()
        } catch {
            throw BenchError("cannot read \(directory): \(error.localizedDescription)")
        }
        guard !files.isEmpty else { throw BenchError("\(directory) holds no .csv trials") }
        return files
    }

    /// Reads one trial, which must have reference attitudes.
    static func load(_ file: String, in directory: String) throws -> IMURecording {
        let path = (directory as NSString).appendingPathComponent(file)
        let recording: IMURecording
        do {
            recording = try IMURecording.load(contentsOf: path)
        } catch {
            throw BenchError(error.description)
        }
        guard !recording.referenceAttitudes.isEmpty else { throw BenchError("\(path): no quat_* reference columns") }
        return recording
    }

    /// One trial's errors: statistics, and per-sample (time s, degrees) series.
    typealias TrialErrors = (
        statistics: OrientationErrorStatistics, indices: [Int], total: [SIMD2<Double>], heading: [SIMD2<Double>],
        inclination: [SIMD2<Double>]
    )

    /// Writes the SVG plot of one trial's errors over time to `directory/trial.svg`.
    private static func writePlot(
        trial: String, nine nineErrors: TrialErrors, six sixErrors: TrialErrors, into directory: String
    ) throws {
        let svg = ErrorPlot(
            title: "\(trial): orientation error (BROAD metric), degrees",
            series: [
                .init(name: "9-axis total", color: "#1f77b4", points: nineErrors.total),
                .init(name: "9-axis heading", color: "#ff7f0e", points: nineErrors.heading),
                .init(name: "9-axis inclination", color: "#2ca02c", points: nineErrors.inclination),
                .init(name: "6-axis inclination", color: "#d62728", points: sixErrors.inclination),
            ]
        ).svg
        let plotPath = (directory as NSString).appendingPathComponent("\(trial).svg")
        guard FileManager.default.createFile(atPath: plotPath, contents: Data(svg.utf8)) else {
            throw BenchError("cannot write \(plotPath)")
        }
    }

    /// Per-sample errors (degrees, with the trial time) on the scored samples, and their statistics.
    private static func errors(_ estimates: [Quaternion], of trial: BroadTrial) -> TrialErrors {
        var statistics = OrientationErrorStatistics()
        var indices: [Int] = [], total: [SIMD2<Double>] = [], heading: [SIMD2<Double>] = [], inclination: [SIMD2<Double>] = []
        let degrees = 180 / Double.pi
        for (index, reference) in trial.scored {
            let error = OrientationError(estimate: estimates[index], reference: reference)
            statistics.add(error)
            indices.append(index)
            let time = Double(trial.samples[index].timestamp) / 1e9
            total.append(SIMD2(time, error.total * degrees))
            heading.append(SIMD2(time, error.heading * degrees))
            inclination.append(SIMD2(time, error.inclination * degrees))
        }
        return (statistics, indices, total, heading, inclination)
    }

    /// The estimator's update time per sample, ns: best of three passes over every sample of every trial.
    private static func nanosecondsPerUpdate(
        _ recordings: [IMURecording], frame: AttitudeReferenceFrame, settings: AttitudeFilterSettings
    ) -> Double {
        let count = recordings.map(\.samples.count).reduce(0, +)
        guard count > 0 else { return .nan }
        var best = UInt64.max
        var checksum = 0.0
        for _ in 0..<3 {
            let start = MonotonicClock.now()
            for recording in recordings {
                var estimator = FrameAttitudeEstimator(frame: frame, settings: settings)
                var previous: UInt64?
                for sample in recording.samples { estimator.update(sample, previous: &previous) }
                checksum += estimator.attitude.w
            }
            best = min(best, MonotonicClock.now() - start)
        }
        // The checksum keeps the optimiser from dropping the loop.
        return Double(best) / Double(count) + (checksum.isNaN ? 1 : 0)
    }

    private static func calibration(_ figures: UncertaintyCalibration?) -> String {
        guard let figures else { return "        –        –       –       –" }
        return String(
            format: " %7.1f%% %7.1f%% %7.2f %7.2f", figures.headingWithinTwoSigma * 100, figures.inclinationWithinTwoSigma * 100,
            figures.meanHeadingSigma, figures.meanInclinationSigma)
    }

    private static func table(_ report: Report, plots: String?) -> String {
        func cell(_ value: Double) -> String { String(format: "%8.2f", value) }
        let name = max(report.trials.map(\.trial.count).max() ?? 5, 16)
        func padded(_ text: String) -> String { text.padding(toLength: name, withPad: " ", startingAt: 0) }
        var lines = [
            "BROAD metric (RMSE in degrees over moving samples; 9-axis in East-North-Up from magnetic north, no alignment)",
            "",
            padded("trial") + "  scored  6ax tot 6ax head 6ax incl  9ax tot 9ax head 9ax incl  head≤2σ  incl≤2σ  σ head  σ incl",
        ]
        for score in report.trials {
            lines.append(
                padded(score.trial) + String(format: " %7d", score.scored)
                    + [score.sixAxis.total, score.sixAxis.heading, score.sixAxis.inclination,
                       score.nineAxis.total, score.nineAxis.heading, score.nineAxis.inclination].map(cell).joined(separator: " ")
                    + calibration(score.uncertainty))
        }
        let mean = [report.meanSixAxis.total, report.meanSixAxis.heading, report.meanSixAxis.inclination,
                    report.meanNineAxis.total, report.meanNineAxis.heading, report.meanNineAxis.inclination]
        lines.append(padded("mean over trials") + "        " + mean.map(cell).joined(separator: " "))
        lines.append(padded("all scored samples") + String(repeating: " ", count: 62) + calibration(report.uncertainty))
        lines.append("(head≤2σ, incl≤2σ: scored samples whose 9-axis error is within twice the filter's own 1 σ; σ: its mean, degrees)")
        lines.append("")
        if let time = report.nineAxisNanosecondsPerSample {
            lines.append(String(
                format: "9-axis update: %.1f ns per sample (best of 3 passes over %d samples, one core)", time, report.samples))
        } else {
            lines.append("VQF (FusionReference) reports no uncertainty; its update time is its C++ core's (Benchmarks/broad/run.sh)")
        }
        if let plots { lines.append("error plots: \(plots)/<trial>.svg") }
        return lines.joined(separator: "\n")
    }
}
