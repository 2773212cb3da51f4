/// Acceleration along the three axes of the device, in g (1 g = 9.80665 m/s²).
///
/// Sign convention (Apple's): a device at rest lying face up reads `z = -1` g, i.e. the value is the
/// negated specific force divided by standard gravity.
public struct CMAcceleration: Sendable {
    /// Acceleration along the x-axis (towards the right edge of the screen), g.
    public var x: Double
    /// Acceleration along the y-axis (towards the top of the screen), g.
    public var y: Double
    /// Acceleration along the z-axis (out of the screen), g.
    public var z: Double

    /// Creates a zero acceleration.
    public init() {
        self.init(x: 0, y: 0, z: 0)
    }

    /// Creates an acceleration from its components.
    /// - Parameters:
    ///   - x: x component, g.
    ///   - y: y component, g.
    ///   - z: z component, g.
    public init(x: Double, y: Double, z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }
}
