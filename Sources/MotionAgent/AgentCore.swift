import Dispatch
import MQTT
import MotionContract
import MotionEngine
import MotionHAL
import Synchronization

/// The agent's control state: the configuration, the connection, each service's state and the devices'
/// faults.
struct AgentState: Sendable {
    /// The configuration in force: the file's with the remote overlay on top.
    var configuration: AgentConfiguration
    /// The configuration file's (with the command line's options), as last read.
    var fileConfiguration: AgentConfiguration
    /// The documents accepted on `{base}/config/set`.
    var remote: RemoteConfiguration
    /// Where they are kept (the state file, or memory only with the reason).
    var remoteStore: RemoteConfigurationStore
    /// Why ``remote`` is not in force, or nil.
    var remoteError: String?
    /// When the configuration in force came into force, seconds since boot (`CLOCK_MONOTONIC`; Unix time
    /// through ``AgentCore/wallClock`` when reported).
    var configurationSince: Double
    var client: (any MessageTransport)?
    var services: ServiceStates
    /// Why the IMU could not be opened (nil: it is open).
    var deviceError: String?
    /// Why the configured barometer could not be opened (nil: it is open, or none is configured).
    var barometerError: String?
    var shuttingDown = false
}

/// What the agent's parts share: the control state, the one serial queue that changes it, the engine and
/// the altimeter the services read, and the agent's identity.
///
/// Threading: ``state`` changes on ``controlQueue`` only (a fault reported from the device's thread is
/// handed there); any thread may read it under its lock. No part writes to the socket while it holds the
/// lock: each takes what it needs and publishes after.
final class AgentCore: Sendable {
    /// The agent's version, reported in `{base}/info`.
    let version: String
    /// The topics of this device.
    let topics: TopicLayout
    /// The device, fusion and routing the services publish from.
    let engine: MotionEngine
    /// The barometer under the `altitude` service and the pedometer's floors.
    let altimeter: MotionAltimeter
    /// The serial owner of the control state: broker events, commands, timers and supervision run here.
    let controlQueue = DispatchQueue(label: "motion-agent.control")
    let state: Mutex<AgentState>
    /// When the agent was made, `CLOCK_MONOTONIC` ns (for the uptime in `health`).
    let startMonotonicNanoseconds = MonotonicClock.now()
    /// Where Unix times come from: the wall clock as the clock supervisor last measured it.
    let wallClock: WallClockAnchor

    /// When the agent was made, Unix time, s (the `started` of `info`): through the anchor, so a wall clock
    /// set after the start (a board without a real-time clock) moves it too.
    var startUnixTime: Double { wallClock.unixTime(of: Double(startMonotonicNanoseconds) / 1e9) }

    init(
        version: String, topics: TopicLayout, engine: MotionEngine, altimeter: MotionAltimeter, state: AgentState,
        wallClock: WallClockAnchor
    ) {
        self.wallClock = wallClock
        self.version = version
        self.topics = topics
        self.engine = engine
        self.altimeter = altimeter
        self.state = Mutex(state)
    }

    /// The configuration in force.
    var configuration: AgentConfiguration { state.withLock { $0.configuration } }

    /// The broker connection, also while the agent shuts down (nil before ``MotionAgent/start()``).
    var client: (any MessageTransport)? { state.withLock { $0.client } }

    /// The broker connection unless the agent shuts down.
    var liveClient: (any MessageTransport)? { state.withLock { $0.shuttingDown ? nil : $0.client } }

    /// Whether ``MotionAgent/shutdown(timeout:)`` has begun.
    var isShuttingDown: Bool { state.withLock { $0.shuttingDown } }

    /// Seconds since the agent was made.
    var uptime: Double { Double(MonotonicClock.now() - startMonotonicNanoseconds) / 1e9 }

    /// Whether the device has the sensors `service` needs.
    func isAvailable(_ service: MotionService) -> Bool {
        // Device motion in its 6-axis frame needs the least: an accelerometer and a gyroscope; so do the
        // steps and the activity, made from it.
        switch service {
        case .accelerometer, .vibration: engine.hasSensors(for: .accelerometer)
        case .gyro: engine.hasSensors(for: .gyroscope)
        case .magnetometer: engine.hasSensors(for: .magnetometer)
        case .deviceMotion, .steps, .activity: engine.hasSensors(for: .deviceMotion(.xArbitraryZVertical))
        case .altitude: altimeter.isAvailable
        }
    }

    /// The sensors `service` needs, as a status names them when they are missing.
    static func sensorName(_ service: MotionService) -> String {
        switch service {
        case .accelerometer, .vibration: "accelerometer"
        case .gyro: "gyroscope"
        case .magnetometer: "magnetometer"
        case .deviceMotion, .steps, .activity: "accelerometer and gyroscope"
        case .altitude: "barometer"
        }
    }

    /// The interval in effect, s: the requested one, but not shorter than the device's sample period.
    func effectiveInterval(_ requested: Double) -> Double {
        guard let rate = engine.deviceInfo?.defaultSampleRate, rate > 0 else { return requested }
        return max(requested, 1 / rate)
    }
}
