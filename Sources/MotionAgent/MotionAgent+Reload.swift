import MotionContract
import MotionLog

extension MotionAgent {
    /// Applies a new configuration file without dropping the connection, with the accepted remote
    /// documents on top again: service settings, the magnetic reference, the calibration file, the mount
    /// matrix and the health interval take effect at once; changes that need a restart (device, identity,
    /// broker) are kept as they are and returned as notes. Remote documents that no longer fit the file
    /// are set aside (reported on `{base}/config` and in the notes) and the file's values apply.
    /// - Returns: one line per setting that was not applied.
    @discardableResult
    public func reload(_ file: AgentConfiguration) -> [String] {
        controlQueue.sync {
            let (new, remoteError) = file.inForce(with: state.withLock { $0.remote })
            state.withLock { state in
                state.fileConfiguration = file
                state.remoteError = remoteError
            }
            var notes = apply(new, keepingCommandedStates: false)
            if let remoteError { notes.append("\(remoteError); the file's values apply") }
            Logger.agent.notice("configuration reloaded" + (notes.isEmpty ? "" : "; not applied: " + notes.joined(separator: "; ")))
            return notes
        }
    }
}
