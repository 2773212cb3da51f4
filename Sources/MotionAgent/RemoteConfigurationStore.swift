#if canImport(Glibc)
import Glibc
#endif
import MotionContract
import MotionHAL
import MQTT

/// The state file of remote configuration (`remote_config.state_file`): the accepted documents, kept
/// across restarts, each time written whole to a temporary file, synced and renamed over the old one.
///
/// It never stops the agent. A file that cannot be kept (a directory or FIFO at the path, a directory that
/// is missing or read-only, a write that fails) leaves the accepted documents in memory only, said in the
/// log, in health (`state_file_problem`) and in the answer to each document, until a write succeeds. A
/// file that is damaged (not JSON, not a state file, a field out of range) is set aside as
/// `PATH.corrupt-…`, never overwritten, and the remote settings start empty. Nothing of a file that is not
/// a state file of ours is quoted in the log or on the broker: the path may point at a secret.
///
/// A value; the agent keeps it in its state and calls it on its control queue only.
struct RemoteConfigurationStore: Sendable, Equatable {
    /// The file; `nil`: none configured (documents then hold until the agent stops, by design).
    let path: String?
    /// Why accepted documents are in memory only now; `nil` while they are on disk (or no file is configured).
    private(set) var problem: String?

    /// The largest state file read, bytes (an overlay of every run-time field is under 2 KiB).
    static let maximumFileSize = 1 << 20
    private static let format = "motion-agent remote configuration"

    /// Opens the state file at `path`: the state it keeps, and what was noticed on the way (a line each for
    /// the log). A damaged file is set aside.
    static func open(_ path: String?) -> (store: RemoteConfigurationStore, remote: RemoteConfiguration, notes: [String]) {
        guard let path else { return (RemoteConfigurationStore(path: nil), RemoteConfiguration(), []) }
        var store = RemoteConfigurationStore(path: path)
        var notes: [String] = []
        var remote = RemoteConfiguration()
        var status = stat()
        if stat(path, &status) != 0 {
            if errno != ENOENT { store.problem = "cannot reach \(path): \(String(cString: strerror(errno)))" }
        } else if status.st_mode & S_IFMT == S_IFREG {  // anything else is not read: the check below names it
            do throws(Damage) {
                remote = try decode(try readFile(path))
            } catch .unreadable(let reason) {
                store.problem = "cannot read \(path): \(reason)"
            } catch let damage {
                // Not ours to overwrite: kept beside, and the remote settings start from nothing.
                if let aside = DamagedFile.setAside(path) {
                    notes.append("state file \(path) is damaged (\(damage)): set aside as \(aside); the remote settings start empty")
                } else {
                    store.problem = "\(path) is damaged (\(damage)) and cannot be set aside"
                }
            }
        }
        if store.problem == nil { store.problem = obstacle(path) }
        if let problem = store.problem { notes.append(Self.memoryOnly(problem)) }
        return (store, remote, notes)
    }

    /// What keeps the file at `path` from being written now: a file there that cannot be read (what it
    /// keeps would be lost), or one that, or a directory that, cannot be written.
    private static func obstacle(_ path: String) -> String? {
        if access(path, F_OK) == 0, access(path, R_OK) != 0 { return "cannot read \(path): \(String(cString: strerror(errno)))" }
        return WritableFile.problem(path, requiringWritableDirectory: true).map { "cannot write \(path): \($0)" }
    }

    /// Keeps `remote` in the file (nothing without one). After a failure the store is in memory only until
    /// a later write succeeds.
    /// - Returns: why it is in memory only, or `nil` when it is on disk (or no file is configured).
    mutating func keep(_ remote: RemoteConfiguration) -> String? {
        guard let path else { return nil }
        if problem != nil, let obstacle = Self.obstacle(path) {
            problem = obstacle
            return Self.memoryOnly(obstacle)
        }
        do {
            try RegularFile.replace(path, with: Self.encode(remote))
            problem = nil
        } catch {
            problem = error.description
        }
        return problem.map(Self.memoryOnly)
    }

    /// `problem` as the log, health and answers say it.
    static func memoryOnly(_ problem: String) -> String {
        "remote configuration kept in memory only (\(problem))"
    }

    /// The file's contents: `{"format":"motion-agent remote configuration","version":n,"config":{…}}`.
    static func encode(_ remote: RemoteConfiguration) -> [UInt8] {
        var writer = JSONWriter()
        writer.field("format", format)
        writer.field("version", remote.version)
        writer.field("config", JSONValue.object(remote.overlay))
        var bytes = writer.finishedBytes()
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }

    /// Why a file is not a usable state file; says where, never what a file that is not ours holds.
    enum Damage: Error, CustomStringConvertible {
        /// The system refused to read it: not damage, and nothing to set aside.
        case unreadable(reason: String)
        /// It is not JSON (the position of the first error).
        case notJSON(line: Int, column: Int)
        /// It is JSON, but not a state file of ours.
        case notAStateFile
        /// It is larger than ``maximumFileSize``.
        case tooLarge
        /// A state file of ours with a field that cannot be used.
        case field(ConfigurationError)

        var description: String {
            switch self {
            case .unreadable(let reason): reason
            case .notJSON(let line, let column): "not JSON at line \(line), column \(column)"
            case .notAStateFile: "it is not a state file of motion-agent"
            case .tooLarge: "larger than \(maximumFileSize / 1024) KiB"
            case .field(let error): "\(error.fieldPath): \(error.reason)"
            }
        }
    }

    /// The bytes of the regular file at `path`.
    /// - Throws: ``Damage``: too large, or unreadable.
    private static func readFile(_ path: String) throws(Damage) -> [UInt8] {
        do {
            return try RegularFile.read(path, maximumSize: maximumFileSize)
        } catch .tooLarge {
            throw .tooLarge
        } catch {
            throw .unreadable(reason: error.description)
        }
    }

    /// Reads a state file's contents.
    /// - Throws: ``Damage``.
    static func decode(_ bytes: [UInt8]) throws(Damage) -> RemoteConfiguration {
        let value: JSONValue
        do {
            value = try JSONValue.parse(bytes)
        } catch {
            throw .notJSON(line: error.line, column: error.column)
        }
        guard case .object(let members) = value, members["format"] == .string(format) else { throw .notAStateFile }
        do throws(ConfigurationError) {
            let root = ConfigurationReader(object: members, path: "")
            try root.rejectUnknownKeys(["format", "version", "config"])
            let overlay = try root.required("config", root.object)
            try RemoteConfiguration.checkFields(of: overlay)
            let version = try root.required("version", root.count)
            guard version <= RemoteConfiguration.maximumVersion else {
                throw ConfigurationError(fieldPath: "version", reason: "must be at most \(RemoteConfiguration.maximumVersion)")
            }
            return RemoteConfiguration(overlay: overlay.members, version: version)
        } catch {
            throw .field(error)
        }
    }
}
