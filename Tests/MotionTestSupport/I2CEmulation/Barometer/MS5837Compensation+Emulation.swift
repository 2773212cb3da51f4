import MotionHAL

/// What an emulated MS5837 needs of its calibration: its PROM words and the datasheets' compensation in
/// real numbers with its inverse, written independently of the driver's integer code (which rounds every
/// division down), so that the raw values an emulated chip reports come from a true pressure and
/// temperature and a test checks that the driver recovers the truth.
extension MS5837Compensation {
    /// PROM words 0…6 of a chip with this calibration: word 0 holds `version` in bits 11…5, `factory`
    /// in bits 4…0 and the CRC-4 of all seven in bits 15…12; words 1…6 are C1…C6.
    /// - Parameters:
    ///   - version: the version field (default the variant's first).
    ///   - factory: the factory-defined bits 4…0.
    public func promWords(version: UInt8? = nil, factory: UInt8 = 0) -> [UInt16] {
        let word0 = UInt16(version ?? variant.versions[0]) << 5 | UInt16(factory & 0x1F)
        var words = [word0, c1, c2, c3, c4, c5, c6]
        words[0] |= UInt16(Self.crc4(prom: words)) << 12
        return words
    }

    /// The datasheet's formulas in real numbers: °C and Pa of raw values that need not be integers.
    /// - Parameters:
    ///   - d1: raw pressure.
    ///   - d2: raw temperature.
    public func realCompensation(d1: Double, d2: Double) -> (celsius: Double, pascals: Double) {
        let terms = realTerms(d2: d2)
        let pressure = (d1 * terms.sensitivity / 2_097_152 - terms.offset) / Double(1 << variant.pressureShift)
        return (terms.temperature / 100, pressure * variant.pascalsPerUnit)
    }

    /// The raw temperature (an integer of 0…2²⁴ − 1, as the ADC gives it) whose compensated value is
    /// nearest `celsius`, by bisection (the formula rises with the raw value over the operating range).
    public func temperatureADC(for celsius: Double) -> UInt32 {
        var (low, high) = (0.0, 16_777_215.0)
        for _ in 0..<64 {
            let middle = (low + high) / 2
            if realTerms(d2: middle).temperature / 100 < celsius { low = middle } else { high = middle }
        }
        return UInt32(((low + high) / 2).rounded())
    }

    /// The raw pressure (an integer of 0…2²⁴ − 1) whose compensated value, with the raw temperature `d2`,
    /// is nearest `pascals`: the pressure formula solved for D1.
    public func pressureADC(for pascals: Double, d2: UInt32) -> UInt32 {
        let terms = realTerms(d2: Double(d2))
        let units = pascals / variant.pascalsPerUnit
        let d1 = (units * Double(1 << variant.pressureShift) + terms.offset) * 2_097_152 / terms.sensitivity
        return UInt32(min(max(d1.rounded(), 0), 16_777_215))
    }

    /// TEMP (0.01 °C), OFF and SENS after the second order, in real numbers.
    private func realTerms(d2: Double) -> (temperature: Double, offset: Double, sensitivity: Double) {
        let dT = d2 - Double(c5) * 256
        let temperature = 2000 + dT * Double(c6) / 8_388_608
        let offset = Double(c2) * Double(1 << variant.offsetShift) + Double(c4) * dT / Double(1 << variant.offsetTemperatureShift)
        let sensitivity = Double(c1) * Double(1 << variant.sensitivityShift)
            + Double(c3) * dT / Double(1 << variant.sensitivityTemperatureShift)
        let low = (temperature - 2000) * (temperature - 2000), veryLow = (temperature + 1500) * (temperature + 1500)
        var second: (temperature: Double, offset: Double, sensitivity: Double) = (0, 0, 0)
        switch variant.secondOrder {
        case .thirtyBar where temperature < 2000:
            second = (3 * dT * dT / 0x2_0000_0000, 1.5 * low, 5 * low / 8)
            if temperature < -1500 { second = (second.temperature, second.offset + 7 * veryLow, second.sensitivity + 4 * veryLow) }
        case .thirtyBar:
            second = (2 * dT * dT / 0x20_0000_0000, low / 16, 0)
        case .twoBar where temperature < 2000:
            second = (11 * dT * dT / 0x8_0000_0000, 31 * low / 8, 63 * low / 32)
        case .twoBar:
            break
        }
        return (temperature - second.temperature, offset - second.offset, sensitivity - second.sensitivity)
    }
}
