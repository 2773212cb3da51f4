import MotionContract
import MotionFleet
import Synchronization

/// What `motionctl watch DEVICE [SERVICE]` shows: one service of one device as scrolling charts, one per
/// axis (roll, pitch and yaw in degrees, and the heading, for device motion; steps, distance and cadence;
/// activity, confidence and how long it has held; relative altitude, pressure and the standard-atmosphere
/// altitude), with the device's and the
/// service's status, the measured message rate and the messages lost (from `seq`).
///
/// Thread-safe: messages arrive on the MQTT client's thread, rendering happens on another.
final class ChartBoard: Sendable {
    /// The device's topics.
    let topics: TopicLayout
    /// The service charted.
    let service: MotionService
    /// Seconds of history the charts show.
    let window: Double

    private struct State: Sendable {
        var availability = "?"
        var status: ServiceStatus?
        /// Per chart: (local time, value).
        var series: [[(time: Double, value: Double)]] = []
        var arrivals: [Double] = []
        var sequence = SequenceGapCounter()
        /// Local arrival time minus the board's sample time, from the first message.
        var clockOffset: Double?
        var heading: Double?
    }

    private let state = Mutex(State())

    /// The charts' names and units.
    var charts: [(name: String, unit: String)] {
        switch service {
        case .accelerometer: [("x", "g"), ("y", "g"), ("z", "g")]
        case .gyro: [("x", "rad/s"), ("y", "rad/s"), ("z", "rad/s")]
        case .magnetometer: [("x", "µT"), ("y", "µT"), ("z", "µT")]
        case .deviceMotion: [("roll", "°"), ("pitch", "°"), ("yaw", "°")]
        case .steps: [("steps", ""), ("distance", "m"), ("cadence", "steps/s")]
        case .activity: [("activity", "0 stationary, 1 walking, 2 running"), ("confidence", "0 low, 1 medium, 2 high"), ("held for", "s")]
        case .altitude: [("relative altitude", "m"), ("pressure", "kPa"), ("standard-atmosphere altitude", "m")]
        case .vibration: [("velocity RMS", "mm/s"), ("acceleration RMS", "g"), ("running speed", "rpm")]
        }
    }

    /// Creates an empty board.
    init(topics: TopicLayout, service: MotionService, window: Double = 10) {
        self.topics = topics
        self.service = service
        self.window = window
        state.withLock { $0.series = Array(repeating: [], count: 3) }
    }

    /// Takes in one message of the device.
    /// - Parameter arrival: when it arrived, s of a monotonic clock (the same as ``render(now:width:height:)``'s).
    func receive(topic: String, payload: [UInt8], arrival: Double) {
        switch topics.kind(ofTopic: topic) {
        case .availability?:
            state.withLock { $0.availability = DeviceText.text(String(decoding: payload, as: UTF8.self), limit: 16) }
        case .status(let service)? where service == self.service:
            if let status = try? ServiceStatus(payload: payload) { state.withLock { $0.status = status } }
        case .data(let service)? where service == self.service:
            guard let (sequence, values, heading) = Self.decode(payload, service) else { return }
            state.withLock { state in
                state.sequence.record(sequence)
                state.arrivals.append(arrival)
                state.arrivals.removeAll { $0 < arrival - 2 }
                let offset = state.clockOffset ?? arrival - (values.last?.time ?? 0)
                state.clockOffset = offset
                for (time, axes) in values {
                    for index in 0..<3 { state.series[index].append((time + offset, axes[index])) }
                }
                for index in 0..<3 { state.series[index].removeAll { $0.time < arrival - window } }
                if let heading { state.heading = heading }
            }
        default:
            break
        }
    }

    /// The screen: a header and the charts, fitted to `width` × `height` characters (at least 80 × 24 is
    /// comfortable; smaller still draws).
    func render(now: Double, width: Int = 80, height: Int = 24) -> String {
        let snapshot = state.withLock { $0 }
        let rate = Double(snapshot.arrivals.filter { $0 >= now - 2 }.count) / 2
        let status = snapshot.status.map { status in
            !status.available ? "unavailable: \(DeviceText.text(status.error ?? "?", limit: 80))" : status.active ? "active @ \(TextChart.format(status.publishedRateHz)) Hz" : "stopped"
        } ?? "no status"
        var lines = [
            "\(topics.base) [\(snapshot.availability)]  \(service.topicName): \(status)",
            "measured \(TextChart.format(rate)) msg/s  lost \(snapshot.sequence.lost)"
                + (service == .deviceMotion ? "  heading " + (snapshot.heading.map { $0 >= 0 ? TextChart.format($0) + "°" : "n/a" } ?? "-") : ""),
        ]
        let chartHeight = max((height - lines.count - 3) / 3 - 1, 2)
        for (index, chart) in charts.enumerated() {
            lines += TextChart(title: chart.name, unit: chart.unit, window: window)
                .render(snapshot.series[index], now: now, width: width, height: chartHeight)
        }
        // What the device sent (its availability, a status error) is escaped: it cannot move the cursor.
        return lines.map { String(DeviceText.escaped($0).prefix(width)) }.joined(separator: "\n") + "\n"
    }

    /// A data message's `seq`, its samples as (board time, three values) and, for device motion, the
    /// newest heading.
    private static func decode(_ payload: [UInt8], _ service: MotionService)
        -> (UInt64, [(time: Double, axes: SIMD3<Double>)], Double?)?
    {
        if service == .deviceMotion {
            guard let message = try? SamplePayloadDecoder.deviceMotion(payload) else { return nil }
            let degrees = 180 / Double.pi
            let values = message.samples.map { sample in
                let angles = sample.eulerAngles
                return (sample.timestamp, SIMD3(angles.roll, angles.pitch, angles.yaw) * degrees)
            }
            return (message.sequence, values, message.samples.last?.heading)
        }
        switch service {
        case .steps:
            guard let message = try? SamplePayloadDecoder.steps(payload) else { return nil }
            return (message.sequence, message.samples.map { ($0.timestamp, SIMD3(Double($0.steps), $0.distance, $0.cadence ?? 0)) }, nil)
        case .activity:
            guard let message = try? SamplePayloadDecoder.activity(payload) else { return nil }
            let activities = ["stationary", "walking", "running"], confidences = ["low", "medium", "high"]
            let values = message.samples.map { sample in
                let activity = activities.firstIndex(of: sample.activity).map(Double.init) ?? -1
                let confidence = confidences.firstIndex(of: sample.confidence).map(Double.init) ?? -1
                return (sample.timestamp, SIMD3(activity, confidence, sample.timestamp - sample.since))
            }
            return (message.sequence, values, nil)
        case .altitude:
            guard let message = try? SamplePayloadDecoder.altitude(payload) else { return nil }
            return (message.sequence, message.samples.map { ($0.timestamp, SIMD3($0.relativeAltitude, $0.pressure, $0.absoluteAltitude)) }, nil)
        case .vibration:
            guard let message = try? VibrationPayload(payload: payload) else { return nil }
            let values = SIMD3(message.velocityRMS, message.levels.accelerationRMS, message.runningSpeed?.rpm ?? .nan)
            return (message.seq, [(message.timestamp, values)], nil)
        default:
            guard let message = try? SamplePayloadDecoder.vectors(payload, service: service) else { return nil }
            return (message.sequence, message.samples.map { ($0.timestamp, $0.value) }, nil)
        }
    }
}
