import MotionHAL

/// The physical quantities an emulated chip measures: a function of time giving the true specific force
/// (m/s²), angular velocity (rad/s) and magnetic flux density (µT) in the chip's own axes. Emulated chips
/// quantise, scale and saturate these as the real chip would, so a driver test knows exactly what should
/// come out.
public struct EmulatedMotion: Sendable {
    /// The truth at a `CLOCK_MONOTONIC` time, ns; the sample's `timestamp` is ignored.
    public var truth: @Sendable (_ time: UInt64) -> IMUSample

    /// Creates a motion from a function of time.
    /// - Parameter truth: the true values at a time, ns.
    public init(truth: @escaping @Sendable (_ time: UInt64) -> IMUSample) {
        self.truth = truth
    }

    /// A chip lying still: constant readings.
    /// - Parameters:
    ///   - acceleration: specific force, m/s² (default face up: (0, 0, 9.80665)).
    ///   - rotationRate: angular velocity, rad/s (default 0).
    ///   - magneticField: flux density, µT (default 20 µT north along y, 40 µT down).
    public static func atRest(
        acceleration: SIMD3<Double> = SIMD3(0, 0, 9.80665), rotationRate: SIMD3<Double> = .zero,
        magneticField: SIMD3<Double> = SIMD3(0, 20, -40)
    ) -> EmulatedMotion {
        EmulatedMotion { time in
            IMUSample(timestamp: time, acceleration: acceleration, rotationRate: rotationRate, magneticField: magneticField)
        }
    }
}
