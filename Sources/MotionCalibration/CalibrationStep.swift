import Foundation

/// One part of the guided calibration, in the order they run.
public enum CalibrationStep: String, CaseIterable, Comparable {
    /// The sensors' noise (Allan deviation) from a long still period; only when asked for.
    case noise
    /// The gyroscope's bias from a still period.
    case gyro
    /// The accelerometer's offset and scale from the six faces.
    case accel
    /// The magnetometer's hard and soft iron from turning the board.
    case mag

    /// Parses `noise,gyro,accel,mag` (any subset, any order; run in the standard order).
    /// - Returns: nil naming nothing or something unknown.
    public static func parseList(_ text: String) -> [CalibrationStep]? {
        let names = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        let steps = names.compactMap(CalibrationStep.init(rawValue:))
        guard !steps.isEmpty, steps.count == names.count else { return nil }
        return Set(steps).sorted()
    }

    /// Orders the steps as they run.
    public static func < (lhs: CalibrationStep, rhs: CalibrationStep) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
