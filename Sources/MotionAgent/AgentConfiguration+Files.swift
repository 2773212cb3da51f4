#if canImport(Glibc)
import Glibc
#endif
import MotionHAL

// The files a configuration names: every file the agent writes must be a file of its own, apart from every
// file it reads or writes (after resolving links), and whether the written ones can be written now is said
// before a start, not held against it.
extension AgentConfiguration {
    /// One file the agent reads or writes, by the field that names it.
    struct FileUse: Equatable {
        /// The field's path (`broker.password_file`), or the option's (`--config`).
        let field: String
        /// The file as configured.
        let path: String
        /// Whether the agent writes it (and so must not share it).
        let writes: Bool
        /// Files the agent writes beside it: SQLite's journals, the temporary file of a replacement.
        let companions: [String]
    }

    /// Every file the configuration names, read ones first.
    var fileUses: [FileUse] {
        var uses: [FileUse] = []
        func read(_ field: String, _ path: String?) {
            if let path, !path.isEmpty { uses.append(FileUse(field: field, path: path, writes: false, companions: [])) }
        }
        read("--config", sourceFile)
        read("calibration", calibration)
        if case .file(let path)? = broker.password { read("broker.password_file", path) }
        read("broker.tls.ca_file", broker.tls?.caFile)
        read("broker.tls.certificate_file", broker.tls?.certificateFile)
        read("broker.tls.key_file", broker.tls?.keyFile)
        if case .replay(let path, _, _)? = try? IMUDeviceSpecification.parse(device) { read("device", path) }
        if let buffer = broker.durableOfflineBuffer {
            uses.append(FileUse(field: "broker.offline_buffer.path", path: buffer.path, writes: true,
                                companions: ["-wal", "-shm", "-journal"].map { buffer.path + $0 }))
        }
        if let stateFile = remoteConfiguration.stateFile, !stateFile.isEmpty {
            uses.append(FileUse(field: "remote_config.state_file", path: stateFile, writes: true, companions: [stateFile + ".tmp"]))
        }
        if let stateFile = sparkplug?.stateFile, !stateFile.isEmpty {
            uses.append(FileUse(field: "sparkplug.state_file", path: stateFile, writes: true, companions: [stateFile + ".tmp"]))
        }
        if let storeFile = sparkplug?.storeFile, !storeFile.isEmpty {
            uses.append(FileUse(field: "sparkplug.store_file", path: storeFile, writes: true,
                                companions: ["-wal", "-shm", "-journal"].map { storeFile + $0 }))
        }
        if let recording { uses.append(FileUse(field: "record.file", path: recording.file, writes: true, companions: [])) }
        return uses
    }

    /// Refuses a file the agent writes that is also another file the configuration names (the same path,
    /// a link to it, or a hard link), or one of that file's companions: a state file on the password file
    /// would replace the board's login with JSON at the first document, a state file on the buffer would
    /// damage both.
    /// - Throws: ``ConfigurationError`` naming the written file's field and the other field.
    func validateFileUses() throws(ConfigurationError) {
        let uses = fileUses
        for (index, use) in uses.enumerated() where use.writes {
            let mine = ([use.path] + use.companions).map(FileIdentity.init)
            for other in uses[..<index] {
                let theirs = ([other.path] + other.companions).map(FileIdentity.init)
                guard let clash = mine.first(where: { theirs.contains($0) }) else { continue }
                let why = other.writes ? "each needs a file of its own" : "the agent would overwrite a file it reads"
                throw ConfigurationError(
                    fieldPath: use.field, reason: "\(clash.path) is also \(other.field) (\(other.path)): \(why)")
            }
        }
    }

    /// What stands in the way of the files the agent writes now (a missing or read-only directory, a
    /// directory or FIFO at the path): not errors, since the agent then keeps the offline buffer and the
    /// remote configuration in memory and says so, but worth saying before a start (`--check-config`).
    public var storageWarnings: [String] {
        // The recording is not among them: a recording that cannot be made is refused (`record.file`).
        fileUses.filter { $0.writes && $0.field != "record.file" }.compactMap { use in
            WritableFile.problem(use.path, requiringWritableDirectory: true).map { problem in
                use.field == "remote_config.state_file"
                    ? "\(use.field): cannot keep the state in \(use.path) (\(problem)): remote documents will be kept in memory only"
                    : use.field == "sparkplug.state_file"
                    ? "\(use.field): cannot keep bdSeq in \(use.path) (\(problem)): it will start at 0 in every run"
                    : use.field == "sparkplug.store_file"
                    ? "\(use.field): cannot keep the Sparkplug store in \(use.path) (\(problem)): it will be kept in memory only"
                    : "\(use.field): cannot keep the offline buffer in \(use.path) (\(problem)): it will be kept in memory only"
            }
        }
    }
}

/// Which file a path names, judged without opening it: the path with its links resolved (the last part's
/// too, even when it points nowhere yet), and the inode when the file exists, so that two names of one
/// file compare equal.
struct FileIdentity: Equatable {
    /// The path as configured.
    let path: String
    private let resolved: String
    private let inode: [UInt64]?

    init(_ path: String) {
        self.path = path
        var status = stat()
        inode = stat(path, &status) == 0 ? [UInt64(status.st_dev), UInt64(status.st_ino)] : nil
        resolved = Self.resolve(path)
    }

    static func == (a: FileIdentity, b: FileIdentity) -> Bool {
        a.resolved == b.resolved || (a.inode != nil && a.inode == b.inode)
    }

    /// `path` with its directory's links resolved by `realpath`, and its last part followed while it is a
    /// link (at most 16 times).
    private static func resolve(_ path: String) -> String {
        var current = path
        for _ in 0..<16 {
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let length = readlink(current, &buffer, buffer.count - 1)
            guard length > 0 else { break }
            let target = String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current = target.hasPrefix("/") ? target : directory(of: current) + "/" + target
        }
        guard let resolvedDirectory = realpath(directory(of: current), nil) else { return current }
        defer { free(resolvedDirectory) }
        let name = current.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? current
        return String(cString: resolvedDirectory) + "/" + name
    }

    private static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
