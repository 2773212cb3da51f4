import Foundation
import Synchronization
import MotionStorage
import MotionTestSupport
import Testing

@testable import MQTT

/// The durable offline buffer's file on its own: what it keeps, how it batches, and what it does with a
/// file that is damaged, foreign or in use.
@Suite("Offline message journal")
struct OfflineMessageJournalTests {
    private let directory: String = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("journal-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    /// The journal's commits and looks at the file run on this clock: the tests advance it.
    private let clock = ManualClock()

    private func journal(_ name: String = "offline.db", interval: Double = 0.05, limits: MQTTOfflineBufferLimits = .default)
        -> OfflineMessageJournal
    {
        OfflineMessageJournal(
            configuration: .init(path: "\(directory)/\(name)", commitInterval: interval), limits: limits, clock: clock)
    }

    /// Collects what a journal reports.
    private final class Problems: Sendable {
        private let all = Mutex<[String]>([])
        /// What was reported, waiting up to a second for the first report (they arrive on a queue).
        var list: [String] {
            _ = eventually(within: .seconds(1)) { !all.withLock { $0.isEmpty } }
            return all.withLock { $0 }
        }
        func attach(to journal: OfflineMessageJournal) { journal.startReporting { problem in self.all.withLock { $0.append(problem) } } }
    }

    private static func message(_ index: Int) -> MQTTMessage {
        MQTTMessage(
            topic: "motion/d/gyro", payload: Array("{\"seq\":\(index)}".utf8) + [0, 0xff], qos: index % 2 == 0 ? .atLeastOnce : .exactlyOnce,
            retain: index % 3 == 0, contentType: "application/json", messageExpiryInterval: index % 5 == 0 ? 60 : nil,
            responseTopic: index % 7 == 0 ? "replies/x" : nil, correlationData: index % 7 == 0 ? [1, 2, 3] : nil)
    }

    @Test("what is kept comes back in key order with every property; acknowledged messages do not")
    func keepsMessagesAcrossReopening() {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = journal()
        #expect(first.takeRecovered().isEmpty && first.isDurable)
        for key in 1...100 { first.insert(Int64(key), Self.message(key)) }
        for key in 1...50 { first.delete(Int64(key)) }
        first.close()
        let second = journal()
        let recovered = second.takeRecovered()
        #expect(recovered.map(\.key) == Array(51...100).map(Int64.init))
        #expect(recovered.map(\.message) == (51...100).map(Self.message))
        #expect(recovered.allSatisfy { abs($0.storedAt - Date().timeIntervalSince1970) < 60 }, "the time it was published")
        #expect(second.takeRecovered().isEmpty, "handed over once, not held twice")
        #expect(second.largestKey == 100 && second.droppedAtOpen == 0)
        second.close()
    }

    @Test("changes are committed in batches at most a commit interval apart, an insert and its delete never written")
    func batchesChanges() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let journal = journal(interval: 0.2)
        for key in 1...500 {
            journal.insert(Int64(key), Self.message(key))
            if key % 2 == 0 { journal.delete(Int64(key)) }  // acknowledged before the commit: nothing to write
            clock.advance(by: 0.001)
        }
        clock.advance(by: 0.4)
        let (commits, rows) = journal.writes
        // The first change is committed at once, the rest at most every 0.2 s: at 0, 0.2, 0.4 and 0.6 s.
        #expect(commits == 4, "\(commits) commits in 0.9 s")
        #expect(rows == 250, "only the 250 messages still kept are written: \(rows)")
        journal.close()
        #expect(self.journal().takeRecovered().count == 250)
    }

    @Test("with a commit interval of 0 every change is committed at once")
    func commitsAtOnce() {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let journal = journal(interval: 0)
        journal.insert(1, Self.message(1))
        clock.advance(by: 0)
        #expect(journal.writes == (1, 1))
        journal.close()
    }

    @Test("the buffer's bounds apply to what is recovered: the oldest go")
    func boundsApplyAtOpening() {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = journal()
        for key in 1...50 { first.insert(Int64(key), Self.message(key)) }
        first.close()
        let bounded = journal(limits: MQTTOfflineBufferLimits(maximumMessages: 20))
        #expect(bounded.takeRecovered().map(\.key) == Array(31...50).map(Int64.init))
        #expect(bounded.droppedAtOpen == 30)
        bounded.close()
        #expect(journal().takeRecovered().count == 20, "the dropped ones are deleted from the file")
    }

    @Test("a file that is not a database, a damaged one and one of another layout are set aside and replaced",
          arguments: ["garbage", "truncated", "layout", "foreign", "columns"])
    func damagedFilesAreSetAside(kind: String) throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = "\(directory)/offline.db"
        switch kind {
        case "garbage":
            try Data((0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }).write(to: URL(fileURLWithPath: path))
        case "truncated":
            let full = journal()
            for key in 1...2_000 { full.insert(Int64(key), Self.message(key)) }
            full.close()
            let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
            try handle.truncate(atOffset: 4_096 * 3 + 100)
            try handle.close()
        case "layout":
            let other = try SQLiteDatabase(path: path)
            try other.execute("CREATE TABLE messages(key INTEGER PRIMARY KEY, note TEXT); PRAGMA user_version = 7;")
        case "foreign":
            // Another program's database (no version set): not ours to add a table to.
            let other = try SQLiteDatabase(path: path)
            try other.execute("CREATE TABLE accounts(name TEXT, balance REAL); INSERT INTO accounts VALUES ('a', 1);")
        default:
            // Our version, but columns missing.
            let other = try SQLiteDatabase(path: path)
            try other.execute("CREATE TABLE messages(key INTEGER PRIMARY KEY, topic TEXT); PRAGMA user_version = 1;")
        }
        let problems = Problems()
        let journal = journal()
        problems.attach(to: journal)
        let report = problems.list.joined(separator: "\n")
        #expect(report.contains("set aside as \(path).corrupt-"), "\(report)")
        let aside = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasPrefix("offline.db.corrupt-") }
        #expect(!aside.isEmpty, "the damaged file is kept for inspection")
        // The replacement works.
        #expect(journal.isDurable && journal.takeRecovered().isEmpty)
        journal.insert(1, Self.message(1))
        journal.close()
        #expect(self.journal().takeRecovered().map(\.key) == [1])
    }

    @Test("a file that cannot be used leaves the buffer in memory, and one in use by another client is not touched")
    func unusableFilesKeepTheBufferInMemory() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let problems = Problems()
        let nowhere = OfflineMessageJournal(configuration: .init(path: "/nonexistent/dir/offline.db"), limits: .default)
        problems.attach(to: nowhere)
        #expect(!nowhere.isDurable)
        #expect(problems.list.first?.contains("kept in memory only") == true, "\(problems.list)")
        nowhere.insert(1, Self.message(1))  // ignored, no crash
        nowhere.close()

        let owner = journal()
        owner.insert(1, Self.message(1))
        clock.advance(by: 0.05)
        let second = Problems()
        let intruder = journal()
        second.attach(to: intruder)
        #expect(!intruder.isDurable, "\(second.list)")
        #expect(second.list.first?.contains("kept in memory only") == true, "\(second.list)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).allSatisfy { !$0.contains("corrupt") },
                "a healthy file in use is not set aside")
        intruder.close()
        owner.close()
        #expect(journal().takeRecovered().map(\.key) == [1])
    }
}

/// Issue 29, F3 and F10: whose the rows are, and a file changed while the journal uses it.
extension OfflineMessageJournalTests {
    private func journal(owner: String, name: String = "offline.db") -> OfflineMessageJournal {
        OfflineMessageJournal(
            configuration: .init(path: "\(directory)/\(name)", commitInterval: 0.05, owner: owner), limits: .default, clock: clock)
    }

    /// F3: agent `sb` started on `sa`'s file published 77 of `sa`'s messages as its own.
    @Test("another owner's rows are kept for it, counted and reported, never handed over")
    func anotherOwnersRowsStayInTheFile() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = journal(owner: "motion/sa at 127.0.0.1:1883")
        for key in 1...3 { first.insert(Int64(key), Self.message(key)) }
        first.close()

        let problems = Problems()
        let second = journal(owner: "motion/sb at 127.0.0.1:1883")
        problems.attach(to: second)
        #expect(second.takeRecovered().isEmpty, "sa's messages are not sb's to send")
        #expect(second.othersMessages == 3 && second.largestKey == 3)
        #expect(problems.list.contains { $0.contains("holds 3 messages of \"motion/sa at 127.0.0.1:1883\"") && $0.contains("not sent") },
                "\(problems.list)")
        #expect(second.lastProblem?.contains("motion/sa") == true)
        second.insert(4, Self.message(4))
        second.close()

        let again = journal(owner: "motion/sa at 127.0.0.1:1883")
        #expect(again.takeRecovered().map(\.key) == [1, 2, 3], "sa gets its own back, in order")
        #expect(again.othersMessages == 1)
        again.close()
        #expect(journal(owner: "motion/sa at 127.0.0.1:1884").takeRecovered().isEmpty, "the same device at another broker is another owner")
    }

    @Test("a file of layout 1 (no owners) is migrated: its rows are the opener's, as that version sent them")
    func aLayout1FileIsMigrated() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let old = try SQLiteDatabase(path: "\(directory)/offline.db")
        try old.execute("""
            CREATE TABLE messages(key INTEGER PRIMARY KEY, topic TEXT NOT NULL, payload BLOB NOT NULL, qos INTEGER NOT NULL,
                retain INTEGER NOT NULL, content_type TEXT, message_expiry INTEGER, response_topic TEXT,
                correlation_data BLOB, stored_at REAL NOT NULL);
            INSERT INTO messages VALUES (7, 'motion/d/gyro', x'7b7d', 1, 0, NULL, NULL, NULL, NULL, 1.5);
            PRAGMA user_version = 1;
            """)
        _ = old
        let journal = journal(owner: "motion/d at b:1")
        #expect(journal.takeRecovered().map(\.key) == [7] && journal.othersMessages == 0)
        journal.close()
        #expect(self.journal(owner: "motion/d at b:1").takeRecovered().map(\.key) == [7], "layout 2 now, with the owner")
    }

    /// F10: health kept queue_durable true, and at the restart the file was set aside with the outage's
    /// messages in it.
    @Test("a file replaced, removed, cut short or overwritten while in use is set aside and written again whole",
          arguments: ["overwritten", "replaced", "removed", "truncated"])
    func aFileChangedWhileInUseIsWrittenAgain(kind: String) throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = "\(directory)/offline.db"
        let problems = Problems()
        let journal = journal(owner: "me")
        problems.attach(to: journal)
        for key in 1...50 { journal.insert(Int64(key), Self.message(key)) }
        clock.advance(by: 0)
        #expect(journal.writes.rows == 50)
        switch kind {
        case "overwritten":
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            try handle.write(contentsOf: Data(repeating: 0x41, count: 4_096))
            try handle.close()
        case "replaced":
            try Data("not a database".utf8).write(to: URL(fileURLWithPath: "\(directory)/other"))
            #expect(rename("\(directory)/other", path) == 0)
        case "removed":
            #expect(unlink(path) == 0)
        default:
            #expect(truncate(path, 0) == 0)
        }
        // Found by the next look at the file (every second), with nothing more written.
        clock.advance(by: OfflineMessageJournal.watchInterval)
        #expect(eventually(within: .seconds(3)) { problems.list.contains { $0.contains("changed while in use") } })
        let report = problems.list.joined(separator: "\n")
        #expect(report.contains("changed while in use") && report.contains("the 50 messages it holds written to a new file"), "\(kind): \(report)")
        #expect(journal.isDurable, "on disk again")
        journal.delete(1)
        journal.insert(51, Self.message(51))
        journal.close()
        #expect(self.journal(owner: "me").takeRecovered().map(\.key) == Array(2...51).map(Int64.init), "\(kind): nothing the outage kept is lost")
        if kind != "removed" {
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory).contains { $0.hasPrefix("offline.db.corrupt-") })
        }
    }
}
