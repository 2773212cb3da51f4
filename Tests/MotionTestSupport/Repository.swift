import Foundation

/// Where the repository's files are, for tests that read them (schemas, deployment files, guides).
public enum Repository {
    /// The repository's root directory.
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    /// `schemas/`: the contract's JSON Schemas.
    public static let schemas = root.appendingPathComponent("schemas")
}
