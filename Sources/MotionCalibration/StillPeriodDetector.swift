import MotionFusion
import MotionHAL

/// Finds the periods in which a board lies still, from its samples in order: the samples are cut into
/// blocks of ``blockDuration``; a block is still when its angular velocity and specific force stay within
/// the thresholds of their means, and consecutive still blocks form a still run as long as the whole run
/// stays within them too (so a slow, smooth tilt does not pass as still). A run of the required duration is
/// handed out and the search starts over.
public struct StillPeriodDetector: Sendable {
    /// Length of one block, s (sample time).
    public static let blockDuration = 0.25

    /// What counts as still.
    public let thresholds: StillnessThresholds
    /// How long a still period must last, s.
    public let requiredDuration: Double

    private var block: [IMUSample] = []
    private var run: [IMUSample] = []

    /// Creates a detector.
    /// - Parameters:
    ///   - thresholds: what counts as still.
    ///   - requiredDuration: how long a still period must last, s.
    public init(thresholds: StillnessThresholds, requiredDuration: Double) {
        self.thresholds = thresholds
        self.requiredDuration = requiredDuration
    }

    /// How long the board has been still so far, s.
    public var stillDuration: Double { run.timeSpan }

    /// Feeds one sample (samples without an accelerometer reading are ignored).
    /// - Returns: the samples of a complete still period, once one is; nil otherwise.
    public mutating func add(_ sample: IMUSample) -> [IMUSample]? {
        guard sample.acceleration != nil else { return nil }
        block.append(sample)
        guard block.timeSpan >= Self.blockDuration else { return nil }
        let completed = block
        block = []
        if isStill(completed) {
            run = isStill(run + completed) ? run + completed : completed
        } else {
            run = []
        }
        guard run.timeSpan >= requiredDuration else { return nil }
        defer { run = [] }
        return run
    }

    /// Starts over (after the board was moved on purpose, for example).
    public mutating func reset() {
        block = []
        run = []
    }

    private func isStill(_ samples: [IMUSample]) -> Bool {
        let rates = samples.compactMap(\.rotationRate)
        return thresholds.areStill(
            rotationRate: rates.count == samples.count ? VectorStatistics(rates) : nil,
            specificForce: VectorStatistics(samples.compactMap(\.acceleration)))
    }
}

extension Array where Element == IMUSample {
    /// Time from the first to the last sample, s (0 for fewer than two).
    var timeSpan: Double {
        guard let first, let last else { return 0 }
        return Double(last.timestamp - first.timestamp) / 1e9
    }
}
