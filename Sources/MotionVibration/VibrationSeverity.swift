/// A machine's vibration severity in the zones of ISO 20816-1 (and the older ISO 10816-1): the velocity RMS
/// over 10–1000 Hz, in mm/s, judged against three boundaries that depend on the machine's class. Pure value,
/// fed each new velocity RMS; the zone changes with hysteresis, so a level hovering on a boundary does not
/// chatter.
public struct VibrationSeverity: Sendable, Equatable {
    /// The zones: A newly commissioned, B fit for unrestricted long-term operation, C fit only for a limited
    /// period, D severe enough to cause damage.
    public enum Zone: String, Sendable, CaseIterable, Comparable {
        case a = "A", b = "B", c = "C", d = "D"

        /// A before B before C before D.
        public static func < (lhs: Zone, rhs: Zone) -> Bool {
            allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
        }
    }

    /// The boundaries between the zones, mm/s RMS: A/B, B/C, C/D (increasing).
    public struct Limits: Sendable, Equatable {
        public var ab: Double, bc: Double, cd: Double

        /// Limits; they must increase (A/B < B/C < C/D) and be positive.
        public init(ab: Double, bc: Double, cd: Double) {
            precondition(ab > 0 && ab < bc && bc < cd, "zone limits must increase: \(ab) < \(bc) < \(cd)")
            (self.ab, self.bc, self.cd) = (ab, bc, cd)
        }

        /// The common boundaries of ISO 10816-1's machine classes, carried into ISO 20816-1's annex: class I
        /// (small machines, up to 15 kW) 0.71/1.8/4.5, II (medium, 15–75 kW, or up to 300 kW on special
        /// foundations) 1.12/2.8/7.1, III (large, on rigid foundations) 1.8/4.5/11.2, IV (large, on soft
        /// foundations) 2.8/7.1/18 mm/s.
        public static func machineClass(_ number: Int) -> Limits? {
            switch number {
            case 1: Limits(ab: 0.71, bc: 1.8, cd: 4.5)
            case 2: Limits(ab: 1.12, bc: 2.8, cd: 7.1)
            case 3: Limits(ab: 1.8, bc: 4.5, cd: 11.2)
            case 4: Limits(ab: 2.8, bc: 7.1, cd: 18)
            default: nil
            }
        }

        /// The zone of `velocity` with no hysteresis, mm/s RMS (a boundary value belongs to the zone above).
        public func zone(of velocity: Double) -> Zone {
            velocity >= cd ? .d : velocity >= bc ? .c : velocity >= ab ? .b : .a
        }

        /// The lower boundary of `zone`, mm/s (0 for A).
        func lowerBoundary(of zone: Zone) -> Double {
            switch zone {
            case .a: 0
            case .b: ab
            case .c: bc
            case .d: cd
            }
        }
    }

    /// The boundaries.
    public let limits: Limits
    /// How far below a zone's lower boundary the level must fall to leave the zone, as a fraction of the
    /// boundary (default 0.1: a machine in C at 2.8 mm/s goes back to B below 2.52). Rising into a zone
    /// needs only its boundary, so an alarm is never late.
    public let hysteresis: Double
    /// The current zone; nil before the first level.
    public private(set) var zone: Zone?

    /// A judge of `limits` with `hysteresis` (a fraction, 0…0.5).
    public init(limits: Limits, hysteresis: Double = 0.1) {
        precondition((0...0.5).contains(hysteresis), "hysteresis must be within 0…0.5")
        self.limits = limits
        self.hysteresis = hysteresis
    }

    /// Feeds a velocity RMS, mm/s (a level that is not a finite number is ignored).
    /// - Returns: the new zone when it changed (the first level always sets one).
    public mutating func update(velocity: Double) -> Zone? {
        guard velocity.isFinite, velocity >= 0 else { return nil }
        let raw = limits.zone(of: velocity)
        guard let current = zone else {
            zone = raw
            return raw
        }
        if raw > current {
            zone = raw
            return raw
        }
        // Down only past the hysteresis: to the zone the level would have with every boundary lowered.
        var lowered = current
        while lowered > .a, velocity < limits.lowerBoundary(of: lowered) * (1 - hysteresis) {
            lowered = Zone.allCases[Zone.allCases.firstIndex(of: lowered)! - 1]
        }
        guard lowered != current else { return nil }
        zone = lowered
        return lowered
    }
}
