import CoreMotion

/// Apple's case names of `CMAttitudeReferenceFrame`, as used in configuration, commands and payloads.
public enum ReferenceFrameName {
    /// The frame device motion uses unless configured otherwise: magnetic north, z vertical.
    public static let defaultFrame = "xMagneticNorthZVertical"

    /// Every name, in Apple's order.
    public static let all: [(name: String, frame: CMAttitudeReferenceFrame)] = [
        ("xArbitraryZVertical", .xArbitraryZVertical),
        ("xArbitraryCorrectedZVertical", .xArbitraryCorrectedZVertical),
        ("xMagneticNorthZVertical", .xMagneticNorthZVertical),
        ("xTrueNorthZVertical", .xTrueNorthZVertical),
    ]

    /// The frame named `name`, or `nil` for an unknown name.
    public static func frame(named name: String) -> CMAttitudeReferenceFrame? {
        all.first { $0.name == name }?.frame
    }

    /// The names of the frames in the set `frames`, such as `availableAttitudeReferenceFrames()`.
    public static func names(in frames: CMAttitudeReferenceFrame) -> Set<String> {
        Set(all.filter { frames.contains($0.frame) }.map(\.name))
    }

    /// The name of `frame`, or `nil` when it is not exactly one of the four frames.
    public static func name(of frame: CMAttitudeReferenceFrame) -> String? {
        all.first { $0.frame == frame }?.name
    }
}
