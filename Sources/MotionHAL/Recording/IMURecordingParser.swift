#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import MotionMath

/// Reads ``IMURecording`` CSV from a NUL-terminated byte buffer, one line at a time, numbers with `strtod`.
struct IMURecordingParser {
    private let buffer: UnsafeBufferPointer<UInt8>
    private let source: String
    private var position = 0
    private var lineNumber = 0

    init(buffer: UnsafeBufferPointer<UInt8>, source: String) {
        self.buffer = buffer
        self.source = source
    }

    /// Column indices of the header; optional groups are nil when any of their columns is missing.
    private struct Columns {
        var count: Int
        var time: Int
        var gyroscope: [Int]
        var accelerometer: [Int]
        var magnetometer: [Int]?
        var quaternion: [Int]?
        var movement: Int?
        var names: [String]
        /// Whether each column is read (unknown columns are skipped, whatever they hold).
        var isUsed: [Bool] = []
    }

    mutating func parse() throws(IMURecordingError) -> IMURecording {
        guard let header = nextContentLine() else { throw .empty(source: source) }
        // Bounded before anything is decoded: a huge header would otherwise become as many strings.
        guard header.count <= IMURecording.maximumHeaderLength else { throw .headerTooLarge(source: source) }
        let columns = try columns(of: header)
        var samples: [IMUSample] = []
        var references: [SIMD4<Double>?] = []
        var movement: [Bool] = []
        var values = [Double](repeating: .nan, count: columns.count)
        var firstTime: Double?
        var previousTimestamp: UInt64?
        while let line = nextContentLine() {
            try read(line, into: &values, columns: columns)
            let time = values[columns.time]
            guard time.isFinite else { throw .badValue(source: source, line: lineNumber, column: "t") }
            // Timestamps count from the first sample, so any finite start (negative too) is fine; the span
            // is bounded so that nanoseconds fit UInt64, and they must increase so that the rate is finite.
            let offset = time - (firstTime ?? time)
            firstTime = firstTime ?? time
            guard offset >= 0 else { throw .timeDoesNotIncrease(source: source, line: lineNumber) }
            guard offset <= IMURecording.maximumDuration else { throw .timeOutOfRange(source: source, line: lineNumber) }
            let timestamp = UInt64((offset * 1e9).rounded())
            if let previousTimestamp, timestamp <= previousTimestamp {
                throw .timeDoesNotIncrease(source: source, line: lineNumber)
            }
            previousTimestamp = timestamp
            func vector(_ indices: [Int]) -> SIMD3<Double> { SIMD3(values[indices[0]], values[indices[1]], values[indices[2]]) }
            samples.append(IMUSample(
                timestamp: timestamp,
                acceleration: vector(columns.accelerometer),
                rotationRate: vector(columns.gyroscope),
                // A magnetometer that measures slower than the other sensors leaves `nan` in between: no reading.
                magneticField: columns.magnetometer.map(vector).flatMap { $0.x.isNaN && $0.y.isNaN && $0.z.isNaN ? nil : $0 }))
            if let quaternion = columns.quaternion {
                let q = SIMD4(values[quaternion[0]], values[quaternion[1]], values[quaternion[2]], values[quaternion[3]])
                references.append(q.x.isFinite && q.y.isFinite && q.z.isFinite && q.w.isFinite ? q : nil)
            }
            if let index = columns.movement { movement.append(values[index] == 1) }
        }
        guard samples.count >= 2 else { throw .empty(source: source) }
        var intervals = zip(samples, samples.dropFirst()).map { Double($1.timestamp - $0.timestamp) }
        intervals.sort()
        // Every interval is at least 1 ns, so the rate is finite; it must also be one an IMU can have.
        let sampleRate = 1e9 / intervals[intervals.count / 2]
        guard IMURecording.sampleRateRange.contains(sampleRate) else {
            throw .sampleRateOutOfRange(source: source, rate: sampleRate)
        }
        return IMURecording(samples: samples, referenceAttitudes: references, movement: movement, sampleRate: sampleRate)
    }

    private func columns(of header: Range<Int>) throws(IMURecordingError) -> Columns {
        let names = String(decoding: UnsafeBufferPointer(rebasing: buffer[header]), as: UTF8.self)
            .split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingWhitespace() }
        guard names.count <= IMURecording.maximumColumnCount else { throw .headerTooLarge(source: source) }
        func index(_ name: String) -> Int? { names.firstIndex(of: name) }
        func required(_ name: String) throws(IMURecordingError) -> Int {
            guard let found = index(name) else { throw .missingColumn(source: source, column: name) }
            return found
        }
        func group(_ prefix: String, _ suffixes: [String]) -> [Int]? {
            let found = suffixes.compactMap { index("\(prefix)_\($0)") }
            return found.count == suffixes.count ? found : nil
        }
        var columns = Columns(
            count: names.count, time: try required("t"),
            gyroscope: [try required("gyr_x"), try required("gyr_y"), try required("gyr_z")],
            accelerometer: [try required("acc_x"), try required("acc_y"), try required("acc_z")],
            magnetometer: group("mag", ["x", "y", "z"]), quaternion: group("quat", ["w", "x", "y", "z"]),
            movement: index("movement"), names: names)
        // In steps: Swift 6.0 cannot type-check the sum as one expression in reasonable time.
        var used = [columns.time] + columns.gyroscope + columns.accelerometer
        used += columns.magnetometer ?? []
        used += columns.quaternion ?? []
        if let movement = columns.movement { used.append(movement) }
        columns.isUsed = names.indices.map { used.contains($0) }
        return columns
    }

    /// Parses the comma-separated numbers of `line` into `values` (one per header column).
    private func read(_ line: Range<Int>, into values: inout [Double], columns: Columns) throws(IMURecordingError) {
        guard let base = buffer.baseAddress else { return }
        var cursor = line.lowerBound
        for column in 0..<columns.count {
            guard columns.isUsed[column] else {
                // Skip an unknown column's text up to its separator.
                while cursor < line.upperBound, buffer[cursor] != UInt8(ascii: ",") { cursor += 1 }
                cursor += 1
                continue
            }
            // An empty last field must not let strtod skip the line break and read the next line.
            guard cursor < line.upperBound else {
                throw .badValue(source: source, line: lineNumber, column: columns.names[column])
            }
            let start = UnsafeMutableRawPointer(mutating: base + cursor).assumingMemoryBound(to: CChar.self)
            var end: UnsafeMutablePointer<CChar>?
            let value = strtod(start, &end)
            let consumed = end.map { UnsafeRawPointer($0) - UnsafeRawPointer(start) } ?? 0
            var next = cursor + consumed
            while next < line.upperBound, buffer[next] == UInt8(ascii: " ") { next += 1 }
            let atSeparator = next == line.upperBound || buffer[next] == UInt8(ascii: ",")
            guard consumed > 0, cursor + consumed <= line.upperBound, atSeparator else {
                throw .badValue(source: source, line: lineNumber, column: columns.names[column])
            }
            values[column] = value
            cursor = next + 1
        }
    }

    /// The next line that is neither empty nor a `#` comment, without its line break.
    private mutating func nextContentLine() -> Range<Int>? {
        let end = buffer.count - 1  // the terminating NUL
        while position < end {
            let start = position
            while position < end, buffer[position] != UInt8(ascii: "\n") { position += 1 }
            var lineEnd = position
            if lineEnd > start, buffer[lineEnd - 1] == UInt8(ascii: "\r") { lineEnd -= 1 }
            position += 1
            lineNumber += 1
            if lineEnd > start, buffer[start] != UInt8(ascii: "#") { return start..<lineEnd }
        }
        return nil
    }
}

extension Substring {
    /// The text without leading and trailing spaces and tabs.
    fileprivate func trimmingWhitespace() -> String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" || $0 == "\r" }.reversed())
    }
}
