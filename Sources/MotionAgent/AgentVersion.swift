/// The version of MotionBridge's agent and tools.
public enum AgentVersion {
    /// Semantic version string.
    public static let current = "0.1.0"
}
