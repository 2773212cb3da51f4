import MotionHAL

/// What an emulated BMP280 / BME280 needs of the trimming parameters in its NVM: their register bytes, the
/// datasheet's floating-point compensation (BST-BMP280-DS001 §8.1, "compensation formula in double
/// precision floating point") and its inverse, written independently of the driver (which decodes the
/// bytes itself and uses the integer formulas), so that the raw values an emulated chip reports come from a
/// true pressure and temperature, and a test checks that the driver recovers the truth.
extension BoschCompensation {
    /// calib00…calib23 (0x88…0x9F): the twelve words, little-endian.
    public var registerBytes: [UInt8] {
        let words: [UInt16] = [t1, UInt16(bitPattern: t2), UInt16(bitPattern: t3), p1]
            + [p2, p3, p4, p5, p6, p7, p8, p9].map { UInt16(bitPattern: $0) }
        return words.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
    }

    /// The datasheet's floating-point temperature: °C, and t_fine (truncated to an integer as the datasheet's
    /// `(BMP280_S32_t)(var1 + var2)`).
    /// - Parameter adc: the 20-bit raw temperature.
    public func floatingPointTemperature(adc: Double) -> (celsius: Double, fineTemperature: Double) {
        let var1 = (adc / 16384 - Double(t1) / 1024) * Double(t2)
        let offset = adc / 131072 - Double(t1) / 8192
        let var2 = offset * offset * Double(t3)
        return ((var1 + var2) / 5120, (var1 + var2).rounded(.towardZero))
    }

    /// The datasheet's floating-point pressure, Pa.
    /// - Parameters:
    ///   - adc: the 20-bit raw pressure.
    ///   - fineTemperature: t_fine from ``floatingPointTemperature(adc:)``.
    public func floatingPointPressure(adc: Double, fineTemperature: Double) -> Double {
        var var1 = fineTemperature / 2 - 64000
        var var2 = var1 * var1 * Double(p6) / 32768
        var2 += var1 * Double(p5) * 2
        var2 = var2 / 4 + Double(p4) * 65536
        var1 = (Double(p3) * var1 * var1 / 524_288 + Double(p2) * var1) / 524_288
        var1 = (1 + var1 / 32768) * Double(p1)
        guard var1 != 0 else { return 0 }
        var p = 1_048_576 - adc
        p = (p - var2 / 4096) * 6250 / var1
        var1 = Double(p9) * p * p / 2_147_483_648
        var2 = p * Double(p8) / 32768
        return p + (var1 + var2 + Double(p7)) / 16
    }

    /// The raw temperature (a real number in 0…2²⁰) whose compensated value is `celsius`, by bisection (the
    /// formula rises with the raw value).
    public func temperatureADC(for celsius: Double) -> Double {
        Self.solve(increasing: true) { floatingPointTemperature(adc: $0).celsius - celsius }
    }

    /// The raw pressure (a real number in 0…2²⁰) whose compensated value at `fineTemperature` is `pascal`,
    /// by bisection (the formula falls as the raw value rises).
    public func pressureADC(for pascal: Double, fineTemperature: Double) -> Double {
        Self.solve(increasing: false) { floatingPointPressure(adc: $0, fineTemperature: fineTemperature) - pascal }
    }

    /// The root of a monotonic `function` on 0…2²⁰.
    private static func solve(increasing: Bool, _ function: (Double) -> Double) -> Double {
        var (low, high) = (0.0, 1_048_575.0)
        for _ in 0..<80 {
            let middle = (low + high) / 2
            if (function(middle) < 0) == increasing { low = middle } else { high = middle }
        }
        return (low + high) / 2
    }
}
