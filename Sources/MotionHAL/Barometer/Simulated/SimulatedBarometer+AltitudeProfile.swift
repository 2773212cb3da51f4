extension SimulatedBarometer {
    /// The altitude above the start that the simulated barometer follows, as a function of time: the
    /// pressure it reads is the standard atmosphere's at that altitude (``BarometricFormula``).
    ///
    /// Pure and deterministic; a new case needs only its branch of ``altitude(at:)``.
    public enum AltitudeProfile: Sendable, Equatable {
        /// A constant altitude, m (`alt=M`).
        case constant(Double)
        /// A steady climb (`climb=M@S`): 2 s at 0, then `height` metres (negative: a descent) at a
        /// constant speed over `duration` seconds (> 0), then holding `height`.
        case climb(height: Double, duration: Double)
        /// Climbing stairs (`floors=N`): `count` floors (≥ 1) of ``floorHeight`` each, climbed at
        /// ``stairSpeed`` with a pause of ``floorPause`` before each floor, then holding the top.
        case floors(count: Int)
        /// The height of one of the IMU simulator's trajectories (`motion=NAME`, the names of the IMU's
        /// `motion=` option): the barometer of a simulated device that walks up the stairs (`stairs`) or is
        /// lifted and dropped (`drop`) reads the altitude of the same trajectory, from the start of its run.
        case motion(SimulatedMotion)

        /// The height of one floor, m.
        public static let floorHeight = 3.0
        /// The vertical speed on the stairs, m/s.
        public static let stairSpeed = 0.5
        /// The pause on each floor before the next flight (and at the start), s.
        public static let floorPause = 2.0
        /// How long a climb waits at altitude 0 before it begins, s.
        public static let climbDelay = 2.0

        /// The altitude above the start `seconds` after the start, m.
        /// - Parameter seconds: s since the start (negative times give the start's altitude).
        public func altitude(at seconds: Double) -> Double {
            let time = max(seconds, 0)
            switch self {
            case .constant(let altitude):
                return altitude
            case .climb(let height, let duration):
                let progress = (time - Self.climbDelay) / duration
                return height * min(max(progress, 0), 1)
            case .floors(let count):
                let flight = Self.floorHeight / Self.stairSpeed
                let step = Self.floorPause + flight
                let floor = min(Int(time / step), count)
                guard floor < count else { return Double(count) * Self.floorHeight }
                let climbing = max(time - Double(floor) * step - Self.floorPause, 0)
                return (Double(floor) + climbing / flight) * Self.floorHeight
            case .motion(let motion):
                return motion.kinematics(at: time, gravity: 9.81).position.z
            }
        }
    }
}
