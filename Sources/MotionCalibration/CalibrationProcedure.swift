import MotionMath
import Foundation
import MotionFusion
import MotionHAL

/// The guided calibration (`motionctl calibrate`), a state machine driven by the samples alone (their timestamps are the
/// clock, so a recording replayed as fast as possible gives the same result as the live board): tells the
/// person what to do, detects when it is done, and fits.
///
/// - noise: "keep the board still"; the first still period of `noiseDuration` gives the Allan deviation of
///   every gyroscope and accelerometer axis (``NoiseCharacterisation``).
/// - gyro: "keep the board still"; the first still period of ``gyroscopeStillDuration`` gives the bias.
/// - accel: "put the board on each of its six faces"; each new still period of ``faceStillDuration`` with an
///   axis within 25° of vertical counts as that face; it says which faces are still missing.
/// - mag: "turn the board slowly through every orientation"; shows the sphere coverage of the readings
///   (centred on the midpoint of each axis's extremes) until it reaches ``magnetometerCoverageTarget``, then
///   fits the ellipsoid.
///
/// Each step may take at most `secondsPerStep` of sample time; a magnetometer step that runs out with at
/// least half the sphere covered is fitted anyway (its grade shows the cost), anything else fails.
public struct CalibrationProcedure {
    /// Still time for the gyroscope bias, s.
    public static let gyroscopeStillDuration = 3.0
    /// Still time on each face, s.
    public static let faceStillDuration = 1.5
    /// Coverage at which the magnetometer step ends by itself (a margin above the 75 % a `high` grade needs,
    /// since the final coverage is measured around the fitted centre).
    public static let magnetometerCoverageTarget = 0.85
    /// How often the magnetometer coverage is recomputed and shown, s of sample time.
    public static let coverageInterval = 0.5

    /// Why the procedure could not finish.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong, for the person.
        public let description: String

        /// Creates a failure.
        public init(description: String) { self.description = description }
    }

    /// The steps to run, in order.
    public let steps: [CalibrationStep]
    /// The longest a step may take, s of sample time.
    public let secondsPerStep: Double
    /// How long the noise step records the board still, s.
    public let noiseDuration: Double
    /// Where the instructions and progress go (standard output for motionctl).
    let say: (String) -> Void

    /// The gyroscope step's result, once done.
    public private(set) var gyroscope: GyroscopeBiasCalibration?
    /// The accelerometer step's result, once done.
    public private(set) var accelerometer: AccelerometerCalibration?
    /// The magnetometer step's result, once done.
    public private(set) var magnetometer: MagnetometerCalibration?
    /// The noise step's result, once done.
    public private(set) var noise: NoiseCharacterisation?

    private var stepIndex = 0
    private var stepStart: UInt64?
    private var detector: StillPeriodDetector
    private var faces: [AccelerometerFace: SIMD3<Double>] = [:]
    private var lastAnnouncedFace: AccelerometerFace?
    private var magneticReadings: [SIMD3<Double>] = []
    private var lowestField = SIMD3(repeating: Double.infinity)
    private var highestField = SIMD3(repeating: -Double.infinity)
    private var nextCoverageCheck: UInt64 = 0
    private var lastShownCoverage = -1

    /// Creates the procedure and announces the first step.
    /// - Parameters:
    ///   - steps: the steps, in their standard order.
    ///   - secondsPerStep: the longest a step may take, s of sample time.
    ///   - noiseDuration: how long the noise step records the board still, s (default 60; at least
    ///     ``NoiseCharacterisation/minimumDuration``; it must fit in `secondsPerStep`).
    ///   - say: where instructions and progress go.
    public init(steps: [CalibrationStep], secondsPerStep: Double, noiseDuration: Double = 60, say: @escaping (String) -> Void) {
        self.steps = steps
        self.secondsPerStep = secondsPerStep
        self.noiseDuration = noiseDuration
        self.say = say
        detector = StillPeriodDetector(
            thresholds: StillnessThresholds(), requiredDuration: Self.stillDuration(for: steps.first, noise: noiseDuration))
        announce()
    }

    /// Whether every step is done.
    public var isFinished: Bool { stepIndex == steps.count }

    /// The step running now (nil when finished).
    public var currentStep: CalibrationStep? { isFinished ? nil : steps[stepIndex] }

    /// Feeds one sample to the running step.
    /// - Throws: ``Failure`` when a step runs out of time or its fit fails.
    public mutating func add(_ sample: IMUSample) throws(Failure) {
        guard let step = currentStep else { return }
        let start = stepStart ?? sample.timestamp
        stepStart = start
        let elapsed = Double(sample.timestamp - start) / 1e9
        switch step {
        case .noise: try addNoise(sample)
        case .gyro: try addGyroscope(sample)
        case .accel: try addAccelerometer(sample)
        case .mag: try addMagnetometer(sample)
        }
        if currentStep == step, elapsed > secondsPerStep { try timeOut(step) }
    }

    /// What is still missing, for the message when the samples end early.
    public var progress: String {
        switch currentStep {
        case .noise: "the board was never still for \(Self.format(noiseDuration)) s (still for \(Self.format(detector.stillDuration)) s at most recently)"
        case .gyro: "the board was never still for \(Self.format(Self.gyroscopeStillDuration)) s"
        case .accel: "still missing: \(missingFaces.map(\.description).joined(separator: ", "))"
        case .mag: "the magnetometer readings covered \(Int(currentCoverage * 100)) % of the sphere"
        case nil: "done"
        }
    }

    /// The calibration file's content of what was fitted (the steps not run are left out).
    /// - Parameters:
    ///   - device: which device it was made on, for people.
    ///   - created: when.
    public func calibration(device: String, created: Date) -> IMUCalibration {
        IMUCalibration(
            created: created, device: device,
            gyroscope: gyroscope.map { IMUCalibration.Gyroscope(bias: $0.bias) },
            accelerometer: accelerometer.map {
                IMUCalibration.Accelerometer(offset: $0.offset, scale: $0.scale, residual: $0.residualRMS)
            },
            magnetometer: magnetometer.map {
                IMUCalibration.Magnetometer(
                    hardIron: $0.hardIron, softIron: $0.softIron, fieldStrength: $0.fieldStrength, residual: $0.residualRMS,
                    coverage: $0.coverage, quality: IMUCalibration.Quality(rawValue: $0.quality.rawValue) ?? .low)
            },
            noise: noise?.noise)
    }

    // MARK: - Steps

    private mutating func addNoise(_ sample: IMUSample) throws(Failure) {
        guard let still = detector.add(sample) else { return }
        do {
            let characterisation = try NoiseCharacterisation(samples: still)
            noise = characterisation
            say("  noise recorded over \(Self.format(characterisation.duration)) s of stillness (\(still.count) samples)")
        } catch {
            throw Failure(description: "noise: \(error)")
        }
        advance()
    }

    private mutating func addGyroscope(_ sample: IMUSample) throws(Failure) {
        guard let still = detector.add(sample) else { return }
        do {
            let bias = try GyroscopeBiasCalibration(
                rotationRates: still.compactMap(\.rotationRate), specificForces: still.compactMap(\.acceleration))
            gyroscope = bias
            say("  gyroscope bias measured over \(Self.format(still.timeSpan)) s of stillness (\(bias.sampleCount) samples)")
        } catch {
            throw Failure(description: "gyroscope: \(error)")
        }
        advance()
    }

    private mutating func addAccelerometer(_ sample: IMUSample) throws(Failure) {
        guard let still = detector.add(sample) else { return }
        let mean = VectorStatistics(still.compactMap(\.acceleration)).mean
        guard let face = AccelerometerFace(specificForce: mean) else {
            say("  still, but no axis is vertical: rest the board flat on one of its faces")
            return
        }
        if faces[face] != nil {
            if lastAnnouncedFace != face { say("  \(face) is done already; still missing: \(missingFaceList)") }
            lastAnnouncedFace = face
            return
        }
        faces[face] = mean
        lastAnnouncedFace = face
        say("  \(face): " + String(format: "%.3f m/s²", mean.length)
            + (missingFaces.isEmpty ? "" : "; still missing: \(missingFaceList)"))
        guard missingFaces.isEmpty else { return }
        do {
            accelerometer = try AccelerometerCalibration(orientations: AccelerometerFace.allCases.compactMap { faces[$0] })
        } catch {
            throw Failure(description: "accelerometer: \(error)")
        }
        advance()
    }

    private mutating func addMagnetometer(_ sample: IMUSample) throws(Failure) {
        guard let field = sample.magneticField else { return }
        magneticReadings.append(field)
        lowestField = pointwiseMin(lowestField, field)
        highestField = pointwiseMax(highestField, field)
        guard sample.timestamp >= nextCoverageCheck else { return }
        nextCoverageCheck = sample.timestamp + UInt64(Self.coverageInterval * 1e9)
        let coverage = currentCoverage
        let percent = Int(coverage * 100)
        if percent != lastShownCoverage {
            say("  coverage \(percent) % (\(Int(Self.magnetometerCoverageTarget * 100)) % needed)")
            lastShownCoverage = percent
        }
        if coverage >= Self.magnetometerCoverageTarget, magneticReadings.count >= MagnetometerCalibration.minimumSampleCount {
            try fitMagnetometer()
        }
    }

    private mutating func fitMagnetometer() throws(Failure) {
        do {
            magnetometer = try MagnetometerCalibration(readings: magneticReadings)
        } catch {
            throw Failure(description: "magnetometer: \(error)")
        }
        advance()
    }

    private mutating func timeOut(_ step: CalibrationStep) throws(Failure) {
        if step == .mag, currentCoverage >= MagnetometerCalibrationQuality.mediumCoverageLimit {
            say("  time is up: fitting with \(Int(currentCoverage * 100)) % coverage")
            try fitMagnetometer()
            return
        }
        throw Failure(description: "step \(step.rawValue) did not finish within \(Self.format(secondsPerStep)) s: \(progress)")
    }

    // MARK: - Helpers

    private mutating func advance() {
        stepIndex += 1
        stepStart = nil
        detector = StillPeriodDetector(
            thresholds: StillnessThresholds(), requiredDuration: Self.stillDuration(for: currentStep, noise: noiseDuration))
        announce()
    }

    /// How long the board must be still for `step`: the noise longest, the gyroscope's bias longer than a face.
    private static func stillDuration(for step: CalibrationStep?, noise: Double) -> Double {
        switch step {
        case .noise: noise
        case .gyro: gyroscopeStillDuration
        default: faceStillDuration
        }
    }

    private func announce() {
        switch currentStep {
        case .noise:
            say("Noise: keep the board still (on a table, nothing running nearby) for \(Self.format(noiseDuration)) s…")
        case .gyro:
            say("Gyroscope: keep the board still (on a table) for \(Self.format(Self.gyroscopeStillDuration)) s…")
        case .accel:
            say("Accelerometer: rest the board on each of its six faces in turn, \(Self.format(Self.faceStillDuration)) s each (any order)…")
            say("  still missing: \(missingFaceList)")
        case .mag:
            say("Magnetometer: turn the board slowly through every orientation, away from metal and magnets…")
        case nil:
            break
        }
    }

    private var missingFaces: [AccelerometerFace] {
        AccelerometerFace.allCases.filter { faces[$0] == nil }
    }

    private var missingFaceList: String {
        missingFaces.map(\.description).joined(separator: ", ")
    }

    /// Coverage of the magnetometer readings around the midpoint of each axis's extremes.
    private var currentCoverage: Double {
        guard !magneticReadings.isEmpty else { return 0 }
        let centre = (lowestField + highestField) / 2
        return SphereCoverage(magneticReadings.map { $0 - centre }).fraction
    }

    /// Seconds with at most one decimal.
    private static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(format: "%.1f", seconds)
    }
}
