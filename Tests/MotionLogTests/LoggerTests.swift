import Foundation
import MotionLog
import Synchronization
import MotionTestSupport
import Testing

/// The one logger: the front type, the handlers, and the two line forms of standard error.
@Suite struct LoggerTests {
    @Test func aLoggerWithItsOwnHandlerCapturesItsLinesWithLabelPriorityAndTime() {
        let capture = CapturingLogHandler()
        let log = Logger(label: "engine", handler: capture)
        let before = Date().timeIntervalSince1970
        log.warning("device gone")
        log.notice("device opened")
        let records = capture.records
        #expect(records.map(\.message) == ["device gone", "device opened"])
        #expect(records.map(\.priority) == [.warning, .notice] && records.allSatisfy { $0.label == "engine" })
        #expect(records.allSatisfy { $0.unixTime >= before - 1 && $0.unixTime <= Date().timeIntervalSince1970 + 1 }, "the wall clock")
        #expect(capture.messages(.notice) == ["device opened"])
    }

    @Test func aLineBelowTheMinimumPriorityIsNeitherWrittenNorBuilt() {
        let capture = CapturingLogHandler()
        let log = Logger(label: "test", handler: capture)
        #expect(LoggingSystem.minimumPriority == .info, "the default")
        let built = Mutex(0)
        func message() -> String {
            built.withLock { $0 += 1 }
            return "detail"
        }
        log.debug(message())
        #expect(capture.records.isEmpty && built.withLock { $0 } == 0, "debug is off by default, and its text is not made")
        LoggingSystem.setMinimumPriority(.debug)
        defer { LoggingSystem.setMinimumPriority(.info) }
        log.debug(message())
        #expect(capture.messages(.debug) == ["detail"] && built.withLock { $0 } == 1)
        #expect(LogPriority.error.isAtLeast(.warning) && !LogPriority.info.isAtLeast(.notice))
        // A logger's own minimum wins over the process's.
        let quiet = Logger(label: "test", handler: capture, minimumPriority: .warning)
        quiet.notice("routine")
        quiet.error("bad")
        #expect(capture.messages() == ["detail", "bad"])
    }

    @Test func theProcessWritesToStandardErrorByDefault() {
        #expect(LoggingSystem.handler is StandardErrorLogHandler, "standard error by default")
    }

    @Test func aTerminalLineHasTheTimeAndNamesWarningsAndErrors() {
        let time = 1_764_626_400.25  // 2025-12-01T22:00:00.250Z
        #expect(LogLineFormat.timestamped.format("connected", priority: .notice, unixTime: time) == "2025-12-01T22:00:00.250Z connected\n")
        #expect(LogLineFormat.timestamped.format("gone", priority: .warning, unixTime: time) == "2025-12-01T22:00:00.250Z warning: gone\n")
        #expect(LogLineFormat.timestamped.format("bad", priority: .error, unixTime: time) == "2025-12-01T22:00:00.250Z error: bad\n")
        #expect(LogLineFormat.timestamped.format("motion-agent: x", priority: .error, unixTime: nil) == "motion-agent: x\n")
    }

    @Test func aJournalLineCarriesThePriorityOnEveryLine() {
        #expect(LogLineFormat.journal.format("gone", priority: .warning, unixTime: 1) == "<4>gone\n")
        #expect(LogLineFormat.journal.format("x", priority: .error, unixTime: nil) == "<3>x\n")
        #expect(LogLineFormat.journal.format("a\nb", priority: .info, unixTime: 1) == "<6>a\n<6>b\n", "one entry per line, each with its priority")
        #expect(LogPriority.error.rawValue == 3 && LogPriority.info.rawValue == 6 && LogPriority.debug.rawValue == 7, "syslog's numbers")
    }

    @Test func theJournalStreamIsRecognisedByDeviceAndInodeOnly() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("journal-\(UUID().uuidString)").path
        let descriptor = open(path, O_CREAT | O_WRONLY, 0o600)
        #expect(descriptor >= 0)
        defer { close(descriptor); unlink(path) }
        var status = stat()
        #expect(fstat(descriptor, &status) == 0)
        let matching = "\(status.st_dev):\(status.st_ino)"
        #expect(JournalStream.isConnected(descriptor: descriptor, journalStream: matching))
        #expect(!JournalStream.isConnected(descriptor: descriptor, journalStream: "\(status.st_dev):\(status.st_ino + 1)"), "another stream")
        #expect(!JournalStream.isConnected(descriptor: descriptor, journalStream: nil), "not under systemd")
        for malformed in ["", ":", "1", "1:2:3", "a:b", "-1:5", " 1:2"] {
            #expect(!JournalStream.isConnected(descriptor: descriptor, journalStream: malformed), "\(malformed)")
        }
        #expect(!JournalStream.isConnected(descriptor: -1, journalStream: matching), "a closed descriptor")
    }

}
