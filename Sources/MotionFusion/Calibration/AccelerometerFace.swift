#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import MotionMath

/// One of the six orientations of a six-face accelerometer calibration: the board axis that points up
/// (and so reads +9.81 m/s² of specific force).
public enum AccelerometerFace: Int, Sendable, CaseIterable, CustomStringConvertible {
    /// +x up.
    case positiveX
    /// −x up.
    case negativeX
    /// +y up.
    case positiveY
    /// −y up.
    case negativeY
    /// +z up (a board lying face up).
    case positiveZ
    /// −z up (face down).
    case negativeZ

    /// Largest angle between the up axis and the measured specific force for a reading to count as this
    /// face: 25°. A board propped by hand against a wall or a box is easily within it.
    public static let toleranceDegrees = 25.0

    /// The unit vector of the up axis.
    public var axis: SIMD3<Double> {
        switch self {
        case .positiveX: SIMD3(1, 0, 0)
        case .negativeX: SIMD3(-1, 0, 0)
        case .positiveY: SIMD3(0, 1, 0)
        case .negativeY: SIMD3(0, -1, 0)
        case .positiveZ: SIMD3(0, 0, 1)
        case .negativeZ: SIMD3(0, 0, -1)
        }
    }

    /// The face a still reading shows, or nil if its specific force is more than ``toleranceDegrees`` from
    /// every axis.
    /// - Parameter specificForce: the mean specific force of a still period, m/s².
    public init?(specificForce: SIMD3<Double>) {
        let direction = specificForce.normalized
        let cosine = cos(Self.toleranceDegrees * .pi / 180)
        guard let face = Self.allCases.first(where: { $0.axis.dot(direction) >= cosine }) else { return nil }
        self = face
    }

    /// `+x up`, `-z up`, …
    public var description: String {
        switch self {
        case .positiveX: "+x up"
        case .negativeX: "-x up"
        case .positiveY: "+y up"
        case .negativeY: "-y up"
        case .positiveZ: "+z up"
        case .negativeZ: "-z up"
        }
    }
}
