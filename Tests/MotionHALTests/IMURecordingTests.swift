import Foundation
import MotionHAL
import MotionTestSupport
import Testing

/// The recording reader on a real BROAD excerpt and on malformed files.
@Suite struct IMURecordingTests {
    static let broadExcerpt = Repository.broadExcerpt.path

    private func parse(_ text: String) throws(IMURecordingError) -> IMURecording {
        try IMURecording.parse(csv: Array(text.utf8), source: "test.csv")
    }

    @Test func readsABroadTrial() throws {
        let recording = try IMURecording.load(contentsOf: Self.broadExcerpt)
        #expect(recording.samples.count == 3429)
        #expect(abs(recording.sampleRate - 285.714) < 0.01)
        #expect(abs(recording.duration - 3428 / 285.714286) < 0.002)
        #expect(recording.samples.first?.timestamp == 0)
        #expect(recording.referenceAttitudes.count == 3429 && recording.movement.count == 3429)
        // 3 s at rest, then moving.
        #expect(recording.movement.prefix(800).allSatisfy { !$0 })
        #expect(recording.movement.suffix(100).allSatisfy { $0 })
        // At rest the accelerometer reads about +9.8 m/s² up, the gyroscope almost nothing, the field tens of µT.
        let first = try #require(recording.samples.first)
        let acceleration = try #require(first.acceleration), field = try #require(first.magneticField)
        #expect(abs((acceleration * acceleration).sum().squareRoot() - 9.81) < 0.3)
        #expect(((first.rotationRate ?? .zero) * (first.rotationRate ?? .zero)).sum().squareRoot() < 0.05)
        #expect((20...80).contains((field * field).sum().squareRoot()))
        // Reference quaternions are unit (w, x, y, z).
        for reference in recording.referenceAttitudes.compactMap({ $0 }).prefix(100) {
            #expect(abs((reference * reference).sum() - 1) < 1e-5)
        }
    }

    @Test func columnsInAnyOrderCommentsCRLFAndMissingOptionalGroups() throws {
        let recording = try parse("# comment\r\nacc_x,acc_y,acc_z,t,gyr_z,gyr_y,gyr_x,extra\r\n0,0,9.81,0.5,3,2,1,x\r\n0,0,9.81,0.51,3,2,1,y\r\n")
        #expect(recording.samples.count == 2)
        #expect(recording.samples[0].rotationRate == SIMD3(1, 2, 3))
        #expect(recording.samples[1].timestamp == 10_000_000)  // relative to the first sample
        #expect(recording.samples[0].magneticField == nil)
        #expect(recording.referenceAttitudes.isEmpty && recording.movement.isEmpty)
        #expect(abs(recording.sampleRate - 100) < 1e-6)
    }

    @Test func nanReferencesAreMissingNotZero() throws {
        let recording = try parse(
            "t,gyr_x,gyr_y,gyr_z,acc_x,acc_y,acc_z,quat_w,quat_x,quat_y,quat_z,movement\n0,0,0,0,0,0,9.8,nan,nan,nan,nan,1\n0.01,0,0,0,0,0,9.8,1,0,0,0,0\n")
        #expect(recording.referenceAttitudes[0] == nil)
        #expect(recording.referenceAttitudes[1] == SIMD4(1, 0, 0, 0))
        #expect(recording.movement == [true, false])
    }

    @Test func errorsNameTheFileLineAndColumn() {
        let header = "t,gyr_x,gyr_y,gyr_z,acc_x,acc_y,acc_z\n"
        #expect(throws: IMURecordingError.missingColumn(source: "test.csv", column: "gyr_y")) {
            try parse("t,gyr_x,gyr_z,acc_x,acc_y,acc_z\n0,0,0,0,0,0\n")
        }
        #expect(throws: IMURecordingError.badValue(source: "test.csv", line: 3, column: "acc_y")) {
            try parse(header + "0,0,0,0,0,0,9.8\n0.01,0,0,0,0,abc,9.8\n")
        }
        // An empty last field must not swallow the next line.
        #expect(throws: IMURecordingError.badValue(source: "test.csv", line: 2, column: "acc_z")) {
            try parse(header + "0,0,0,0,0,0,\n0.01,0,0,0,0,0,9.8\n")
        }
        #expect(throws: IMURecordingError.badValue(source: "test.csv", line: 2, column: "acc_z")) {
            try parse(header + "0,0,0,0,0,0\n0.01,0,0,0,0,0,9.8\n")
        }
        #expect(throws: IMURecordingError.timeDoesNotIncrease(source: "test.csv", line: 3)) {
            try parse(header + "1,0,0,0,0,0,9.8\n0.5,0,0,0,0,0,9.8\n")
        }
        #expect(throws: IMURecordingError.empty(source: "test.csv")) { try parse(header) }
        #expect(throws: IMURecordingError.self) { try IMURecording.load(contentsOf: "/nonexistent/trial.csv") }
        let description = IMURecordingError.badValue(source: "a.csv", line: 7, column: "mag_x").description
        #expect(description == "a.csv:7: mag_x is not a number")
    }

    // MARK: - Hostile files (each once killed motion-agent and motionctl fuse, or took gigabytes)

    private static let header = "t,gyr_x,gyr_y,gyr_z,acc_x,acc_y,acc_z\n"

    private func rows(_ times: [String]) -> String {
        Self.header + times.map { "\($0),0,0,0,0,0,9.8\n" }.joined()
    }

    @Test func aNegativeStartCountsFromTheFirstSample() throws {
        let recording = try parse(rows(["-5", "-4.99", "-4.98"]))
        #expect(recording.samples.map(\.timestamp) == [0, 10_000_000, 20_000_000])
        #expect(abs(recording.sampleRate - 100) < 1e-6)
    }

    @Test func aStartFarFromZeroKeepsNanosecondSpacing() throws {
        // Near 2e10 s a Double resolves about 4 µs, which the offsets keep.
        let recording = try parse(rows(["2e10", "20000000000.01", "20000000000.02"]))
        let expected: [Int64] = [0, 10_000_000, 20_000_000]
        #expect(zip(recording.samples, expected).allSatisfy { abs(Int64($0.timestamp) - $1) < 5_000 })
    }

    @Test func aSpanLongerThanTheMaximumIsRefused() {
        // 2e10 s after the first sample: nanoseconds would not fit UInt64 (this was a trap, SIGILL).
        #expect(throws: IMURecordingError.timeOutOfRange(source: "test.csv", line: 3)) { try parse(rows(["0", "2e10"])) }
        #expect(throws: IMURecordingError.timeOutOfRange(source: "test.csv", line: 5)) {
            try parse(rows(["0", "0.01", "0.02", String(IMURecording.maximumDuration + 1)]))
        }
        #expect(throws: Never.self) { try parse(rows(["0", "0.01", "0.02", String(IMURecording.maximumDuration)])) }
    }

    @Test func repeatedTimestampsAreRefusedInsteadOfGivingAnInfiniteRate() {
        #expect(throws: IMURecordingError.timeDoesNotIncrease(source: "test.csv", line: 3)) { try parse(rows(["1", "1"])) }
        // Equal once rounded to nanoseconds.
        #expect(throws: IMURecordingError.timeDoesNotIncrease(source: "test.csv", line: 3)) {
            try parse(rows(["1", "1.0000000001"]))
        }
        #expect(throws: IMURecordingError.timeDoesNotIncrease(source: "test.csv", line: 4)) {
            try parse(rows(["0", "0.01", "0.01", "0.02"]))
        }
    }

    @Test func implausibleSampleRatesAreRefused() {
        #expect(throws: IMURecordingError.sampleRateOutOfRange(source: "test.csv", rate: 1e9)) {
            try parse(rows(["0", "0.000000001", "0.000000002"]))
        }
        #expect(throws: IMURecordingError.sampleRateOutOfRange(source: "test.csv", rate: 0.01)) {
            try parse(rows(["0", "100", "200"]))
        }
    }

    @Test func aHugeHeaderIsRefusedBeforeItIsDecoded() throws {
        // 10 MB of column names: before the bound it became millions of strings (100 MB took 2.5 GB).
        let names = String(repeating: "x,", count: 5_000_000)
        let clock = ContinuousClock()
        let start = clock.now
        #expect(throws: IMURecordingError.headerTooLarge(source: "test.csv")) { try parse("t,\(names)gyr_x\n0,0\n") }
        #expect(clock.now - start < .seconds(2))
        let columns = (0..<IMURecording.maximumColumnCount).map { "c\($0)" }.joined(separator: ",")
        #expect(throws: IMURecordingError.headerTooLarge(source: "test.csv")) { try parse("t,\(columns)\n") }
        let description = IMURecordingError.headerTooLarge(source: "a.csv").description
        #expect(description.contains("16384 bytes") && description.contains("256 columns"))
    }
}
