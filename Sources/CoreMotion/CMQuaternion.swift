import MotionMath

/// A unit quaternion `w + x·i + y·j + z·k` representing an attitude (dimensionless components).
///
/// As returned by ``CMAttitude/quaternion`` it rotates device coordinates into reference-frame coordinates:
/// `v_reference = q ⊗ v_device ⊗ q*` (Hamilton convention).
public struct CMQuaternion: Sendable {
    /// First vector component, along i.
    public var x: Double
    /// Second vector component, along j.
    public var y: Double
    /// Third vector component, along k.
    public var z: Double
    /// Scalar component.
    public var w: Double

    /// Creates the zero quaternion (all components 0), as Apple's imported C struct does.
    public init() {
        self.init(x: 0, y: 0, z: 0, w: 0)
    }

    /// Creates a quaternion from its components.
    /// - Parameters:
    ///   - x: i component.
    ///   - y: j component.
    ///   - z: k component.
    ///   - w: scalar component.
    public init(x: Double, y: Double, z: Double, w: Double) {
        self.x = x
        self.y = y
        self.z = z
        self.w = w
    }
}

extension Quaternion {
    /// MotionMath's form of Apple's quaternion (same components, dimensionless).
    public init(_ quaternion: CMQuaternion) {
        self.init(w: quaternion.w, x: quaternion.x, y: quaternion.y, z: quaternion.z)
    }
}
