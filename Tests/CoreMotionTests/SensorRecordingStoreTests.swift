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

    static func rows(_ count: Int, from date: Double, x: Double = 0) -> [SensorRecordingStore.Row] {
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
            #expect(try store.append(Self.rows(50, from: 1000), of: .accelerometer) == 1)
            #expect(try store.append(Self.rows(50, from: 1001), of: .accelerometer) == 2)
            // (from, to]: the sample at exactly `from` is left out, the one at `to` is in.
            let page = try store.samples(of: .accelerometer, after: .after(1000), to: 1001, limit: 1000).samples
            #expect(page.count == 50)
            #expect(page.first?.date == 1000.02 && page.last?.date == 1001)
            #expect(page.last?.batch == 2 && page.first?.batch == 1)
        }
    }

    @Test func pagesContinueAfterTheLastRowInRecordingOrder() throws {
        try Self.withStore { _, store in
            try store.append(Self.rows(120, from: 0), of: .accelerometer)
            var cursor = RecordingCursor.after(-1)
            var seen: [Double] = []
            while true {
                let (samples, next) = try store.samples(of: .accelerometer, after: cursor, to: 10, limit: 50)
                if samples.isEmpty { break }
                seen += samples.map(\.x)
                cursor = next
            }
            #expect(seen == (0..<120).map(Double.init))
        }
    }

    @Test func purgeDropsOldSamplesAndEndedRecordings() throws {
        try Self.withStore { _, store in
            try store.append(Self.rows(10, from: 0), of: .accelerometer)
            try store.append(Self.rows(10, from: 500), of: .accelerometer)
            try store.addRecording(of: .accelerometer, start: 0, end: 100)
            try store.addRecording(of: .accelerometer, start: 500, end: 900)
            try store.purge(.accelerometer, before: 400)
            #expect(try store.samples(of: .accelerometer, after: .after(-1), to: 1000, limit: 100).samples.count == 10)
            #expect(try store.recordingEnd(of: .accelerometer, after: 0) == 900)
            #expect(try store.recordingEnd(of: .accelerometer, after: 900) == nil)
        }
    }

    @Test func theStoreSurvivesReopeningAndRejectsAForeignDatabase() throws {
        try Self.withStore { path, store in
            try store.append(Self.rows(5, from: 10), of: .accelerometer)
            try store.addRecording(of: .accelerometer, start: 10, end: 50)
            let reopened = try SensorRecordingStore(path: path)
            #expect(try reopened.samples(of: .accelerometer, after: .after(0), to: 100, limit: 10).samples.count == 5)
            #expect(try reopened.recordingEnd(of: .accelerometer, after: 20) == 50)
        }
        let foreign = FileManager.default.temporaryDirectory.appendingPathComponent("foreign-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: foreign) }
        let other = try SQLiteDatabase(path: foreign)
        try other.execute("CREATE TABLE notes (text TEXT)")
        #expect(throws: SQLiteError.self) { _ = try SensorRecordingStore(path: foreign) }
    }

    @Test func eachSensorHasItsOwnSamplesAndRecordingsAndANaNIsKept() throws {
        try Self.withStore { _, store in
            try store.append(Self.rows(3, from: 0), of: .accelerometer)
            try store.append([(date: 0.5, timestamp: 1, x: 101.3, y: .nan, z: 0)], of: .pressure)
            try store.addRecording(of: .rotationRate, start: 0, end: 60)
            let pressure = try store.samples(of: .pressure, after: .after(-1), to: 10, limit: 10).samples
            #expect(pressure.count == 1 && pressure[0].x == 101.3 && pressure[0].y.isNaN, "a barometer without a thermometer")
            #expect(pressure[0].batch == 2, "batches are numbered across sensors")
            try store.purge(.accelerometer, before: 1000)
            try store.purge(.pressure, before: 1000)
            #expect(try store.append(Self.rows(1, from: 2000), of: .accelerometer) == 3, "numbers go on after everything is purged")
            #expect(try store.samples(of: .rotationRate, after: .after(-1), to: 10, limit: 10).samples.isEmpty)
            #expect(try store.recordingEnd(of: .rotationRate, after: 1) == 60 && store.recordingEnd(of: .accelerometer, after: 1) == nil)
        }
    }

    @Test func aListEnumeratesEverySampleInOrderAcrossPagesAndAgain() throws {
        try Self.withStore { _, store in
            try store.append(Self.rows(1300, from: 0), of: .accelerometer)  // more than two of the list's 512-sample pages
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

    @Test func enumerationsOfOneListMayBeNestedOrInterleaved() throws {
        try Self.withStore { _, store in
            try store.append(Self.rows(600, from: 0), of: .accelerometer)
            let list = CMSensorDataList(query: .init(store: store, from: -1, to: 1000))
            var outer = NSFastEnumerationIterator(list)
            var pairs = 0
            while let element = outer.next() {
                let x = try #require(element as? CMRecordedAccelerometerData).acceleration.x
                guard x.truncatingRemainder(dividingBy: 200) == 0 else { continue }
                // An inner enumeration of the whole list in the middle of the outer one.
                var inner = NSFastEnumerationIterator(list)
                var count = 0
                while inner.next() != nil { count += 1 }
                #expect(count == 600)
                pairs += 1
            }
            #expect(pairs == 3, "the outer enumeration went on where it was: \(pairs)")
        }
    }

    @Test func aLayoutOneStoreIsMigrated() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("recorder-v1-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let old = try SQLiteDatabase(path: path)
        try old.execute(
            """
            CREATE TABLE recording (start REAL NOT NULL, end REAL NOT NULL);
            CREATE TABLE accelerometer (batch INTEGER NOT NULL, date REAL NOT NULL, timestamp REAL NOT NULL, x REAL NOT NULL, y REAL NOT NULL, z REAL NOT NULL);
            INSERT INTO recording VALUES (10, 4000000000);
            INSERT INTO accelerometer VALUES (7, 11, 1, 0.5, 0, -1), (7, 12, 2, 0.25, 0, -1);
            PRAGMA user_version = 1;
            """)
        let store = try SensorRecordingStore(path: path)
        let samples = try store.samples(of: .accelerometer, after: .after(0), to: 100, limit: 10).samples
        #expect(samples.map(\.x) == [0.5, 0.25] && samples.allSatisfy { $0.batch == 7 })
        #expect(try store.recordingEnd(of: .accelerometer, after: 100) == 4_000_000_000)
        #expect(try store.append(Self.rows(1, from: 20), of: .accelerometer) == 8, "numbering goes on from the old batches")
    }

    @Test func oneProcessRecordsASensorOfAStore() throws {
        try Self.withStore { path, _ in
            let first = RecordingWriterLock(storePath: path, sensor: .accelerometer)
            let second = RecordingWriterLock(storePath: path, sensor: .accelerometer)
            let gyroscope = RecordingWriterLock(storePath: path, sensor: .rotationRate)
            defer { for sensor in RecordedSensor.allCases { try? FileManager.default.removeItem(atPath: "\(path)-writer-\(sensor.rawValue)") } }
            #expect(first.acquire() && first.acquire())
            #expect(!second.acquire(), "the sensor is recorded already")
            #expect(gyroscope.acquire(), "another sensor is not")
            first.release()
            #expect(second.acquire())
        }
    }
}
