/// A magnetic field along the three axes of the device, in microteslas (µT).
public struct CMMagneticField: Sendable {
    /// Field along the x-axis, µT.
    public var x: Double
    /// Field along the y-axis, µT.
    public var y: Double
    /// Field along the z-axis, µT.
    public var z: Double

    /// Creates a zero field.
    public init() {
        self.init(x: 0, y: 0, z: 0)
    }

    /// Creates a field from its components.
    /// - Parameters:
    ///   - x: x component, µT.
    ///   - y: y component, µT.
    ///   - z: z component, µT.
    public init(x: Double, y: Double, z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }
}
