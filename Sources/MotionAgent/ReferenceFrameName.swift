import MotionFusion

/// Apple's case names of `CMAttitudeReferenceFrame` (the raw values of ``AttitudeReferenceFrame``), as used in
/// configuration, commands and payloads.
public enum ReferenceFrameName {
    /// The frame device motion uses unless configured otherwise: magnetic north, z vertical.
    public static let defaultFrame = "xMagneticNorthZVertical"

    /// Every name, in Apple's order.
    public static let all: [(name: String, frame: AttitudeReferenceFrame)] = AttitudeReferenceFrame.allCases.map {
        ($0.rawValue, $0)
    }

    /// The frame named `name`, or `nil` for an unknown name.
    public static func frame(named name: String) -> AttitudeReferenceFrame? {
        all.first { $0.name == name }?.frame
    }

    /// The names of `frames`.
    public static func names(of frames: some Sequence<AttitudeReferenceFrame>) -> Set<String> {
        Set(frames.map(\.rawValue))
    }
}
