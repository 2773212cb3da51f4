import Testing

/// The error `body` throws when it is an `E`, or `nil` after recording an issue when it throws nothing or
/// another error: Swift Testing 6.1's `let error = expectError(E.self) { … }`, which the Swift Testing
/// of Swift 6.0 (Debian 13's toolchain, the one that builds for arm64) does not have.
/// - Parameters:
///   - type: the error type expected.
///   - sourceLocation: where a failure is reported.
///   - body: the code that should throw.
public func expectError<E: Error, R>(
    _ type: E.Type, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> R
) -> E? {
    do {
        _ = try body()
        Issue.record("expected an error of type \(E.self); none was thrown", sourceLocation: sourceLocation)
    } catch let error as E {
        return error
    } catch {
        Issue.record("expected an error of type \(E.self); \(error) was thrown", sourceLocation: sourceLocation)
    }
    return nil
}
