/// The reconnect schedule: exponential backoff with a per-client random start and ±20 % jitter, so a
/// fleet that lost its broker at the same instant does not come back in lock-step.
///
/// With `min` and `max` the configured bounds and `u(k)` uniform numbers in [0, 1) drawn from a
/// generator seeded by the client ID (the same client gets the same schedule on every run):
/// - base delay `b = min · (1 + u(0))`, in [min, 2·min);
/// - after the n-th consecutive failed attempt (n ≥ 1) the nominal delay is `b · 2^(n−1)` and the client
///   waits `d(n) = b · 2^(n−1) · (0.8 + 0.4 · u(n))` (±20 %);
/// - above `max` it waits `max · (1 − 0.2 · u(n))` instead (but not less than `min`), in (0.8·max, max];
///   below `min` (possible only for n = 1) `min · (1 + 0.2 · u(n))`, in [min, 1.2·min). The bounds are
///   kept without piling clients up on exactly `min` or `max`, as plain clamping would.
///
/// The counter restarts after a successful connection, so the first retry after losing a working
/// connection waits `d(1)`, between `min` and `2.4·min` (at most `max`). With the default 1...30 s:
/// 1–2.4 s, 1.6–4.8 s, 3.2–9.6 s, 6.4–19.2 s, 12.8–30 s, then 24–30 s (seconds per attempt).
public struct MQTTReconnectBackoff: Sendable, Equatable {
    /// The shortest delay, in seconds.
    public let minimumDelay: Double
    /// The longest delay, in seconds.
    public let maximumDelay: Double
    /// The seed of the jitter.
    public let seed: UInt64
    /// The relative jitter of every delay: ±20 %.
    public static let jitterFraction = 0.2

    /// A schedule whose jitter is seeded by `clientID` (FNV-1a hash of its UTF-8 bytes).
    /// - Parameters:
    ///   - minimumDelay: lower bound in seconds (> 0).
    ///   - maximumDelay: upper bound in seconds (≥ `minimumDelay`).
    ///   - clientID: the MQTT client ID; an empty one gets a random seed.
    public init(minimumDelay: Double, maximumDelay: Double, clientID: String) {
        var seed: UInt64
        if clientID.isEmpty {
            var generator = SystemRandomNumberGenerator()
            seed = generator.next()
        } else {
            seed = 0xcbf2_9ce4_8422_2325
            for byte in clientID.utf8 { seed = (seed ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        }
        self.init(minimumDelay: minimumDelay, maximumDelay: maximumDelay, seed: seed)
    }

    /// A schedule with an explicit jitter seed.
    /// - Parameters:
    ///   - minimumDelay: lower bound in seconds (> 0).
    ///   - maximumDelay: upper bound in seconds (raised to `minimumDelay` if smaller).
    ///   - seed: the jitter seed.
    public init(minimumDelay: Double, maximumDelay: Double, seed: UInt64) {
        self.minimumDelay = minimumDelay
        self.maximumDelay = max(minimumDelay, maximumDelay)
        self.seed = seed
    }

    /// The per-client base delay `b`, in seconds, in [min, 2·min).
    public var baseDelay: Double { minimumDelay * (1 + uniform(0)) }

    /// How long to wait after `failedAttempts` consecutive failed attempts (1 = the first failure).
    /// - Parameter failedAttempts: the number of consecutive failures so far (values below 1 count as 1).
    /// - Returns: the delay in seconds, within [``minimumDelay``, ``maximumDelay``].
    public func delay(afterFailedAttempts failedAttempts: Int) -> Double {
        let attempt = max(1, failedAttempts)
        let jitter = uniform(UInt64(attempt))
        let nominal = baseDelay * Double(1 << UInt64(min(attempt - 1, 40)))
        let jittered = nominal * (1 - Self.jitterFraction + 2 * Self.jitterFraction * jitter)
        if jittered > maximumDelay { return max(minimumDelay, maximumDelay * (1 - Self.jitterFraction * jitter)) }
        if jittered < minimumDelay { return min(maximumDelay, minimumDelay * (1 + Self.jitterFraction * jitter)) }
        return jittered
    }

    /// `delay(afterFailedAttempts:)` as a `Duration`.
    func duration(afterFailedAttempts failedAttempts: Int) -> Duration {
        .nanoseconds(Int64(delay(afterFailedAttempts: failedAttempts) * 1e9))
    }

    /// The k-th uniform number in [0, 1) of this client's sequence (SplitMix64 of seed and k).
    private func uniform(_ index: UInt64) -> Double {
        var z = seed &+ (index &+ 1) &* 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Double(z >> 11) / Double(1 << 53)
    }
}
