import MotionModel

/// The device's orientation from gravity, with hysteresis: face up, face down, portrait (top edge up),
/// portrait upside down, landscape left (top edge to the left, so the right edge up) and landscape right
/// (top edge to the right), as Apple's `UIDeviceOrientation` names them. The axis closest to vertical decides; the orientation changes
/// only once another axis is closer to vertical by more than ``hysteresis`` (so a device held at 45°
/// does not flicker). Pure value; gravity in g, device axes (Apple's: x right, y top, z out of the screen).
public struct DeviceOrientationDetector: Sendable {
    /// An orientation (the model's ``DeviceOrientation``).
    public typealias Orientation = DeviceOrientation

    /// How much closer to vertical (in cosine of the angle) another orientation must be to take over.
    /// Default 0.2 (about 12° around 45°).
    public let hysteresis: Double

    /// The orientation now; nil before the first usable sample.
    public private(set) var orientation: Orientation?

    /// Creates a detector.
    /// - Parameter hysteresis: see ``hysteresis``.
    public init(hysteresis: Double = OrientationSettings().hysteresis) {
        self.hysteresis = hysteresis
    }

    /// Feeds one sample's gravity.
    /// - Parameter gravity: device axes, g (any length > 0).
    /// - Returns: the new orientation when it changed.
    public mutating func update(gravity: SIMD3<Double>) -> Orientation? {
        let length = (gravity * gravity).sum().squareRoot()
        guard length > 0, length.isFinite else { return nil }
        let direction = gravity / length
        func alignment(_ candidate: Orientation) -> Double { (candidate.gravity * direction).sum() }
        let best = Orientation.allCases.max { alignment($0) < alignment($1) }!
        if let current = orientation, best == current || alignment(best) < alignment(current) + hysteresis { return nil }
        orientation = best
        return best
    }
}

extension DeviceOrientation {
    /// The unit gravity vector of the exact orientation, device axes, g.
    var gravity: SIMD3<Double> {
        switch self {
        case .faceUp: SIMD3(0, 0, -1)
        case .faceDown: SIMD3(0, 0, 1)
        case .portrait: SIMD3(0, -1, 0)
        case .portraitUpsideDown: SIMD3(0, 1, 0)
        case .landscapeLeft: SIMD3(-1, 0, 0)
        case .landscapeRight: SIMD3(1, 0, 0)
        }
    }
}
