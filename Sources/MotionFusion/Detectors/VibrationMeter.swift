import MotionModel

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The vibration level of a machine in frequency bands, and whether it runs: each band is the specific
/// force high-passed at its lower edge and low-passed at its upper edge (second-order Butterworth each), its
/// RMS (vector magnitude) over the last ``averagingTime`` (a moving window, so that one blow — a drop's
/// landing, a door slammed — leaves the level after that time, however hard it was, and cannot hold it
/// above the threshold for ``confirmTime``). The machine is running
/// once the first band's RMS exceeds ``runningThreshold`` for ``confirmTime`` and stopped once it has
/// stayed below half of it for ``stopTime``. The upper edges should stay below half the sample rate. Pure
/// value; forces in g (device axes), frequencies in Hz, times in s.
public struct VibrationMeter: Sendable {
    /// The bands, Hz. Default one band, 20–100 Hz (a hand-held device's own motion stays mostly below
    /// 20 Hz: on BROAD's hand-moved trials this band's 1 s RMS has a median of 0.016–0.029 g).
    public let bands: [ClosedRange<Double>]
    /// Running above this RMS in the first band, g. Default 0.1 g (BROAD's vibrating phone: 0.42 g; its
    /// hand-moved trials stay below 0.06 g for 95 % of the time).
    public let runningThreshold: Double
    /// Averaging time of the RMS, s. Default 1 s.
    public let averagingTime: Double
    /// How long the level must exceed the threshold for "running", s. Default 2 s.
    public let confirmTime: Double
    /// How long it must stay below half of it for "stopped", s. Default 5 s.
    public let stopTime: Double

    private var filters: [(high: ButterworthHighPass, low: ButterworthLowPass, window: PowerWindow)]
    /// The RMS of each band now, g.
    public private(set) var levels: [Double]
    /// Whether the machine runs now.
    public var isRunning: Bool { state.isOn }
    private var state: DebouncedState
    private var previous: Double?

    /// Creates a meter; every parameter has the documented default (those of ``VibrationSettings``).
    public init(
        bands: [ClosedRange<Double>] = VibrationSettings.defaultBands, runningThreshold: Double = VibrationSettings().threshold,
        averagingTime: Double = 1, confirmTime: Double = VibrationSettings().confirm, stopTime: Double = VibrationSettings().stop
    ) {
        precondition(!bands.isEmpty && bands.allSatisfy { $0.lowerBound > 0 }, "bands above 0 Hz")
        self.bands = bands
        self.runningThreshold = runningThreshold
        self.averagingTime = averagingTime
        self.confirmTime = confirmTime
        self.stopTime = stopTime
        state = DebouncedState(onTime: confirmTime, offTime: stopTime)
        filters = bands.map {
            (ButterworthHighPass(cutoff: $0.lowerBound), ButterworthLowPass(cutoff: $0.upperBound), PowerWindow(length: averagingTime))
        }
        levels = Array(repeating: 0, count: bands.count)
    }

    /// Feeds one sample.
    /// - Parameters:
    ///   - specificForce: device axes, g.
    ///   - timestamp: s.
    /// - Returns: the new running state when it changed.
    public mutating func update(specificForce: SIMD3<Double>, timestamp: Double) -> Bool? {
        guard let last = previous else {
            previous = timestamp
            for index in filters.indices {
                filters[index].high.start(at: specificForce)
                filters[index].low.reset(to: .zero)
            }
            return nil
        }
        previous = timestamp
        let step = timestamp - last
        guard step > 0, step.isFinite else { return nil }
        for index in filters.indices {
            let highPassed = filters[index].high.update(specificForce, deltaTime: step)
            let band = filters[index].low.update(highPassed, deltaTime: step)
            filters[index].window.add(power: (band * band).sum(), over: step, at: timestamp)
            levels[index] = filters[index].window.meanSquare.squareRoot()
        }
        let crossing = isRunning ? levels[0] < runningThreshold / 2 : levels[0] > runningThreshold
        return state.update(changeWanted: crossing, timestamp: timestamp)
    }
}

/// The mean of a signal's power over the last ``length`` seconds: each sample's power weighted by its
/// time step, so that an uneven sample rate averages correctly. Pure value.
struct PowerWindow: Sendable {
    /// The window, s.
    let length: Double
    private var entries: [(time: Double, energy: Double, span: Double)] = []
    private var first = 0
    private var energy = 0.0
    private var span = 0.0

    init(length: Double) { self.length = max(length, 1e-3) }

    /// Adds a sample's power (g²) held for `step` seconds, ending at `time`; forgets what is older than the
    /// window.
    mutating func add(power: Double, over step: Double, at time: Double) {
        guard power.isFinite else { return }
        entries.append((time, power * step, step))
        energy += power * step
        span += step
        while first < entries.count - 1, time - entries[first].time >= length {
            energy -= entries[first].energy
            span -= entries[first].span
            first += 1
        }
        if first > 4_096, first * 2 > entries.count {
            entries.removeFirst(first)
            first = 0
            // Summed afresh now and then: the running sums' rounding does not build up over years.
            energy = entries.reduce(0) { $0 + $1.energy }
            span = entries.reduce(0) { $0 + $1.span }
        }
    }

    /// The mean power over the window, g².
    var meanSquare: Double { span > 0 ? max(energy, 0) / span : 0 }
}
