/// Decides whether the magnetometer shows the earth's field: its norm and dip angle must stay near a
/// reference learned while undisturbed. A field that differs but stays steady for a while becomes the new
/// reference (the device was carried somewhere else, or a permanent magnet moved with it).
struct MagneticDisturbanceDetector: Sendable {
    /// Largest relative deviation of the norm from the reference (0.1 = 10 %).
    let normThreshold: Double
    /// Largest deviation of the dip angle from the reference, rad.
    let dipThreshold: Double
    /// How long a steady different field must last to become the reference, s.
    let newReferenceTime: Double
    /// Time constant with which the reference follows an undisturbed field, s.
    let referenceTimeConstant: Double

    private var reference: (norm: Double, dip: Double)?
    private var candidate: (norm: Double, dip: Double, duration: Double)?

    /// Whether the last reading was disturbed.
    private(set) var isDisturbed = false

    init(normThreshold: Double, dipThreshold: Double, newReferenceTime: Double, referenceTimeConstant: Double) {
        self.normThreshold = normThreshold
        self.dipThreshold = dipThreshold
        self.newReferenceTime = newReferenceTime
        self.referenceTimeConstant = referenceTimeConstant
    }

    private func isClose(_ norm: Double, _ dip: Double, to target: (norm: Double, dip: Double)) -> Bool {
        abs(norm - target.norm) <= normThreshold * target.norm && abs(dip - target.dip) <= dipThreshold
    }

    /// Feeds the field's norm (µT) and dip angle (rad, positive downwards); returns whether the reading is
    /// undisturbed and may correct the heading.
    mutating func update(norm: Double, dip: Double, deltaTime: Double) -> Bool {
        guard let current = reference else {
            reference = (norm, dip)
            isDisturbed = false
            return true
        }
        if isClose(norm, dip, to: current) {
            let gain = min(deltaTime / referenceTimeConstant, 1)
            reference = (current.norm + (norm - current.norm) * gain, current.dip + (dip - current.dip) * gain)
            candidate = nil
            isDisturbed = false
            return true
        }
        if let steady = candidate, isClose(norm, dip, to: (steady.norm, steady.dip)) {
            let gain = min(deltaTime / 1.0, 1)
            let updated = (
                norm: steady.norm + (norm - steady.norm) * gain, dip: steady.dip + (dip - steady.dip) * gain,
                duration: steady.duration + deltaTime)
            if updated.duration >= newReferenceTime {
                reference = (updated.norm, updated.dip)
                candidate = nil
                isDisturbed = false
                return true
            }
            candidate = updated
        } else {
            candidate = (norm, dip, 0)
        }
        isDisturbed = true
        return false
    }
}
