#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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

    /// A field as its horizontal and downward components in a tilt-corrected frame and their norm, µT;
    /// the angle of (horizontal, downward) from the horizontal is the dip.
    private struct Field {
        var horizontal: Double
        var downward: Double
        var norm: Double

        init(horizontal: Double, downward: Double) {
            self.horizontal = horizontal
            self.downward = downward
            norm = (horizontal * horizontal + downward * downward).squareRoot()
        }

        /// Moves a fraction `gain` of the way to `other`.
        mutating func follow(_ other: Field, gain: Double) {
            self = Field(
                horizontal: horizontal + (other.horizontal - horizontal) * gain,
                downward: downward + (other.downward - downward) * gain)
        }
    }

    private var reference: Field?
    private var candidate: (field: Field, duration: Double)?
    /// cos(dipThreshold): two fields within the dip threshold have directions at least this aligned.
    private let minimumDipCosine: Double

    /// Whether the last reading was disturbed.
    private(set) var isDisturbed = false

    init(normThreshold: Double, dipThreshold: Double, newReferenceTime: Double, referenceTimeConstant: Double) {
        self.normThreshold = normThreshold
        self.dipThreshold = dipThreshold
        self.newReferenceTime = newReferenceTime
        self.referenceTimeConstant = referenceTimeConstant
        minimumDipCosine = cos(dipThreshold)
    }

    private func isClose(_ field: Field, to target: Field) -> Bool {
        // cos(angle between the two directions) ≥ cos(threshold), without dividing by the norms.
        abs(field.norm - target.norm) <= normThreshold * target.norm
            && field.horizontal * target.horizontal + field.downward * target.downward
                >= minimumDipCosine * field.norm * target.norm
    }

    /// Feeds the field's horizontal and downward components in a tilt-corrected frame (µT); returns
    /// whether the reading is undisturbed and may correct the heading. (No trigonometry: the dip
    /// difference is compared through the directions' dot product.)
    mutating func update(horizontal: Double, downward: Double, deltaTime: Double) -> Bool {
        let field = Field(horizontal: horizontal, downward: downward)
        guard field.norm > 0 else { return false }
        guard var current = reference else {
            reference = field
            isDisturbed = false
            return true
        }
        if isClose(field, to: current) {
            current.follow(field, gain: min(deltaTime / referenceTimeConstant, 1))
            reference = current
            candidate = nil
            isDisturbed = false
            return true
        }
        if var steady = candidate, isClose(field, to: steady.field) {
            steady.field.follow(field, gain: min(deltaTime / 1.0, 1))
            steady.duration += deltaTime
            if steady.duration >= newReferenceTime {
                reference = steady.field
                candidate = nil
                isDisturbed = false
                return true
            }
            candidate = steady
        } else {
            candidate = (field, 0)
        }
        isDisturbed = true
        return false
    }
}
