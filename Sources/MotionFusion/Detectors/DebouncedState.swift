/// An on/off state that changes only after the condition for the change has held for a while: on after
/// `onTime` of "turn on" evidence, off after `offTime` of "turn off" evidence; evidence interrupted starts
/// the wait over. The hysteresis of the detectors' running and moving states. Pure value; times in s.
struct DebouncedState: Sendable {
    /// How long the evidence for "on" must last, s.
    let onTime: Double
    /// How long the evidence for "off" must last, s.
    let offTime: Double
    /// The state now.
    private(set) var isOn = false
    private var since: Double?

    init(onTime: Double, offTime: Double) {
        self.onTime = onTime
        self.offTime = offTime
    }

    /// Feeds one sample's evidence.
    /// - Parameters:
    ///   - changeWanted: whether this sample argues for the other state (above the "on" threshold while
    ///     off, below the "off" threshold while on).
    ///   - timestamp: s.
    /// - Returns: the new state when it changed.
    mutating func update(changeWanted: Bool, timestamp: Double) -> Bool? {
        guard changeWanted else {
            since = nil
            return nil
        }
        let start = since ?? timestamp
        since = start
        guard timestamp - start >= (isOn ? offTime : onTime) else { return nil }
        isOn.toggle()
        since = nil
        return isOn
    }
}
