extension Double {
    /// The number as device strings and sysfs attributes write it: whole numbers without a fraction (`25`),
    /// others in Swift's shortest round-tripping form (`12.5`), so that `Double(text)` gives it back exactly.
    var decimalText: String {
        self == rounded() && abs(self) < 1e15 ? String(Int(self)) : String(self)
    }
}
