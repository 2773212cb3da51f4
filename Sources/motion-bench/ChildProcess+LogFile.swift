import PrivateBroker

extension ChildProcess {
    /// Starts `executable` with `arguments`, its standard output and error appended to `logFile`.
    /// - Throws: ``BenchError`` when the process cannot be started.
    convenience init(executable: String, arguments: [String], logFile: String) throws(BenchError) {
        do {
            try self.init(executable, arguments, standardOutput: .file(logFile, appending: true))
        } catch {
            throw BenchError(error.description)
        }
    }
}
