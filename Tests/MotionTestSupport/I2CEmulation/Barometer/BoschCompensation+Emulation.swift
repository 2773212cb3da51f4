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

/// What an emulated BME280 needs of its humidity trimming: the register bytes, the datasheet's
/// floating-point humidity formula (BST-BME280-DS002 §8.1, `bme280_compensate_H_double`) and its inverse,
/// written independently of the driver's integer formula and decoding.
extension BoschHumidityCompensation {
    /// Plausible trimming of a real chip (the datasheet gives no example): dig_H1 75, H2 362, H3 0, H4 313,
    /// H5 50, H6 30.
    public static let typical = BoschHumidityCompensation(h1: 75, h2: 362, h3: 0, h4: 313, h5: 50, h6: 30)

    /// calib26…calib32 (0xE1…0xE7): dig_H2 little-endian, dig_H3, then dig_H4 and dig_H5 packed in 12 bits
    /// each around the shared 0xE5 (H4's low nibble in its bits 3:0, H5's in bits 7:4), dig_H6. dig_H1 is
    /// 0xA1's byte, `h1`.
    public var registerBytes: [UInt8] {
        let h2 = UInt16(bitPattern: self.h2), h4 = UInt16(bitPattern: self.h4), h5 = UInt16(bitPattern: self.h5)
        return [
            UInt8(h2 & 0xFF), UInt8(h2 >> 8), h3, UInt8(truncatingIfNeeded: h4 >> 4),
            UInt8(h4 & 0x0F) | UInt8(h5 & 0x0F) << 4, UInt8(truncatingIfNeeded: h5 >> 4), UInt8(bitPattern: h6),
        ]
    }

    /// The datasheet's floating-point humidity before its clamping to 0…100, %RH.
    /// - Parameters:
    ///   - adc: the 16-bit raw humidity.
    ///   - fineTemperature: t_fine of the same conversion.
    public func floatingPointHumidity(adc: Double, fineTemperature: Double) -> Double {
        var h = fineTemperature - 76_800
        h = (adc - (Double(h4) * 64 + Double(h5) / 16384 * h))
            * (Double(h2) / 65536 * (1 + Double(h6) / 67_108_864 * h * (1 + Double(h3) / 67_108_864 * h)))
        return h * (1 - Double(h1) * h / 524_288)
    }

    /// The raw humidity (a real number in 0…65 535) whose compensated value is `percent`, by bisection
    /// (the formula rises with the raw value over the chip's range).
    public func humidityADC(for percent: Double, fineTemperature: Double) -> Double {
        var (low, high) = (0.0, 65_535.0)
        for _ in 0..<60 {
            let middle = (low + high) / 2
            if floatingPointHumidity(adc: middle, fineTemperature: fineTemperature) < percent { low = middle } else { high = middle }
        }
        return (low + high) / 2
    }
}
