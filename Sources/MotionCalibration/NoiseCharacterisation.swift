import Foundation
import MotionHAL
import MotionMath

/// The noise of a still IMU (`motionctl calibrate --steps noise`): the Allan deviation of each gyroscope
/// and accelerometer axis over a still recording, the white-noise density and bias instability read from
/// each, and an SVG plot of the curves. Pure value.
public struct NoiseCharacterisation: Sendable {
    /// Why the samples cannot be characterised.
    public struct Failure: Error, CustomStringConvertible, Equatable {
        /// What is wrong, for the person.
        public let description: String
    }

    /// The shortest still recording that gives a usable curve, s.
    public static let minimumDuration = 10.0

    /// Allan deviation of the gyroscope's x, y and z axes (rad/s); empty without a gyroscope.
    public let gyroscope: [AllanDeviation]
    /// Allan deviation of the accelerometer's x, y and z axes (m/s²).
    public let accelerometer: [AllanDeviation]
    /// Length of the recording, s.
    public let duration: Double
    /// The median sample interval, s.
    public let samplePeriod: Double

    /// Characterises `samples`, taken at rest and in time order.
    /// - Throws: ``Failure`` for fewer than ``minimumDuration`` seconds, irregular or missing timestamps, or
    ///   no accelerometer readings.
    public init(samples: [IMUSample]) throws(Failure) {
        guard let first = samples.first, let last = samples.last, last.timestamp > first.timestamp else {
            throw Failure(description: "no still samples")
        }
        duration = Double(last.timestamp - first.timestamp) / 1e9
        guard duration >= Self.minimumDuration else {
            throw Failure(description: "the still recording lasts \(String(format: "%.1f", duration)) s; noise needs at least \(Int(Self.minimumDuration)) s")
        }
        var intervals = zip(samples.dropFirst(), samples).map { Double($0.timestamp &- $1.timestamp) / 1e9 }
        intervals.sort()
        samplePeriod = intervals[intervals.count / 2]
        guard samplePeriod > 0 else { throw Failure(description: "the samples' timestamps do not advance") }
        let forces = samples.compactMap(\.acceleration)
        guard forces.count == samples.count else { throw Failure(description: "some samples have no accelerometer reading") }
        let rates = samples.compactMap(\.rotationRate)
        let period = samplePeriod
        func curves(_ values: [SIMD3<Double>]) -> [AllanDeviation] {
            (0..<3).map { axis in AllanDeviation(samples: values.map { $0[axis] }, samplePeriod: period) }
        }
        accelerometer = curves(forces)
        gyroscope = rates.count == samples.count ? curves(rates) : []
    }

    /// The calibration file's noise part.
    public var noise: IMUCalibration.Noise {
        func figures(_ curves: [AllanDeviation]) -> IMUCalibration.Noise.Sensor? {
            guard curves.count == 3 else { return nil }
            func vector(_ value: (AllanDeviation) -> Double?) -> SIMD3<Double> {
                SIMD3(value(curves[0]) ?? 0, value(curves[1]) ?? 0, value(curves[2]) ?? 0)
            }
            return .init(noiseDensity: vector(\.randomWalkCoefficient), biasInstability: vector { $0.biasInstability?.value })
        }
        return IMUCalibration.Noise(gyroscope: figures(gyroscope), accelerometer: figures(accelerometer), duration: duration)
    }

    /// A log-log SVG plot of every axis's Allan deviation (one panel per sensor), with the −½ slope of the
    /// fitted white noise drawn through each x axis's curve.
    /// - Parameter title: the plot's heading.
    public func svg(title: String) -> String {
        var panels: [AllanDeviationPlot.Panel] = []
        if !gyroscope.isEmpty { panels.append(.init(title: "gyroscope, rad/s", curves: gyroscope)) }
        panels.append(.init(title: "accelerometer, m/s²", curves: accelerometer))
        return AllanDeviationPlot(title: title, panels: panels).svg
    }
}
