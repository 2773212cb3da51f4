import Foundation
import MotionContract
import MotionHAL
import Testing

@testable import MotionAgent

/// The state file of remote configuration: written whole or not at all, read back, and never a reason to
/// stop the agent or to lose a file (issue 29: F6's quoted secret, F9, F11, F12).
@Suite struct RemoteConfigurationStoreTests {
    static func directory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("state-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func accepted(_ documents: String...) throws -> RemoteConfiguration {
        var state = RemoteConfiguration()
        for document in documents { state = try state.accepting(Array(document.utf8)) }
        return state
    }

    static func asideFiles(in directory: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.contains(".corrupt-") }
    }

    @Test func theStateFileIsWrittenWholeAndReadBack() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = "\(directory)/remote.json"
        var (store, remote, notes) = RemoteConfigurationStore.open(path)
        #expect(remote == RemoteConfiguration() && notes.isEmpty && store.problem == nil, "no file yet: nothing from the fleet")
        let state = try Self.accepted(#"{"health_interval":60}"#, #"{"services":{"magnetometer":{"enabled":false}}}"#)
        #expect(store.keep(state) == nil)
        #expect(RemoteConfigurationStore.open(path).remote == state)
        #expect(!FileManager.default.fileExists(atPath: path + ".tmp"), "no temporary file left")
        // A replacement that cannot be written leaves the old file as it was, and the store in memory only.
        try FileManager.default.createDirectory(atPath: path + ".tmp", withIntermediateDirectories: false)
        let later = try state.accepting(Array(#"{"health_interval":30}"#.utf8))
        let warning = store.keep(later) ?? "kept on disk"
        #expect(warning.hasPrefix("remote configuration kept in memory only (cannot create \(path).tmp"), "\(warning)")
        #expect(RemoteConfigurationStore.open(path).remote == state)
        try FileManager.default.removeItem(atPath: path + ".tmp")
        #expect(store.keep(later) == nil && store.problem == nil, "on disk again once a write succeeds")
        #expect(RemoteConfigurationStore.open(path).remote == later)
    }

    /// F11: a damaged file used to be overwritten by the next document, with no copy.
    @Test("a damaged or foreign state file is set aside, never overwritten, and the remote settings start empty")
    func aDamagedFileIsSetAside() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = "\(directory)/remote.json"
        for (contents, why) in [
            (#"{"format":"motion-agent remote configuration","version":1,"config":{"device":"sim"}}"#, "device: cannot be changed remotely"),
            (#"{"format":"motion-agent remote configuration","version":1,"config":[]}"#, "config: must be a JSON object"),
            (#"{"format":"something else","version":1,"config":{}}"#, "it is not a state file of motion-agent"),
            ("{\"format\":\"motion-agent remote", "not JSON at line 1"),
            // F9: written by an agent that counted past 2^53 - 1 (or by hand); 2^63 itself is not even JSON Jansson reads.
            (#"{"format":"motion-agent remote configuration","version":9007199254740992,"config":{}}"#, "version: must be at most 9007199254740991"),
            (#"{"format":"motion-agent remote configuration","version":9223372036854775808,"config":{}}"#, "not JSON"),
        ] {
            try contents.write(toFile: path, atomically: false, encoding: .utf8)
            let (store, remote, notes) = RemoteConfigurationStore.open(path)
            #expect(remote == RemoteConfiguration() && store.problem == nil, "\(why)")
            #expect(notes.count == 1 && notes[0].contains(why) && notes[0].contains("set aside as \(path).corrupt-"), "\(notes)")
            let aside = try Self.asideFiles(in: directory)
            try #require(aside.count == 1, "\(aside)")
            #expect(try String(contentsOfFile: "\(directory)/\(aside[0])", encoding: .utf8) == contents, "the copy is the file as it was")
            #expect(!FileManager.default.fileExists(atPath: path))
            try FileManager.default.removeItem(atPath: "\(directory)/\(aside[0])")
        }
    }

    /// F6: a state file pointing at a secret echoed part of it into the log and the retained config error.
    @Test("nothing of a file that is not a state file is quoted")
    func aSecretIsNeverQuoted() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for secret in ["hunter2-s3cret\n", #"{"password":"hunter2-s3cret"}"#, #"["hunter2-s3cret"]"#, "-----BEGIN PRIVATE KEY-----\nhunter2-s3cret\n"] {
            let path = "\(directory)/secret-\(UUID().uuidString)"
            try secret.write(toFile: path, atomically: false, encoding: .utf8)
            let notes = RemoteConfigurationStore.open(path).notes
            #expect(!notes.isEmpty && !notes.joined().contains("hunter2") && !notes.joined().contains("s3cret"), "\(notes)")
        }
    }

    /// F12: each of these stopped the agent with exit 78, which systemd does not restart.
    @Test("a directory or FIFO at the path, or a missing or read-only directory, keeps documents in memory, said so")
    func anUnusablePathIsReportedNotFatal() throws {
        let directory = try Self.directory()
        defer {
            chmod(directory + "/read-only", 0o755)
            try? FileManager.default.removeItem(atPath: directory)
        }
        try FileManager.default.createDirectory(atPath: "\(directory)/is-a-directory", withIntermediateDirectories: false)
        #expect(mkfifo("\(directory)/fifo", 0o600) == 0)
        try FileManager.default.createDirectory(atPath: "\(directory)/read-only", withIntermediateDirectories: false)
        chmod("\(directory)/read-only", 0o555)
        var cases = [
            ("\(directory)/is-a-directory", "not a writable regular file"), ("\(directory)/fifo", "not a writable regular file"),
            ("\(directory)/missing/remote.json", "no directory"),
        ]
        if geteuid() != 0 { cases.append(("\(directory)/read-only/remote.json", "is not writable")) }  // root writes anyway
        for (path, why) in cases {
            var (store, remote, notes) = RemoteConfigurationStore.open(path)
            #expect(remote == RemoteConfiguration())
            #expect(store.problem?.contains(why) == true && notes == [RemoteConfigurationStore.memoryOnly(store.problem!)], "\(path): \(notes)")
            let warning = store.keep(try Self.accepted(#"{"health_interval":60}"#))
            #expect(warning?.contains(why) == true, "\(path): \(warning ?? "kept")")
        }
        #expect(try Self.asideFiles(in: directory).isEmpty, "what is not a damaged state file is not moved")
    }

    @Test("the version stops at 2^53 - 1 with a refusal; below it the state file always reads back")
    func theVersionHasACeiling() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = "\(directory)/remote.json"
        try #"{"format":"motion-agent remote configuration","version":9007199254740990,"config":{}}"#.write(toFile: path, atomically: false, encoding: .utf8)
        var (store, remote, _) = RemoteConfigurationStore.open(path)
        #expect(remote.version == RemoteConfiguration.maximumVersion - 1)
        let last = try remote.accepting(Array(#"{"health_interval":60}"#.utf8))
        #expect(store.keep(last) == nil && RemoteConfigurationStore.open(path).remote == last, "the largest version reads back")
        #expect { try last.accepting(Array(#"{"health_interval":30}"#.utf8)) } throws: { error in
            (error as? ConfigurationError)?.reason.contains("at its maximum (9007199254740991)") == true
        }
    }
}
