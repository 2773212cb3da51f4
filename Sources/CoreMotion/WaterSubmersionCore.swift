import MotionEngine
import MotionFusion
import MotionHAL

/// What a ``CMWaterSubmersionManager`` does, in an object the sensor's thread can reach: a listener on the
/// water pressure sensor feeding a ``WaterSubmersionMonitor``, the cadence of what the delegate hears, and
/// the delegate.
///
/// `@unchecked Sendable`: every mutable property is only touched under `lock`; the owner and the delegate
/// are in ``delegation``.
final class WaterSubmersionCore: @unchecked Sendable {
    /// Seconds between measurements under water (Apple: three a second) and at the surface.
    static let submergedInterval = 1.0 / 3
    static let surfaceInterval = 1.0
    /// Seconds between water temperatures under water.
    static let temperatureInterval = 1.0

    private let lock = NSLock()
    private let sensor: MotionAltimeter
    /// The manager and its delegate.
    let delegation = ManagerDelegation<CMWaterSubmersionManager, any CMWaterSubmersionManagerDelegate>(
        label: "CoreMotion.CMWaterSubmersionManager.delegate")
    private var token: MotionAltimeter.ListenerToken?
    private var monitor: WaterSubmersionMonitor?
    private var reportedState: CMWaterSubmersionEvent.State = .unknown
    private var lastMeasurement = -Double.infinity
    private var lastTemperature = -Double.infinity
    private var faulted = false
    private var uncertainty = 2.0

    init(sensor: MotionAltimeter) {
        self.sensor = sensor
    }

    var temperatureUncertainty: Double {
        get { lock.withLock { uncertainty } }
        set { lock.withLock { uncertainty = newValue } }
    }

    /// The deepest the device may go, m; nil without a sensor.
    var maximumDepth: Double? {
        guard let info = sensor.deviceInfo else { return nil }
        return WaterSubmersionMonitor(sensorRange: Self.range(of: info)).maximumDepth
    }

    private static func range(of info: BarometerInfo) -> ClosedRange<Double> {
        info.pressureRange ?? 0...Double.greatestFiniteMagnitude
    }

    /// Sets the delegate: starts listening to the sensor for one, stops for nil.
    func setDelegate(_ delegate: (any CMWaterSubmersionManagerDelegate)?) {
        delegation.delegate = delegate
        if delegate == nil { stop() } else { start() }
    }

    // Starting and stopping, one at a time (never taken by the sensor's callbacks, so holding it while the
    // listener is added or removed cannot deadlock).
    private let lifecycle = NSLock()

    private func start() {
        lifecycle.withLock {
            guard lock.withLock({ token == nil }) else { return }
            lock.withLock {
                monitor = nil
                reportedState = .unknown
                faulted = false
            }
            let added = sensor.addListener { [weak self] update in self?.handle(update) }
            lock.withLock { token = added }
        }
    }

    func stop() {
        lifecycle.withLock {
            guard let running = lock.withLock({ () -> MotionAltimeter.ListenerToken? in
                defer { token = nil }
                return token
            }) else { return }
            sensor.removeListener(running)
        }
    }

    /// What one sensor update makes the delegate hear.
    private enum Call {
        case event(CMWaterSubmersionEvent)
        case measurement(CMWaterSubmersionMeasurement)
        case temperature(CMWaterTemperature)
        case error(NSError)
    }

    private func handle(_ update: MotionAltimeter.Update) {
        let range = sensor.deviceInfo.map(Self.range(of:)) ?? 0...Double.greatestFiniteMagnitude
        let pending = lock.withLock { () -> [Call] in
            switch update {
            case .fault(let message):
                guard !faulted else { return [] }
                faulted = true
                return [.error(CMErrorNotAvailable.nsError("the water pressure sensor failed: \(message)"))]
            case .readings(let readings):
                faulted = false
                return readings.flatMap { self.calls(for: $0, range: range) }
            }
        }
        deliver(pending)
    }

    /// The calls one reading makes (called under `lock`).
    private func calls(for reading: MotionAltimeter.Reading, range: ClosedRange<Double>) -> [Call] {
        if monitor == nil {
            monitor = WaterSubmersionMonitor(sensorRange: range, surfacePressure: WaterPressureSensor.surfacePressure.withLock { $0 })
        }
        guard var current = monitor else { return [] }
        let (measurement, _) = current.update(pressure: reading.pressure, timestamp: reading.timestamp)
        monitor = current
        // The surface learned here is the sensor's, for the next manager (or the next start of this one).
        WaterPressureSensor.surfacePressure.withLock { $0 = current.surfacePressure }
        let date = BootClock.date(atUptime: reading.timestamp)
        var calls: [Call] = []
        if measurement.state != .sensorDepthError {
            let state: CMWaterSubmersionEvent.State = current.isSubmerged ? .submerged : .notSubmerged
            if state != reportedState {
                reportedState = state
                calls.append(.event(CMWaterSubmersionEvent(date: date, state: state)))
            }
        }
        let interval = current.isSubmerged ? Self.submergedInterval : Self.surfaceInterval
        if reading.timestamp - lastMeasurement >= interval - 1e-3 {
            lastMeasurement = reading.timestamp
            calls.append(.measurement(CMWaterSubmersionMeasurement(
                date: date, depth: measurement.depth, pressure: measurement.pressure.map { $0 / 1000 },
                surfacePressure: measurement.surfacePressure / 1000, state: Self.depthState(measurement.state))))
        }
        if current.isSubmerged, let temperature = reading.temperature, reading.timestamp - lastTemperature >= Self.temperatureInterval - 1e-3 {
            lastTemperature = reading.timestamp
            calls.append(.temperature(CMWaterTemperature(date: date, temperature: temperature, uncertainty: uncertainty)))
        }
        return calls
    }

    private static func depthState(_ state: WaterSubmersionMonitor.DepthState) -> CMWaterSubmersionMeasurement.DepthState {
        switch state {
        case .notSubmerged: .notSubmerged
        case .submergedShallow: .submergedShallow
        case .submergedDeep: .submergedDeep
        case .approachingMaxDepth: .approachingMaxDepth
        case .pastMaxDepth: .pastMaxDepth
        case .sensorDepthError: .sensorDepthError
        }
    }

    private func deliver(_ calls: [Call]) {
        guard !calls.isEmpty else { return }
        delegation.notify { manager, delegate in
            for call in calls {
                switch call {
                case .event(let event): delegate.manager(manager, didUpdate: event)
                case .measurement(let measurement): delegate.manager(manager, didUpdate: measurement)
                case .temperature(let temperature): delegate.manager(manager, didUpdate: temperature)
                case .error(let error): delegate.manager(manager, errorOccurred: error)
                }
            }
        }
    }
}
