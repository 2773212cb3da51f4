/// The app's authorization to use motion data (Apple's `CMAuthorizationStatus`). On Linux there is no
/// permission prompt: access is the process's access to the device nodes, so the status is always
/// ``authorized``.
public enum CMAuthorizationStatus: Int, Sendable {
    /// The user has not chosen yet.
    case notDetermined = 0
    /// Access is restricted (for example by parental controls).
    case restricted = 1
    /// The user denied access.
    case denied = 2
    /// Access is granted.
    case authorized = 3
}
