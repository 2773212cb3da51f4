import Dispatch
import MotionFusion
import MotionHAL
import MotionMath
import Synchronization

/// The barometer under CoreMotion's `CMAltimeter` and the agent's altitude service: relative altitude
/// (``RelativeAltitudeEstimator``, from the first reading of each run), the standard-atmosphere altitude,
/// and floors climbed and descended (``FloorCounter``) handed to a ``MotionActivityMonitor``'s pedometer.
///
/// The device runs while at least one listener is added. A fault reaches the listeners as an update; a
/// device that is gone is started again every 2 s until it answers (its relative altitude then starts
/// again from 0). Thread safety: every member may be called from any thread; listeners are called on the
/// device's queue, one at a time, without a lock held, and must return quickly.
public final class MotionAltimeter: Sendable {
    /// One altitude reading.
    public struct Reading: Sendable, Equatable {
        /// When it was measured, s since boot.
        public var timestamp: Double
        /// Altitude relative to the run's first reading, m (smoothed).
        public var relativeAltitude: Double
        /// Pressure, Pa (smoothed).
        public var pressure: Double
        /// The chip's temperature, °C (nil when it has none).
        public var temperature: Double?
        /// Altitude in the standard atmosphere for ``MotionAltimeter/seaLevelPressure``, m: off by about 8 m
        /// per hPa the real sea-level pressure differs (weather moves it by ±30 hPa).
        public var absoluteAltitude: Double
    }

    /// What listeners receive.
    public enum Update: Sendable, Equatable {
        /// New readings, oldest first.
        case readings([Reading])
        /// The barometer failed (it may come back by itself).
        case fault(String)
    }

    /// A registered listener; pass it to ``removeListener(_:)``.
    public struct ListenerToken: Sendable, Hashable {
        fileprivate let id: UInt64
    }

    /// The barometer named by `MOTION_BAROMETER` (see `BarometerSpecification`; none when unset), counting
    /// floors into ``MotionActivityMonitor/shared``.
    public static let shared = MotionAltimeter(
        specification: MotionEngineEnvironment.processVariables()["MOTION_BAROMETER"], floors: .shared)

    /// The sea-level pressure the absolute altitude assumes, Pa (`MOTION_SEA_LEVEL_PRESSURE` in hPa for
    /// ``shared``; default 101 325, the standard atmosphere's).
    public let seaLevelPressure: Double

    private struct State {
        var device: (any BarometerDevice)?
        var openingError: String?
        var listeners: [UInt64: @Sendable (Update) -> Void] = [:]
        var nextListener: UInt64 = 0
        var running = false
        var generation: UInt64 = 0
        var estimator = RelativeAltitudeEstimator()
        var floorCounter = FloorCounter()
    }

    private let state: Mutex<State>
    private let floors: MotionActivityMonitor?

    /// Creates an altimeter over `device`.
    /// - Parameters:
    ///   - device: the barometer, nil for none.
    ///   - seaLevelPressure: Pa, for the absolute altitude.
    ///   - floors: where floors climbed and descended are recorded (nil: nowhere).
    public init(device: (any BarometerDevice)?, seaLevelPressure: Double = BarometricFormula.standardPressure, floors: MotionActivityMonitor? = nil) {
        state = Mutex(State(device: device))
        self.seaLevelPressure = seaLevelPressure
        self.floors = floors
    }

    /// Creates an altimeter over the barometer a specification string names (`sim`, `iio:…`, `i2c:…`,
    /// `none`); one that cannot be parsed or opened leaves it without a device and ``openingError`` says why.
    /// - Parameters:
    ///   - specification: the string, nil for none.
    ///   - floors: where floors are recorded.
    public convenience init(specification: String?, floors: MotionActivityMonitor? = nil) {
        var device: (any BarometerDevice)?
        var failure: String?
        if let specification {
            do {
                device = try BarometerSpecification(parsing: specification).makeDevice()
            } catch {
                failure = "MOTION_BAROMETER '\(specification)': \(error)"
            }
        }
        let seaLevel = MotionEngineEnvironment.processVariables()["MOTION_SEA_LEVEL_PRESSURE"].flatMap(Double.init).map { $0 * 100 }
        self.init(device: device, seaLevelPressure: seaLevel ?? BarometricFormula.standardPressure, floors: floors)
        state.withLock { $0.openingError = failure }
    }

    /// Replaces the barometer (nil: none); running listeners carry on with the new one, from a relative
    /// altitude of 0 again.
    /// - Parameter device: the barometer, not started.
    public func setDevice(_ device: (any BarometerDevice)?) {
        let (old, restart) = state.withLock { state -> ((any BarometerDevice)?, Bool) in
            let old = state.running ? state.device : nil
            state.device = device
            state.openingError = nil
            state.generation &+= 1
            state.running = !state.listeners.isEmpty && device != nil
            return (old, state.running)
        }
        old?.stop()
        if restart { startDevice() }
    }

    /// Whether there is a barometer.
    public var isAvailable: Bool { state.withLock { $0.device != nil } }

    /// What the barometer is (nil without one).
    public var deviceInfo: BarometerInfo? { state.withLock { $0.device?.info } }

    /// Why the barometer named at creation could not be opened (nil when it was, or none was named).
    public var openingError: String? { state.withLock { $0.openingError } }

    /// Adds a listener and starts the barometer if it was not running.
    /// - Parameter listener: called with each update, on the device's queue.
    /// - Returns: its token, or nil without a barometer.
    public func addListener(_ listener: @escaping @Sendable (Update) -> Void) -> ListenerToken? {
        let (token, start) = state.withLock { state -> (ListenerToken?, Bool) in
            guard state.device != nil else { return (nil, false) }
            state.nextListener += 1
            state.listeners[state.nextListener] = listener
            defer { state.running = true }
            return (ListenerToken(id: state.nextListener), !state.running)
        }
        if start { startDevice() }
        return token
    }

    /// Removes a listener; the barometer stops with the last one.
    public func removeListener(_ token: ListenerToken) {
        let device = state.withLock { state -> (any BarometerDevice)? in
            state.listeners[token.id] = nil
            guard state.listeners.isEmpty, state.running else { return nil }
            state.running = false
            state.generation &+= 1
            return state.device
        }
        device?.stop()
    }

    private func startDevice() {
        let (device, generation) = state.withLock { state -> ((any BarometerDevice)?, UInt64) in
            state.generation &+= 1
            state.estimator = RelativeAltitudeEstimator()
            state.floorCounter = FloorCounter()
            return (state.running ? state.device : nil, state.generation)
        }
        guard let device else { return }
        do {
            try device.start(sampleRate: device.info.defaultSampleRate) { [weak self] event in
                self?.receive(event, generation: generation)
            }
        } catch IMUDeviceError.alreadyRunning {
            return
        } catch {
            notify(.fault("\(error)"))
            retry(after: 2, generation: generation)
        }
    }

    private func retry(after seconds: Double, generation: UInt64) {
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [weak self] in
            guard let self, self.state.withLock({ $0.running && $0.generation == generation }) else { return }
            self.startDevice()
        }
    }

    private func receive(_ event: BarometerEvent, generation: UInt64) {
        switch event {
        case .readings(let readings):
            let (update, changes) = state.withLock { state -> ([Reading], [(Double, Bool)]) in
                guard state.generation == generation else { return ([], []) }
                var out: [Reading] = []
                var changes: [(Double, Bool)] = []
                for reading in readings {
                    let time = Double(reading.timestamp) / 1e9
                    guard let altitude = state.estimator.update(pressure: reading.pressure, timestamp: time) else { continue }
                    let floor = state.floorCounter.update(altitude: altitude)
                    if floor != 0 { changes.append((time, floor > 0)) }
                    out.append(Reading(
                        timestamp: time, relativeAltitude: altitude, pressure: state.estimator.pressure, temperature: reading.temperature,
                        absoluteAltitude: BarometricFormula.altitude(pressure: state.estimator.pressure, referencePressure: seaLevelPressure)))
                }
                return (out, changes)
            }
            for (time, up) in changes { floors?.recordFloor(at: time, up: up) }
            if !update.isEmpty { notify(.readings(update)) }
        case .fault(let error):
            guard state.withLock({ $0.generation == generation }) else { return }
            notify(.fault("\(error)"))
            if case .unavailable = error {
                let device = state.withLock { $0.device }
                // Not from the device's own queue: stop waits for deliveries to finish.
                DispatchQueue.global().async { [weak self] in
                    device?.stop()
                    self?.retry(after: 2, generation: generation)
                }
            }
        }
    }

    private func notify(_ update: Update) {
        for listener in state.withLock({ Array($0.listeners.values) }) { listener(update) }
    }
}
