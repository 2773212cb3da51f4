/// A step's length from the cadence, for the pedometer's distance when the wearer's height is not known:
/// `0.5 m·s × cadence − 0.2 m`, within 0.3…2 m. Walkers at 1.8 steps/s take about 0.7 m steps, runners at
/// 2.8 about 1.2 m (people lengthen their steps as they speed up); an individual's can differ by 15 %, and
/// on stairs the horizontal distance is overstated (about 0.3 m a step). Pure function; m, steps/s.
public enum StrideLength {
    /// The estimated step length, m.
    /// - Parameter cadence: steps/s; nil (a first step) counts as 1.8.
    public static func estimate(cadence: Double?) -> Double {
        min(max(0.5 * (cadence ?? 1.8) - 0.2, 0.3), 2)
    }

    /// The pace at a cadence, s/m: the time a metre takes with steps of ``estimate(cadence:)``.
    /// - Parameter cadence: steps/s, greater than 0.
    public static func pace(cadence: Double) -> Double {
        1 / (cadence * estimate(cadence: cadence))
    }
}
