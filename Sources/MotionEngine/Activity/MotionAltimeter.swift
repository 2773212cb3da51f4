import Dispatch
import MotionFusion
import MotionHAL
import MotionMath
import MotionSupervision
import Synchronization

/// The barometer under CoreMotion's `CMAltimeter` and the agent's altitude service: relative altitude
/// (``RelativeAltitudeEstimator``, from the first reading of each run), the standard-atmosphere altitude,
/// and floors climbed and descended (``FloorCounter``) handed to a ``MotionDetectorHost``'s pedometer.
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

        /// Creates a reading.
        /// - Parameters:
        ///   - timestamp: s since boot.
        ///   - relativeAltitude: m.
        ///   - pressure: Pa.
        ///   - temperature: °C, nil without one.
        ///   - absoluteAltitude: m.
        public init(timestamp: Double, relativeAltitude: Double, pressure: Double, temperature: Double?, absoluteAltitude: Double) {
            self.timestamp = timestamp
            self.relativeAltitude = relativeAltitude
            self.pressure = pressure
            self.temperature = temperature
            self.absoluteAltitude = absoluteAltitude
        }
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
    /// floors into ``MotionDetectorHost/shared``.
    public static let shared = MotionAltimeter(
        specification: MotionEngineEnvironment.processVariables()["MOTION_BAROMETER"], floors: .shared)

    /// The sea-level pressure the absolute altitude assumes, Pa (`MOTION_SEA_LEVEL_PRESSURE` in hPa for
    /// ``shared``; default 101 325, the standard atmosphere's).
    public let seaLevelPressure: Double
    /// The time constant the pressure is smoothed with, s (``RelativeAltitudeEstimator``'s; 1 s for floors
    /// in air, less for a depth gauge, whose sensor is quieter and whose diver moves faster).
    public let smoothingTime: Double

    private struct State {
        var device: (any BarometerDevice)?
        var openingError: String?
        var listeners: [UInt64: @Sendable (Update) -> Void] = [:]
        var nextListener: UInt64 = 0
        /// Whether the device is started (changed only under ``MotionAltimeter/lifecycle``).
        var started = false
        var generation: UInt64 = 0
        var estimator: RelativeAltitudeEstimator
        var floorCounter = FloorCounter()
    }

    private let state: Mutex<State>
    /// Held while the device is started or stopped, so that starts and stops from different threads (a
    /// listener added as the last one is removed, a retry, a new device) happen one after the other.
    private let lifecycle = Mutex(())
    private let floors: MotionDetectorHost?
    /// Restarts a barometer that could not start or went away.
    private let supervisor: DeviceSupervisor
    /// How long the altimeter waits before starting a barometer again, s.
    static let restartDelay = 2.0

    /// Creates an altimeter over `device`.
    /// - Parameters:
    ///   - device: the barometer, nil for none.
    ///   - seaLevelPressure: Pa, for the absolute altitude.
    ///   - floors: where floors climbed and descended are recorded (nil: nowhere).
    ///   - smoothingTime: the pressure's smoothing time constant, s (default 1).
    ///   - clock: the clock of the restarts of a barometer that could not start or went away (every
    ///     ``restartDelay`` seconds; the process's by default).
    public init(
        device: (any BarometerDevice)?, seaLevelPressure: Double = BarometricFormula.standardPressure, floors: MotionDetectorHost? = nil,
        smoothingTime: Double = 1, clock: any SupervisionClock = DispatchSupervisionClock()
    ) {
        state = Mutex(State(device: device, estimator: RelativeAltitudeEstimator(smoothingTime: smoothingTime)))
        self.smoothingTime = smoothingTime
        supervisor = DeviceSupervisor(
            backoff: Backoff(first: Self.restartDelay, maximum: Self.restartDelay), clock: clock,
            queue: DispatchQueue(label: "MotionAltimeter.supervision"))
        self.seaLevelPressure = seaLevelPressure
        self.floors = floors
    }

    /// Creates an altimeter over the barometer a specification string names (`sim`, `iio:…`, `i2c:…`,
    /// `none`); one that cannot be parsed or opened leaves it without a device and ``openingError`` says why.
    /// - Parameters:
    ///   - specification: the string, nil for none.
    ///   - floors: where floors are recorded.
    ///   - variable: the variable the string came from, for ``openingError`` (`MOTION_BAROMETER` by default).
    ///   - smoothingTime: the pressure's smoothing time constant, s (default 1).
    public convenience init(
        specification: String?, floors: MotionDetectorHost? = nil, variable: String = "MOTION_BAROMETER", smoothingTime: Double = 1
    ) {
        var device: (any BarometerDevice)?
        var failure: String?
        if let specification {
            do {
                device = try BarometerSpecification(parsing: specification).makeDevice()
            } catch {
                failure = "\(variable) '\(specification)': \(error)"
            }
        }
        let seaLevel = MotionEngineEnvironment.processVariables()["MOTION_SEA_LEVEL_PRESSURE"].flatMap(Double.init).map { $0 * 100 }
        self.init(
            device: device, seaLevelPressure: seaLevel ?? BarometricFormula.standardPressure, floors: floors, smoothingTime: smoothingTime)
        state.withLock { $0.openingError = failure }
    }

    /// Replaces the barometer (nil: none); running listeners carry on with the new one, from a relative
    /// altitude of 0 again.
    /// - Parameter device: the barometer, not started.
    public func setDevice(_ device: (any BarometerDevice)?) {
        lifecycle.withLock { _ in
            let old = state.withLock { state -> (any BarometerDevice)? in
                defer {
                    state.device = device
                    state.openingError = nil
                    state.started = false
                    state.generation &+= 1
                }
                return state.started ? state.device : nil
            }
            old?.stop()
        }
        reconcile()
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
        let token = state.withLock { state -> ListenerToken? in
            guard state.device != nil else { return nil }
            state.nextListener += 1
            state.listeners[state.nextListener] = listener
            return ListenerToken(id: state.nextListener)
        }
        if token != nil { reconcile() }
        return token
    }

    /// Removes a listener; the barometer stops with the last one.
    public func removeListener(_ token: ListenerToken) {
        state.withLock { _ = $0.listeners.removeValue(forKey: token.id) }
        reconcile()
    }

    /// Starts the device when there are listeners and it is not started (restarting it with the
    /// supervisor if it cannot start), stops it when there are none.
    private func reconcile() {
        if reconcileOnce() == .failed { restartLater() }
    }

    /// Restarts the device after ``restartDelay`` seconds, and again after each failure.
    private func restartLater() {
        supervisor.retry { [weak self] in self?.reconcileOnce() ?? .abandoned }
    }

    /// One attempt of ``reconcile()``: whether a start was needed and failed.
    private func reconcileOnce() -> DeviceSupervisor.Outcome {
        lifecycle.withLock { _ -> DeviceSupervisor.Outcome in
            let (device, wanted, started, generation) = state.withLock { state in
                (state.device, !state.listeners.isEmpty, state.started, state.generation)
            }
            guard let device, wanted != started else { return .abandoned }
            guard wanted else {
                state.withLock { state in
                    state.started = false
                    state.generation &+= 1
                }
                device.stop()
                return .abandoned
            }
            let run = generation &+ 1
            state.withLock { state in
                state.generation = run
                state.started = true
                state.estimator = RelativeAltitudeEstimator(smoothingTime: smoothingTime)
                state.floorCounter = FloorCounter()
            }
            do {
                try device.start(sampleRate: device.info.defaultSampleRate) { [weak self] event in
                    self?.receive(event, generation: run)
                }
                return .succeeded
            } catch {
                state.withLock { $0.started = false }
                notify(.fault("\(error)"))
                return .failed
            }
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
                // Not from the device's own queue (stop waits for its deliveries), and only this run.
                DispatchQueue.global().async { [weak self] in
                    guard let self else { return }
                    self.lifecycle.withLock { _ in
                        let device = self.state.withLock { state -> (any BarometerDevice)? in
                            guard state.generation == generation, state.started else { return nil }
                            state.started = false
                            return state.device
                        }
                        device?.stop()
                    }
                    self.restartLater()
                }
            }
        }
    }

    private func notify(_ update: Update) {
        for listener in state.withLock({ Array($0.listeners.values) }) { listener(update) }
    }
}
