import MotionContract
import Testing

@testable import MotionAgent

/// The edge node's store as a pure value: batches in arrival order, the oldest metrics dropped first beyond
/// the limit (a batch cut from its front), the changes a file mirrors, and the memory it holds.
@Suite struct SparkplugHistoryTests {
    static func metrics(_ values: [Float], at time: UInt64) -> [SparkplugMetric] {
        values.enumerated().map { index, value in
            var metric = SparkplugMetric(name: "m\(index)", timestamp: time, value: .float(value))
            metric.properties = [SparkplugProperty(SparkplugProperty.engineeringUnitKey, .string("m/s2"))]
            return metric
        }
    }

    @Test func theOldestMetricsGoFirstCuttingABatchFromItsFront() {
        var history = SparkplugHistory(limit: 5)
        history.startJournal(largestKey: 0)
        history.append(Self.metrics([1, 2, 3], at: 1), of: "accelerometer")
        history.append(Self.metrics([4, 5], at: 2), of: "gyro")
        _ = history.takeChanges()
        history.append(Self.metrics([6, 7, 8, 9], at: 3), of: "accelerometer")
        // 9 kept for 5: the first batch goes whole (3), the second loses its first metric (1).
        #expect(history.count == 5 && history.dropped == 4)
        #expect(history.kept.map(\.key) == [2, 3] && history.kept.first?.metrics.map(\.value) == [.float(5)])
        let changes = history.takeChanges()
        #expect(changes.count == 3)
        #expect(changes.dropFirst().first == .removed(key: 1))
        #expect(changes.last == .stored(SparkplugHistory.Batch(key: 2, device: "gyro", metrics: history.kept.first?.metrics ?? [])))
        #expect(history.kept.allSatisfy { $0.metrics.allSatisfy { $0.isHistorical && $0.properties.isEmpty } })
    }

    @Test func drainingTakesTheChosenDevicesInRunsOfAtMostAChunk() {
        var history = SparkplugHistory(limit: 100)
        history.startJournal(largestKey: 9)
        history.append(Self.metrics([1, 2], at: 1), of: "accelerometer")
        history.append(Self.metrics([3, 4], at: 2), of: "gyro")
        history.append(Self.metrics([5, 6], at: 3), of: "accelerometer")
        history.append(Self.metrics([7, 8], at: 4), of: "accelerometer")
        _ = history.takeChanges()
        let runs = history.drain(chunk: 3) { $0 == "accelerometer" }
        #expect(runs.map(\.device) == ["accelerometer", "accelerometer"])
        #expect(runs.map { $0.metrics.map(\.value) } == [[.float(1), .float(2), .float(5)], [.float(6), .float(7), .float(8)]])
        #expect(history.takeChanges() == [.removed(key: 10), .removed(key: 12), .removed(key: 13)])
        #expect(history.count == 2 && history.kept.map(\.device) == ["gyro"])
    }

    @Test func memoryStaysBoundedByTheLimitWhileTheStoreOverflowsForLong() {
        var history = SparkplugHistory(limit: 4000)
        var largest = 0
        for time in UInt64(1)...20_000 {
            history.append(Self.metrics([Float(time)], at: time), of: "accelerometer")
            largest = max(largest, history.batches.count)
            // Dropped batches hold no metrics while they wait for the array to be compacted.
            if time % 997 == 0 {
                #expect(history.batches.reduce(0) { $0 + $1.metrics.count } == history.count)
            }
        }
        #expect(history.count == 4000 && history.dropped == 16_000)
        #expect(largest <= 2 * 4000 + 256, "the array held \(largest) batches for 4000 kept")
        #expect(history.kept.first?.metrics.first?.timestamp == 16_001)
    }

    @Test func withoutAFileNothingIsListed() {
        var history = SparkplugHistory(limit: 1)
        history.append(Self.metrics([1], at: 1), of: "gyro")
        history.append(Self.metrics([2], at: 2), of: "gyro")
        #expect(history.takeChanges().isEmpty && history.count == 1)
    }
}
