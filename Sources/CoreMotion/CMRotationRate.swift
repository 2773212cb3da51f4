/// The rotation rate of the device about its three axes, in radians per second.
///
/// Right-handed: a positive value is a counter-clockwise rotation when looking down the axis towards the
/// origin.
public struct CMRotationRate: Sendable {
    /// Rotation rate about the x-axis, rad/s.
    public var x: Double
    /// Rotation rate about the y-axis, rad/s.
    public var y: Double
    /// Rotation rate about the z-axis, rad/s.
    public var z: Double

    /// Creates a zero rotation rate.
    public init() {
        self.init(x: 0, y: 0, z: 0)
    }

    /// Creates a rotation rate from its components.
    /// - Parameters:
    ///   - x: rate about the x-axis, rad/s.
    ///   - y: rate about the y-axis, rad/s.
    ///   - z: rate about the z-axis, rad/s.
    public init(x: Double, y: Double, z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }
}
