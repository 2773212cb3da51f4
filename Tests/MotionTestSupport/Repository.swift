import Foundation

/// Where the repository's files are, for tests that read them (schemas, deployment files, guides).
public enum Repository {
    /// The repository's root directory.
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    /// `schemas/`: the contract's JSON Schemas.
    public static let schemas = root.appendingPathComponent("schemas")
    /// The 12 s excerpt of BROAD's slow-rotation trial (`Tests/Fixtures/broad`, CC-BY-4.0): the replay and
    /// recording tests' real recording.
    public static let broadExcerpt = root.appendingPathComponent("Tests/Fixtures/broad/01_slow_rotation_12s.csv")
}
