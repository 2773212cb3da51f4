extension Double {
    /// The value with exactly `places` decimals, rounded half away from zero (`1.50`, `-0.3`, `12`),
    /// without Foundation's formatter; a value that is not finite, or too large to scale, as Swift writes it.
    /// - Parameter places: decimals, 0 or more.
    public func fixedDecimal(places: Int) -> String {
        guard isFinite else { return "\(self)" }
        var scale = 1.0
        for _ in 0..<Swift.max(places, 0) { scale *= 10 }
        let scaled = (Swift.abs(self) * scale).rounded()
        guard scaled < 9e15 else { return "\(self)" }
        let units = Int(scaled)
        let whole = units / Int(scale), fraction = units % Int(scale)
        var digits = String(fraction)
        while digits.count < places { digits = "0" + digits }
        let sign = self < 0 && units != 0 ? "-" : ""
        return places > 0 ? "\(sign)\(whole).\(digits)" : "\(sign)\(whole)"
    }
}
