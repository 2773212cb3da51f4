#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import MotionMath
import MotionModel

/// Finds the hard falls of a person wearing the IMU (what Apple's `CMFallDetectionManager` reports on a
/// watch), and tells them from a dropped device and from sitting down hard. A fall is three phases, each
/// with its threshold from ``FallSettings`` (whose documentation cites the studies behind the defaults):
///
/// 1. **The fall**: the specific force dips below ``FallSettings/dipThreshold`` (0.6 g) for at least
///    ``FallSettings/minimumDip`` (a body no longer held up; a person's seldom falls freely, a device's
///    does) and at most ``FallSettings/maximumDip``. The posture before it, the direction of the specific
///    force low-passed over ``postureTimeConstant``, is kept.
/// 2. **The impact**: within ``FallSettings/impactWindow`` of the dip's last sample the force exceeds
///    ``FallSettings/impactThreshold`` (3 g); its peak is followed for ``FallSettings/settle`` (bounces,
///    rolling).
/// 3. **The aftermath**, observed for ``FallSettings/observation`` (3 s): the body lies still (RMS
///    deviations under ``FallSettings/stillAcceleration`` and ``FallSettings/stillRotation``; else
///    ``Rejection/moving``), it is not a dropped device (below), and its posture turned by at least
///    ``FallSettings/orientationChange`` (60°) from before the fall (else ``Rejection/upright``: sat down
///    hard, landed a jump). Then a ``Event/fall(_:)``, and once the wearer has been upright again (within
///    half that angle of the posture before the fall) for ``FallSettings/recovery``, ``Event/recovered(fall:since:timestamp:)``.
///    A new dip before that (the wearer never got up, or got up into a posture the test cannot tell) starts
///    a new fall: the first one is then never recovered from.
///
/// **Dropped device or wearer.** A device let go falls freely (below ``FallSettings/freeFallThreshold``
/// for at least ``FallSettings/minimumFreeFall``) and afterwards lies at its sensors' noise floor: the
/// half-second means of its specific force and rotation rate stay within ``FallSettings/microMotionAcceleration``
/// and ``FallSettings/microMotionRotation`` of each other. A fallen person's trunk shows breathing (about
/// half a degree of tilt every 3–5 s) and small shifts. Only both signs together make
/// ``Rejection/droppedDevice``, so that a person who lies motionless after a fall from standing (no free
/// fall) is still reported. Its limits: a person who falls freely (from a ladder) and then shows no
/// micro-motion above the thresholds (a wrist resting on the ground, a sensor whose noise floor is higher
/// than the thresholds assume) is taken for a dropped device; a device that topples off a table edge
/// (no true free fall) onto another face and lies still is taken for a fall; a device on a vibrating
/// surface shows "micro-motion". The posture test assumes a sensor fixed to the trunk (waist, chest):
/// a wrist's posture after a fall is arbitrary (set ``FallSettings/orientationChange`` to 0, which also
/// turns the recovery off); falls out of bed, lying before and after, do not change the posture enough.
///
/// Samples that are not finite, or not later than the previous one, are ignored. A gap of more than
/// ``maximumGap`` abandons a fall in progress (dip, impact or observation: its evidence is incomplete) and
/// restarts the posture filter; a fall already reported stays reported. The rate is free: every time is
/// measured on the timestamps; at 25 Hz an impact's peak is sampled off its top (a 0.1 s impact by up to
/// 15 %), which the 3 g threshold leaves room for. Pure value, fed at the sensor rate; times in s, forces
/// in g, rates in rad/s.
public struct FallDetector: Sendable {
    /// The thresholds and times.
    public let settings: FallSettings
    /// The longest time between two samples that a fall in progress may span, s.
    public static let maximumGap = 0.5
    /// Time constant of the low-pass filter that gives the posture (the direction of the specific force)
    /// before a fall and while the wearer recovers, s.
    public static let postureTimeConstant = 1.0

    /// The impact as followed while it settles.
    private struct Impact: Sendable {
        var start: Double
        var peak: Double
        var peakTime: Double
    }

    private enum Phase: Sendable {
        case monitoring
        case falling(FallDip)
        case settling(FallDip, Impact)
        case observing(FallDip, Impact, FallObservation)
        case fallen(FallCandidate, reference: SIMD3<Double>, uprightSince: Double?)
    }

    private var phase = Phase.monitoring
    private var posture: SIMD3<Double>?
    private var lastTimestamp: Double?

    /// Creates a detector with `settings` (by default ``FallSettings``' defaults).
    public init(settings: FallSettings = FallSettings()) {
        self.settings = settings
    }

    /// Whether a fall has been reported and the wearer has not recovered yet.
    public var hasFallen: Bool {
        if case .fallen = phase { true } else { false }
    }

    /// Whether a dip, an impact or an observation is in progress.
    public var isJudging: Bool {
        switch phase {
        case .falling, .settling, .observing: true
        case .monitoring, .fallen: false
        }
    }

    /// Feeds one sample.
    /// - Parameters:
    ///   - specificForce: the accelerometer's reading, g, device axes (1 g up at rest).
    ///   - rotationRate: the gyroscope's reading, rad/s, device axes.
    ///   - timestamp: s.
    /// - Returns: a fall, a rejected candidate or a recovery, when this sample completed one.
    public mutating func update(specificForce: SIMD3<Double>, rotationRate: SIMD3<Double>, timestamp: Double) -> Event? {
        guard specificForce.isFinite, rotationRate.isFinite, timestamp.isFinite else { return nil }
        var step = 0.0
        if let last = lastTimestamp {
            guard timestamp > last else { return nil }
            step = timestamp - last
            if step > Self.maximumGap {
                restartAfterGap()
                step = 0
            }
        }
        lastTimestamp = timestamp
        let before = posture
        posture = before.map { $0 + (specificForce - $0) * (1 - exp(-step / Self.postureTimeConstant)) } ?? specificForce
        let force = specificForce.length, rate = rotationRate.length
        switch phase {
        case .monitoring:
            // A dip starts from a posture that is known and held (not from a device already falling).
            guard force < settings.dipThreshold, let before, before.length > 0.5 else { return nil }
            var dip = FallDip(start: timestamp, reference: before.normalized)
            dip.add(force: force, rate: rate, step: step, timestamp: timestamp, dipThreshold: settings.dipThreshold, freeFallThreshold: settings.freeFallThreshold)
            phase = .falling(dip)
        case .falling(var dip):
            dip.add(force: force, rate: rate, step: step, timestamp: timestamp, dipThreshold: settings.dipThreshold, freeFallThreshold: settings.freeFallThreshold)
            if force > settings.impactThreshold {
                phase = dip.timeBelow >= settings.minimumDip ? .settling(dip, Impact(start: timestamp, peak: force, peakTime: timestamp)) : .monitoring
            } else if timestamp - dip.lastBelow > settings.impactWindow || dip.lastBelow - dip.start > settings.maximumDip {
                phase = .monitoring
            } else {
                phase = .falling(dip)
            }
        case .settling(var dip, var impact):
            dip.noteRotation(rate)
            if force > impact.peak { (impact.peak, impact.peakTime) = (force, timestamp) }
            guard timestamp - impact.start >= settings.settle else {
                phase = .settling(dip, impact)
                return nil
            }
            var observation = FallObservation(start: timestamp)
            observation.add(force: specificForce, rate: rotationRate, timestamp: timestamp)
            phase = .observing(dip, impact, observation)
        case .observing(let dip, let impact, var observation):
            observation.add(force: specificForce, rate: rotationRate, timestamp: timestamp)
            guard timestamp - observation.start >= settings.observation else {
                phase = .observing(dip, impact, observation)
                return nil
            }
            return judge(dip, impact, observation, at: timestamp)
        case .fallen(let fall, let reference, let uprightSince):
            // A wearer still down (or one whose posture cannot tell, orientation_change 0) can fall again.
            if force < settings.dipThreshold, let before, before.length > 0.5 {
                var dip = FallDip(start: timestamp, reference: before.normalized)
                dip.add(force: force, rate: rate, step: step, timestamp: timestamp, dipThreshold: settings.dipThreshold, freeFallThreshold: settings.freeFallThreshold)
                phase = .falling(dip)
                return nil
            }
            let upright = Self.angle(reference, posture ?? specificForce) < settings.orientationChange * (Double.pi / 180) / 2
            guard upright else {
                phase = .fallen(fall, reference: reference, uprightSince: nil)
                return nil
            }
            let since = uprightSince ?? timestamp
            guard timestamp - since >= settings.recovery else {
                phase = .fallen(fall, reference: reference, uprightSince: since)
                return nil
            }
            phase = .monitoring
            return .recovered(fall: fall, since: since, timestamp: timestamp)
        }
        return nil
    }

    /// The verdict on a dip and an impact after the observation: a fall, or why not.
    private mutating func judge(_ dip: FallDip, _ impact: Impact, _ observation: FallObservation, at timestamp: Double) -> Event {
        let candidate = FallCandidate(
            fallStart: dip.start, fallDuration: dip.lastBelow - dip.start, freeFallDuration: dip.longestFreeFall,
            impactTime: impact.peakTime, peakForce: impact.peak, peakRotationRate: dip.peakRotationRate,
            orientationChange: Self.angle(dip.reference, observation.meanForce), activity: observation.forceDeviation,
            microMotion: observation.forceSpread, microRotation: observation.rateSpread, decisionTime: timestamp)
        phase = .monitoring
        if observation.forceDeviation > settings.stillAcceleration || observation.rateDeviation > settings.stillRotation {
            return .rejected(candidate, .moving)
        }
        // Both signs of an object, so that a motionless person who did not fall freely is still a fall.
        let fellFreely = dip.longestFreeFall >= settings.minimumFreeFall
        let atNoiseFloor = candidate.microMotion < settings.microMotionAcceleration && candidate.microRotation < settings.microMotionRotation
        if fellFreely && atNoiseFloor { return .rejected(candidate, .droppedDevice) }
        if candidate.orientationChange < settings.orientationChange * (Double.pi / 180) { return .rejected(candidate, .upright) }
        phase = .fallen(candidate, reference: dip.reference, uprightSince: nil)
        return .fall(candidate)
    }

    /// After a gap: a fall in progress is abandoned, a reported one stays (its upright time starts over),
    /// and the posture filter starts again from the next sample.
    private mutating func restartAfterGap() {
        switch phase {
        case .falling, .settling, .observing: phase = .monitoring
        case .fallen(let fall, let reference, _): phase = .fallen(fall, reference: reference, uprightSince: nil)
        case .monitoring: break
        }
        posture = nil
    }

    /// The angle between the direction `reference` (unit) and that of `vector`, rad (π/2 for a zero vector).
    private static func angle(_ reference: SIMD3<Double>, _ vector: SIMD3<Double>) -> Double {
        acos(min(max(reference.dot(vector.normalized), -1), 1))
    }
}
