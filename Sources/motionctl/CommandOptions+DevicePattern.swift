import MotionFleet

extension CommandOptions {
    /// The optional PATTERN argument of a fleet listing (`devices`, `events`): a shell glob over device
    /// ids, every device when absent; a usage error for more than one argument or a malformed glob.
    /// - Parameter command: the command's name, for the error.
    func devicePattern(command: String) -> DevicePattern {
        guard positional.count <= 1 else { fail("\(command) takes at most one PATTERN") }
        do {
            return try positional.first.map { text throws(DevicePatternError) in try DevicePattern(text) } ?? .all
        } catch {
            fail(error.description)
        }
    }
}
