/// Why a mount matrix text was refused.
public enum MountMatrixError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The text is not three rows of three numbers; the second value says what is wrong.
    case malformed(String, String)
    /// The rows are numbers but not an orthonormal basis (no rotation or reflection of the axes).
    case notARotation(String)

    /// A one-line explanation naming the text.
    public var description: String {
        switch self {
        case .malformed(let text, let why): "mount matrix '\(text)': \(why)"
        case .notARotation(let text):
            "mount matrix '\(text)': rows are not unit vectors at right angles (not a rotation of the axes)"
        }
    }
}
