import Foundation
import MQTT
import MotionMath
import MotionModel
import MotionContract
import Testing

@testable import MotionAgent

/// The edge node's store in a real SQLite file (the MQTT client's journal): what one run kept comes back
/// to the next, named, historical and in order; what was forwarded or dropped does not; another node's rows
/// stay in the file for it; a row that is not this node's data is deleted and counted.
@Suite struct SparkplugStoreTests {
    private let directory: String = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("sparkplug-store-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()
    private var path: String { directory + "/store.db" }
    static let press = SparkplugIdentity(group: "plant-1", edgeNode: "press-7", primaryHost: "scada")

    static func batch(_ key: Int64, _ device: String, at time: UInt64) -> SparkplugHistory.Batch {
        var x = SparkplugMetric(name: "x", timestamp: time, value: .float(Float(time) / 8))
        var running = SparkplugMetric(name: SparkplugMetricName.running, timestamp: time, value: .boolean(true))
        var state = SparkplugMetric(name: "state", timestamp: time, value: .string("moving"))
        x.isHistorical = true
        running.isHistorical = true
        state.isHistorical = true
        return SparkplugHistory.Batch(key: key, device: device, metrics: [x, running, state])
    }

    @Test func whatOneRunKeptComesBackToTheNextAndWhatWasForwardedDoesNot() {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = SparkplugStore(path: path, identity: Self.press, limit: 100)
        #expect(first.isDurable && first.largestKey == 0 && first.recovered().batches.isEmpty)
        let kept = (1...4).map { Self.batch(Int64($0), $0 == 2 ? "gyro" : "accelerometer", at: 1_700_000_000_000 + UInt64($0)) }
        first.apply(kept.map(SparkplugHistory.Change.stored))
        var cut = kept[0]
        cut.metrics.removeFirst()
        first.apply([.removed(key: 3), .stored(cut)])
        first.close()

        let second = SparkplugStore(path: path, identity: Self.press, limit: 100)
        let (batches, unreadable) = second.recovered()
        #expect(unreadable == 0 && second.largestKey == 4)
        #expect(batches == [cut, kept[1], kept[3]])
        second.apply([.removed(key: 1), .removed(key: 2), .removed(key: 4)])
        second.close()
        let third = SparkplugStore(path: path, identity: Self.press, limit: 100)
        #expect(third.recovered().batches.isEmpty)
        third.close()
    }

    @Test func anotherNodesRowsStayForItAndForeignRowsAreDeleted() {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let press = SparkplugStore(path: path, identity: Self.press, limit: 100)
        press.apply([.stored(Self.batch(1, "gyro", at: 5))])
        press.close()
        // A row of this node's owner that is not a device's data (what a damaged or hand-made file may hold).
        let journal = OfflineMessageJournal(
            configuration: MQTTDurableOfflineBuffer(path: path, owner: SparkplugStore.owner(Self.press)), limits: .default)
        journal.insert(2, MQTTMessage(topic: "spBv1.0/plant-1/NDATA/press-7", payload: [1, 2, 3], qos: .atLeastOnce, retain: false))
        journal.insert(3, MQTTMessage(topic: "spBv1.0/plant-1/DDATA/press-7/gyro", payload: [0xff, 0xff], qos: .atLeastOnce, retain: false))
        journal.close()

        var lathe = Self.press
        lathe.edgeNode = "lathe-2"
        let other = SparkplugStore(path: path, identity: lathe, limit: 100)
        #expect(other.recovered().batches.isEmpty && other.largestKey == 3)
        other.close()
        let again = SparkplugStore(path: path, identity: Self.press, limit: 100)
        let (batches, unreadable) = again.recovered()
        #expect(batches == [Self.batch(1, "gyro", at: 5)] && unreadable == 2)
        again.close()
        let last = SparkplugStore(path: path, identity: Self.press, limit: 100)
        #expect(last.recovered() == ([Self.batch(1, "gyro", at: 5)], 0))
        last.close()
    }

    @Test func aFileThatCannotBeUsedLeavesTheStoreInMemory() {
        let nowhere = SparkplugStore(path: "/nonexistent/dir/store.db", identity: Self.press, limit: 100)
        #expect(!nowhere.isDurable)
        nowhere.apply([.stored(Self.batch(1, "gyro", at: 5))])
        nowhere.close()
    }
}

extension SparkplugStoreTests {
    /// What the file's row of one device-motion sample costs (the figure Config/README.md gives for
    /// `sparkplug.store_file`): named metrics, historical, each with its timestamp. Measured: 759 bytes
    /// for 23 metrics, 33 each.
    @Test func aDeviceMotionSampleCostsUnderFortyFiveBytesAMetricInTheFile() {
        let sample = DeviceMotionSample(
            timestamp: 1_000_000_000, attitude: Quaternion(w: 0.7071, x: 0.0123, y: -0.7071, z: 0.0045),
            rotationRate: SIMD3(0.0123, -0.456, 1.789), gravity: SIMD3(0.012, -0.0345, -0.9987),
            userAcceleration: SIMD3(0.0012, 0.0456, -0.0078), magneticField: SIMD3(23.4, -5.67, -41.2),
            magneticAccuracy: .high, heading: 271.5, uncertainty: AttitudeUncertaintyEstimate(heading: 2.1, inclination: 0.4))
        var history = SparkplugHistory(limit: 100)
        history.startJournal(largestKey: 0)
        history.append(SamplePayloadEncoder(wallClockOffset: 1_700_000_000).sparkplugMetrics([sample]), of: "device-motion")
        guard case .stored(let batch)? = history.takeChanges().first else {
            Issue.record("nothing stored")
            return
        }
        let bytes = SparkplugPayload(timestamp: batch.metrics.first?.timestamp, metrics: batch.metrics).encoded().count
        let perMetric = Double(bytes) / Double(batch.metrics.count)
        #expect(batch.metrics.count >= 20 && perMetric < 45, "\(bytes) bytes for \(batch.metrics.count) metrics")
    }
}
