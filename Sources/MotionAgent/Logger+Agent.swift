import MotionLog

extension Logger {
    /// The agent's own lines (its control plane, services, device supervision and announcements).
    public static let agent = Logger(label: "agent")
}
