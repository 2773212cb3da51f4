@testable import CoreMotion
import Foundation
import MotionEngine
import MotionHAL
import MotionStorage
import Testing

/// The sensor recorder's parts on their own: Apple's limits, the SQLite store, and the list's paged
/// fast enumeration.
@Suite struct SensorRecordingStoreTests {
    /// A store in a fresh temporary file, removed with its WAL files afterwards.
    static func withStore<Result>(_ body: (String, SensorRecordingStore) throws -> Result) throws -> Result {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("recorder-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        return try body(path, try SensorRecordingStore(path: path))
    }

    static func rows(_ count: Int, from date: Double, x: Double = 0) -> [(date: Double, timestamp: Double, x: Double, y: Double, z: Double)] {
        (0..<count).map { index -> (date: Double, timestamp: Double, x: Double, y: Double, z: Double) in
            let offset = Double(index) * 0.02
            return (date: date + offset, timestamp: 100 + offset, x: x + Double(index), y: 0, z: -1)
        }
    }

    @Test func policyFollowsApplesLimits() {
        let policy = SensorRecordingPolicy()
        #expect(policy.sampleRate == 50)
        #expect(policy.recordingEnd(now: 1000, duration: 60) == 1060)
        #expect(policy.recordingEnd(now: 0, duration: 86400) == 43_200.0, "one call records at most 12 h")
        for bad in [0.0, -5, .nan, .infinity] { #expect(policy.recordingEnd(now: 0, duration: bad) == nil) }
        #expect(policy.allowsQuery(from: 0, to: 12 * 3600))
        #expect(!policy.allowsQuery(from: 0, to: 12 * 3600 + 1), "a query spans at most 12 h")
        #expect(!policy.allowsQuery(from: 10, to: 10) && !policy.allowsQuery(from: 10, to: 5) && !policy.allowsQuery(from: .nan, to: 5))
        #expect(policy.oldestKept(now: 4 * 86400) == 86400, "samples are kept 3 days")
    }

    @Test func batchesGetIncreasingIdentifiersAndQueriesAreHalfOpen() throws {
        try Self.withStore { _, store in
            #expect(try store.append(Self.rows(50, from: 1000)) == 1)
            #expect(try store.append(Self.rows(50, from: 1001)) == 2)
            // (from, to]: the sample at exactly `from` is left out, the one at `to` is in.
            let page = try store.samples(from: 1000, to: 1001, afterRow: 0, limit: 1000).samples
            #expect(page.count == 50)
            #expect(page.first?.date == 1000.02 && page.last?.date == 1001)
            #expect(page.last?.batch == 2 && page.first?.batch == 1)
        }
    }

    @Test func pagesContinueAfterTheLastRowInRecordingOrder() throws {
        try Self.withStore { _, store in
            try store.append(Self.rows(120, from: 0))
            var after: Int64 = 0
            var seen: [Double] = []
            while true {
                let (samples, last) = try store.samples(from: -1, to: 10, afterRow: after, limit: 50)
                if samples.isEmpty { break }
                seen += samples.map(\.x)
                after = last
            }
            #expect(seen == (0..<120).map(Double.init))
        }
    }

    @Test func purgeDropsOldSamplesAndEndedRecordings() throws {
        try Self.withStore { _, store in
            try store.append(Self.rows(10, from: 0))
            try store.append(Self.rows(10, from: 500))
            try store.addRecording(start: 0, end: 100)
            try store.addRecording(start: 500, end: 900)
            try store.purge(before: 400)
            #expect(try store.samples(from: -1, to: 1000, afterRow: 0, limit: 100).samples.count == 10)
            #expect(try store.recordingEnd(after: 0) == 900)
            #expect(try store.recordingEnd(after: 900) == nil)
        }
    }

    @Test func theStoreSurvivesReopeningAndRejectsAForeignDatabase() throws {
        try Self.withStore { path, store in
            try store.append(Self.rows(5, from: 10))
            try store.addRecording(start: 10, end: 50)
            let reopened = try SensorRecordingStore(path: path)
            #expect(try reopened.samples(from: 0, to: 100, afterRow: 0, limit: 10).samples.count == 5)
            #expect(try reopened.recordingEnd(after: 20) == 50)
        }
        let foreign = FileManager.default.temporaryDirectory.appendingPathComponent("foreign-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: foreign) }
        let other = try SQLiteDatabase(path: foreign)
        try other.execute("CREATE TABLE notes (text TEXT)")
        #expect(throws: SQLiteError.self) { _ = try SensorRecordingStore(path: foreign) }
    }

    @Test func aListEnumeratesEverySampleInOrderAcrossPagesAndAgain() throws {
        try Self.withStore { _, store in
            try store.append(Self.rows(1300, from: 0))  // more than two of the list's 512-sample pages
            let list = CMSensorDataList(query: .init(store: store, from: -1, to: 1000))
            for _ in 0..<2 {
                var iterator = NSFastEnumerationIterator(list)
                var values: [Double] = []
                while let element = iterator.next() {
                    let sample = try #require(element as? CMRecordedAccelerometerData)
                    values.append(sample.acceleration.x)
                }
                #expect(values == (0..<1300).map(Double.init))
            }
            var empty = NSFastEnumerationIterator(CMSensorDataList())
            #expect(empty.next() == nil && empty.next() == nil)
        }
    }
}
