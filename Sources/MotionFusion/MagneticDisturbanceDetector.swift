#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Decides whether the magnetometer shows the earth's field: its norm and dip angle must stay near a
/// reference learned while undisturbed. A field that differs becomes the new reference only once it has
/// proved consistent with the earth: steady *in the reference frame* (not only in norm and dip) for
/// ``newReferenceTime`` while the device turned about the vertical by at least ``minimumTurn``. The device
/// carried into another room qualifies; a magnet attached to the device does not, since its field turns
/// with the device (and with the device still, nothing tells the two apart, so nothing is adopted).
/// Until the inclination is known well enough (after a start, possibly while shaken) the dip seen cannot
/// be trusted: every reading is taken, and becomes the reference.
///
/// As VQF does (Laidig & Seel 2023, with its published constants), the norm and dip compared are those of
/// the field low-passed over ``comparedTimeConstant``, so that one noisy reading neither flags a
/// disturbance nor ends one, and a field must have been undisturbed for ``minimumUndisturbedTime`` before
/// it corrects the heading again: the edges of a disturbance, where the field passes back through the
/// thresholds while still off in direction, do not pull the heading.
struct MagneticDisturbanceDetector: Sendable {
    /// Largest relative deviation of the norm from the reference (0.1 = 10 %).
    let normThreshold: Double
    /// Largest deviation of the dip angle from the reference, rad.
    let dipThreshold: Double
    /// How long a steady different field must last to become the reference, s.
    let newReferenceTime: Double
    /// Time constant with which the reference follows an undisturbed field, s.
    let referenceTimeConstant: Double
    /// How far the device must turn about the vertical while a different field is steady before that
    /// field is adopted, rad.
    static let minimumTurn = 0.5
    /// How many standard deviations of the compared field's noise (the readings' noise, reduced by the
    /// 0.05 s low-pass) the thresholds are widened to at least: 3, at which noise alone moves the norm
    /// past its bound in 0.3 % of the comparisons (and the direction in as many), so that a noisy
    /// magnetometer or a weak field does not starve the heading of corrections nor make the disturbance
    /// flag flicker. Not more: a reading whose norm is off by more than the thresholds
    /// is most often off in direction too (a calibration residual, a disturbance), and widening the
    /// thresholds to 4 σ let such readings in and cost BROAD 0.2° (docs/FUSION.md).
    static let noiseMultiple = 3.0
    /// The time constant of the low-pass applied to the field before its norm and dip are compared, s:
    /// 0.05 s (VQF's `magCurrentTau`), shorter than any turn of the device by the dip threshold.
    static let comparedTimeConstant = 0.05
    /// How long the field must have been undisturbed before it corrects the heading again, s: 0.5 s (VQF's
    /// `magMinUndisturbedTime`).
    static let minimumUndisturbedTime = 0.5

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
    /// Whether ``reference`` was learned with the inclination known well enough to trust its dip.
    private var referenceTrusted = false
    /// A different field that has been steady: in norm and dip, and in the reference frame (µT), for
    /// `duration` s while the device turned by `turned` rad about the vertical.
    private var candidate: (field: Field, earth: SIMD3<Double>, duration: Double, turned: Double)?
    /// cos(dipThreshold): two fields within the dip threshold have directions at least this aligned.
    private let minimumDipCosine: Double

    /// The field compared with the reference: the readings low-passed over ``comparedTimeConstant``.
    private var compared: Field?
    /// How long the compared field has been within the thresholds of the reference, s.
    private var undisturbedFor = 0.0

    /// Whether the last reading was disturbed (or followed a disturbance by less than
    /// ``minimumUndisturbedTime``).
    private(set) var isDisturbed = false

    init(normThreshold: Double, dipThreshold: Double, newReferenceTime: Double, referenceTimeConstant: Double) {
        self.normThreshold = normThreshold
        self.dipThreshold = dipThreshold
        self.newReferenceTime = newReferenceTime
        self.referenceTimeConstant = referenceTimeConstant
        minimumDipCosine = cos(dipThreshold)
    }

    /// Whether `field` lies within the thresholds of `target`, widened to `noiseBound` (µT) where noise
    /// alone would reach past them: the norm by `noiseBound`, the direction by `noiseBound / norm` rad.
    private func isClose(_ field: Field, to target: Field, noiseBound: Double) -> Bool {
        let noiseAngle = noiseBound / target.norm
        // Trigonometry only on the rare reading whose noise outgrows the dip threshold.
        let dipCosine = noiseAngle > dipThreshold ? cos(min(noiseAngle, .pi / 2)) : minimumDipCosine
        // cos(angle between the two directions) ≥ cos(threshold), without dividing by the norms.
        return abs(field.norm - target.norm) <= max(normThreshold * target.norm, noiseBound)
            && field.horizontal * target.horizontal + field.downward * target.downward
                >= dipCosine * field.norm * target.norm
    }

    /// Feeds the field's horizontal and downward components in a tilt-corrected frame (µT), the field in
    /// the reference frame (µT), how far the device turned about the vertical since the last reading
    /// (rad) and the noise of one reading (µT rms per axis, ``MagnetometerNoiseEstimator``); returns
    /// whether the reading is undisturbed and may correct the heading. The thresholds are
    /// ``normThreshold`` and ``dipThreshold`` or ``noiseMultiple`` times the noise, whichever is wider.
    /// (No trigonometry as a rule: the dip difference is compared through the directions' dot product.)
    /// `trusted`: whether the inclination is known well enough (its uncertainty well inside the dip
    /// threshold) for this reading to found a reference.
    mutating func update(
        horizontal: Double, downward: Double, earth: SIMD3<Double>, turned: Double, trusted: Bool, noise: Double,
        deltaTime: Double
    ) -> Bool {
        let reading = Field(horizontal: horizontal, downward: downward)
        guard reading.norm > 0 else { return false }
        let gain = 1 - exp(-deltaTime / Self.comparedTimeConstant)
        var field = compared ?? reading
        field.follow(reading, gain: gain)
        compared = field
        // The noise of one reading (µT), and of the low-passed field: an exponential average with gain g
        // keeps g / (2 − g) of white noise's variance (0.1 at 100 Hz).
        let readingNoiseBound = Self.noiseMultiple * noise
        let noiseBound = readingNoiseBound * (gain / (2 - gain)).squareRoot()
        guard var current = reference, referenceTrusted else {
            reference = field
            referenceTrusted = trusted
            candidate = nil
            // A reference just founded is undisturbed: it corrects at once.
            undisturbedFor = Self.minimumUndisturbedTime
            isDisturbed = false
            return true
        }
        if isClose(field, to: current, noiseBound: noiseBound) {
            candidate = nil
            // One reading's worth of time at most: a gap in the readings proves nothing.
            undisturbedFor += min(deltaTime, Self.comparedTimeConstant)
            isDisturbed = undisturbedFor < Self.minimumUndisturbedTime
            guard !isDisturbed else { return false }
            // The reference follows only an undisturbed field, not the way back from a disturbance.
            current.follow(field, gain: min(deltaTime / referenceTimeConstant, 1))
            reference = current
            return true
        }
        undisturbedFor = 0
        if var steady = candidate, isClose(field, to: steady.field, noiseBound: noiseBound),
            (earth - steady.earth).length <= max(normThreshold * steady.earth.length, readingNoiseBound)
        {
            steady.field.follow(field, gain: min(deltaTime / 1.0, 1))
            steady.duration += deltaTime
            steady.turned += abs(turned)
            if steady.duration >= newReferenceTime, steady.turned >= Self.minimumTurn {
                reference = steady.field
                candidate = nil
                undisturbedFor = Self.minimumUndisturbedTime
                isDisturbed = false
                return true
            }
            candidate = steady
        } else {
            candidate = (field, earth, 0, 0)
        }
        isDisturbed = true
        return false
    }
}
