import MotionModel

/// The contract's names of the attitude reference frames: Apple's case names of `CMAttitudeReferenceFrame`
/// (``AttitudeReferenceFrame``'s raw values), as used in the configuration, in commands (`frame`) and in
/// statuses and health.
public enum ReferenceFrameName {
    /// The frame device motion uses unless configured otherwise: magnetic north, z vertical.
    public static let defaultFrame = AttitudeReferenceFrame.defaultFrame.rawValue

    /// Every name, in Apple's order.
    public static let all = AttitudeReferenceFrame.allCases.map(\.rawValue)
}
