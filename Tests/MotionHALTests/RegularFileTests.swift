import Foundation
import MotionHAL
import Testing

/// Reading a small file whole: the contents, and the refusals that keep a wrong path harmless.
@Suite struct RegularFileTests {
    private func temporaryFile(_ bytes: [UInt8]) -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("regular-\(UUID().uuidString)").path
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        return path
    }

    @Test func readsTheWholeFileUpToTheLimit() throws {
        let bytes = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let path = temporaryFile(bytes)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try RegularFile.read(path, maximumSize: bytes.count) == bytes)
        #expect(throws: RegularFile.ReadError.tooLarge(limit: bytes.count - 1)) {
            try RegularFile.read(path, maximumSize: bytes.count - 1)
        }
        let empty = temporaryFile([])
        defer { try? FileManager.default.removeItem(atPath: empty) }
        #expect(try RegularFile.read(empty, maximumSize: 10) == [])
    }

    @Test func refusesWhatIsNotARegularFileBeforeReadingIt() {
        for path in ["/dev/zero", "/tmp", "/dev/null"] {
            #expect(throws: RegularFile.ReadError.notRegularFile, "\(path)") { try RegularFile.read(path, maximumSize: 1 << 20) }
        }
        #expect(throws: RegularFile.ReadError.unreadable(reason: "No such file or directory")) {
            try RegularFile.read("/nonexistent/file.json", maximumSize: 1 << 20)
        }
        #expect("\(RegularFile.ReadError.tooLarge(limit: 1 << 20))" == "larger than 1024 KiB")
    }
}
