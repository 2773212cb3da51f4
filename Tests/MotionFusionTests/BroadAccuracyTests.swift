import Foundation
import MotionFusion
import MotionHAL
import Testing

/// The filter's accuracy on all twelve BROAD trials, when the data set is present (`BROAD_DATA`, or a
/// developer's checkout beside `../shared/data/broad`; a user's clone has only the excerpt, tested in
/// `OrientationErrorTests`).
/// Fails when the mean regresses past the fusion issue's targets.
@Suite struct BroadAccuracyTests {
    /// `BROAD_DATA` if set, else `../shared/data/broad` beside the checkout.
    static let dataDirectory = ProcessInfo.processInfo.environment["BROAD_DATA"]
        ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../../shared/data/broad").standardizedFileURL.path
    static let hasData = FileManager.default.fileExists(atPath: dataDirectory + "/01_undisturbed_slow_rotation_A.csv")

    /// Mean over the trials of the 9-axis total and inclination RMSE and the 6-axis inclination RMSE, degrees.
    private func meanErrors() throws -> (nineAxisTotal: Double, nineAxisInclination: Double, sixAxisInclination: Double) {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.dataDirectory).filter { $0.hasSuffix(".csv") }.sorted()
        var sums = (0.0, 0.0, 0.0)
        for file in files {
            let recording = try IMURecording.load(contentsOf: Self.dataDirectory + "/" + file)
            var nine = FrameAttitudeEstimator(frame: .xMagneticNorthZVertical)
            var six = FrameAttitudeEstimator(frame: .xArbitraryZVertical)
            var nineErrors = OrientationErrorStatistics(), sixErrors = OrientationErrorStatistics()
            var previous: UInt64?
            for (index, sample) in recording.samples.enumerated() {
                let deltaTime = previous.map { Double(sample.timestamp - $0) / 1e9 } ?? 0
                previous = sample.timestamp
                nine.update(gyroscope: sample.rotationRate!, accelerometer: sample.acceleration, magnetometer: sample.magneticField, deltaTime: deltaTime)
                six.update(gyroscope: sample.rotationRate!, accelerometer: sample.acceleration, magnetometer: nil, deltaTime: deltaTime)
                guard recording.movement[index], let r = recording.referenceAttitudes[index] else { continue }
                let reference = Quaternion(w: r[0], x: r[1], y: r[2], z: r[3])
                nineErrors.add(OrientationError(estimate: nine.attitudeInEastNorthUp, reference: reference))
                sixErrors.add(OrientationError(estimate: six.attitudeInEastNorthUp, reference: reference))
            }
            sums.0 += nineErrors.totalRMSE
            sums.1 += nineErrors.inclinationRMSE
            sums.2 += sixErrors.inclinationRMSE
        }
        let count = Double(files.count)
        return (sums.0 / count, sums.1 / count, sums.2 / count)
    }

    @Test(.enabled(if: hasData, "needs ../shared/data/broad"), .timeLimit(.minutes(3)))
    func meanErrorsOnAllTrialsStayWithinTheTargets() throws {
        let errors = try meanErrors()
        // Measured 2.18°, 0.68°, 0.68° (VQF: 3.08°, 0.83°, 0.83°); the targets: < 2.8°, < 0.75°, < 0.75°.
        #expect(errors.nineAxisTotal < 2.8, "9-axis total \(errors.nineAxisTotal)°")
        #expect(errors.nineAxisInclination < 0.75, "9-axis inclination \(errors.nineAxisInclination)°")
        #expect(errors.sixAxisInclination < 0.75, "6-axis inclination \(errors.sixAxisInclination)°")
    }
}
