import MotionContract
import MotionHAL
import MotionMath

/// The samples of a board's gyro, accelerometer and magnetometer topics merged into the rows of a
/// recording (`replay:` reads it): one row per gyroscope sample, with the accelerometer and magnetometer
/// samples nearest to it in time (within half a gyroscope interval; a missing one is written as no
/// reading), converted back to the recording's SI units (rad/s, m/s² of specific force, µT). A pure
/// value; the messages lost on each topic are counted from gaps in `seq`.
struct RemoteRecordingMerger {
    /// How long a sample waits for its neighbours on the other topics before its row is written, s.
    static let delay = 1.0

    private var gyroscope: [VectorSample] = []
    private var accelerometer: [VectorSample] = []
    private var magnetometer: [VectorSample] = []
    private var sequences: [MotionService: SequenceGapCounter] = [:]
    /// Messages lost on each topic (gaps in `seq`), for the topics that lost some.
    var lost: [MotionService: UInt64] { sequences.compactMapValues { $0.lost > 0 ? $0.lost : nil } }
    /// Messages that did not decode.
    private(set) var unreadable = 0

    /// Takes in one message of a data topic (only the raw sensors' are recorded: device motion, steps,
    /// activity and altitude are ignored).
    mutating func receive(_ payload: [UInt8], of service: MotionService) {
        guard SamplePayloadEncoder.valueName(of: service) != nil else { return }
        guard let message = try? SamplePayloadDecoder.vectors(payload, service: service) else {
            unreadable += 1
            return
        }
        sequences[service, default: SequenceGapCounter()].record(message.sequence)
        switch service {
        case .gyro: Self.append(message.samples, to: &gyroscope)
        case .accelerometer: Self.append(message.samples, to: &accelerometer)
        default: Self.append(message.samples, to: &magnetometer)
        }
    }

    /// Appends a message's samples (oldest first) keeping `buffer` in time order; only a message that
    /// arrives out of order (a re-sent one) costs a sort.
    private static func append(_ samples: [VectorSample], to buffer: inout [VectorSample]) {
        let outOfOrder = if let last = buffer.last, let first = samples.first { first.timestamp < last.timestamp } else { false }
        buffer += samples
        if outOfOrder { buffer.sort { $0.timestamp < $1.timestamp } }
    }

    /// The rows whose neighbours have had ``delay`` to arrive (all of them when `finishing`), in time order.
    mutating func rows(finishing: Bool = false) -> [IMUSample] {
        let newest = [gyroscope.last, accelerometer.last, magnetometer.last].compactMap { $0?.timestamp }.max() ?? 0
        var rows: [IMUSample] = []
        var used = 0
        for (index, sample) in gyroscope.enumerated() {
            guard finishing || sample.timestamp < newest - Self.delay else { break }
            let spacing = index + 1 < gyroscope.count
                ? gyroscope[index + 1].timestamp - sample.timestamp
                : index > 0 ? sample.timestamp - gyroscope[index - 1].timestamp : 0.01
            let tolerance = max(spacing / 2, 1e-6)
            rows.append(IMUSample(
                timestamp: UInt64((sample.timestamp * 1e9).rounded()),
                acceleration: Self.nearest(accelerometer, to: sample.timestamp, within: tolerance).map { -$0 * standardGravity },
                rotationRate: sample.value,
                magneticField: Self.nearest(magnetometer, to: sample.timestamp, within: tolerance)))
            used = index + 1
        }
        gyroscope.removeFirst(used)
        // Keep the other topics' samples that a later row may still need.
        let horizon = (gyroscope.first?.timestamp ?? (finishing ? .infinity : newest)) - 1
        accelerometer.removeAll { $0.timestamp < horizon }
        magnetometer.removeAll { $0.timestamp < horizon }
        return rows
    }

    private static func nearest(_ samples: [VectorSample], to time: Double, within tolerance: Double) -> SIMD3<Double>? {
        samples.min { abs($0.timestamp - time) < abs($1.timestamp - time) }
            .flatMap { abs($0.timestamp - time) <= tolerance ? $0.value : nil }
    }
}
