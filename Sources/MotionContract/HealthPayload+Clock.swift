extension HealthPayload {
    /// The wall clock as the agent sees it (since contract 1.9): whether the kernel considers it
    /// synchronized, its error bounds, the daemon that disciplines it, and the steps seen while the agent
    /// ran. While it is not synchronized, sample payloads say `tsUncertain`.
    public struct Clock: Sendable, Equatable {
        /// Whether the kernel considers the clock synchronized (`adjtimex`).
        public var synchronized: Bool
        /// The kernel's estimated error, s; `nil` when unknown.
        public var estimatedError: Double?
        /// The kernel's maximum error, s; `nil` when unknown.
        public var maximumError: Double?
        /// The daemon disciplining the clock: `ptp4l`, `chrony`, `ntpd`, `systemd-timesyncd`; `nil` for none
        /// seen.
        public var source: String?
        /// Times the wall clock jumped against the monotonic clock since the agent started.
        public var steps: Int
        /// The last jump, s (negative: set back); `nil` before the first.
        public var lastStep: Double?

        /// Creates the entry.
        /// - Parameters:
        ///   - synchronized: whether the clock is synchronized.
        ///   - estimatedError: estimated error, s.
        ///   - maximumError: maximum error, s.
        ///   - source: the disciplining daemon.
        ///   - steps: jumps seen.
        ///   - lastStep: the last jump, s.
        public init(
            synchronized: Bool, estimatedError: Double? = nil, maximumError: Double? = nil, source: String? = nil, steps: Int = 0,
            lastStep: Double? = nil
        ) {
            self.synchronized = synchronized
            self.estimatedError = estimatedError
            self.maximumError = maximumError
            self.source = source
            self.steps = steps
            self.lastStep = lastStep
        }

        /// Writes `clock: {synchronized, estimated_error_ms, maximum_error_ms, source, steps, last_step_s}`
        /// (errors to the microsecond, the step to the millisecond).
        func write(into writer: inout JSONWriter) {
            writer.object("clock") { entry in
                entry.field("synchronized", synchronized)
                if let estimatedError { entry.field("estimated_error_ms", (estimatedError * 1e6).rounded() / 1e3) }
                if let maximumError { entry.field("maximum_error_ms", (maximumError * 1e6).rounded() / 1e3) }
                if let source { entry.field("source", source) }
                entry.field("steps", steps)
                if let lastStep { entry.field("last_step_s", (lastStep * 1e3).rounded() / 1e3) }
            }
        }

        /// The `clock` member of a health report; `nil` when absent (agents before 1.9).
        /// - Throws: ``PayloadError`` naming a wrong field.
        static func decode(in root: JSONObjectReader<PayloadError>) throws(PayloadError) -> Clock? {
            guard let entry = try root.object("clock") else { return nil }
            return Clock(
                synchronized: try entry.required("synchronized", entry.bool),
                estimatedError: try entry.number("estimated_error_ms").map { $0 / 1e3 },
                maximumError: try entry.number("maximum_error_ms").map { $0 / 1e3 }, source: try entry.string("source"),
                steps: try entry.required("steps", entry.integer), lastStep: try entry.number("last_step_s"))
        }
    }
}
