extension Double {
    /// The number rounded to 3 significant digits (numbers of 100 and more: to an integer), for error
    /// messages.
    var threeSignificantDigits: String {
        guard isFinite, self != 0 else { return "\(self)" }
        let digits = Swift.max(0, 2 - Swift.abs(self).log10Floor)
        let scale = (0..<digits).reduce(1.0) { product, _ in product * 10 }
        let rounded = (self * scale).rounded() / scale
        return digits == 0 ? String(Int(rounded)) : String(rounded)
    }

    /// ⌊log₁₀ x⌋ for a positive finite number, exactly (no rounding of a logarithm at powers of ten).
    private var log10Floor: Int {
        var exponent = 0
        var value = self
        while value >= 10 { value /= 10; exponent += 1 }
        while value < 1 { value *= 10; exponent -= 1 }
        return exponent
    }
}
