#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The vibration level of a machine in frequency bands, and whether it runs: each band is the specific
/// force high-passed at its lower edge and low-passed at its upper edge (second-order Butterworth each), its RMS (vector magnitude) averaged over ``averagingTime``. The machine is running
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

    private var filters: [(high: ButterworthHighPass, low: ButterworthLowPass, meanSquare: Double)]
    /// The RMS of each band now, g.
    public private(set) var levels: [Double]
    /// Whether the machine runs now.
    public var isRunning: Bool { state.isOn }
    private var state: DebouncedState
    private var previous: Double?

    /// Creates a meter; every parameter has the documented default.
    public init(
        bands: [ClosedRange<Double>] = [20...100], runningThreshold: Double = 0.1, averagingTime: Double = 1,
        confirmTime: Double = 2, stopTime: Double = 5
    ) {
        precondition(!bands.isEmpty && bands.allSatisfy { $0.lowerBound > 0 }, "bands above 0 Hz")
        self.bands = bands
        self.runningThreshold = runningThreshold
        self.averagingTime = averagingTime
        self.confirmTime = confirmTime
        self.stopTime = stopTime
        state = DebouncedState(onTime: confirmTime, offTime: stopTime)
        // f_c = √2 / (2π·τ) for the filter's time-constant form.
        func filter(_ frequency: Double) -> ButterworthLowPass { ButterworthLowPass(timeConstant: 2.squareRoot() / (2 * .pi * frequency)) }
        filters = bands.map { (ButterworthHighPass(cutoff: $0.lowerBound), filter($0.upperBound), 0) }
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
        let gain = min(step / averagingTime, 1)
        for index in filters.indices {
            let highPassed = filters[index].high.update(specificForce, deltaTime: step)
            let band = filters[index].low.update(highPassed, deltaTime: step)
            filters[index].meanSquare += ((band * band).sum() - filters[index].meanSquare) * gain
            levels[index] = filters[index].meanSquare.squareRoot()
        }
        let crossing = isRunning ? levels[0] < runningThreshold / 2 : levels[0] > runningThreshold
        return state.update(changeWanted: crossing, timestamp: timestamp)
    }
}
