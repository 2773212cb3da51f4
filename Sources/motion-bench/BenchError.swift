/// Why a benchmark could not run; the text says what to fix.
struct BenchError: Error, CustomStringConvertible {
    /// What went wrong.
    let description: String

    /// An error with this message.
    init(_ description: String) {
        self.description = description
    }
}
