import MotionMath
import MotionModel

/// A command received on `{base}/{service}/set`: `start`, `stop`, or a JSON object
/// `{"active":bool,"interval":seconds,"frame":name}` (every field optional, `frame` for device motion only);
/// for the vibration service also `spectrum` (or `{"spectrum":true}`): publish the spectrum now, a request
/// of its own that changes nothing.
public struct ControlCommand: Sendable, Equatable {
    /// Start (`true`) or stop (`false`) the service; `nil` leaves it as it is.
    public var active: Bool?
    /// The new interval between messages, s; `nil` leaves it as it is.
    public var interval: Double?
    /// Device motion only: the new reference frame (written as Apple's case name); `nil` leaves it as it is.
    public var referenceFrame: AttitudeReferenceFrame?
    /// Vibration only: publish the spectrum now (alone: it is never combined with a change).
    public var requestsSpectrum = false

    /// Creates a command.
    public init(active: Bool? = nil, interval: Double? = nil, referenceFrame: AttitudeReferenceFrame? = nil) {
        self.active = active
        self.interval = interval
        self.referenceFrame = referenceFrame
    }

    /// The vibration service's request for its spectrum now.
    public static let spectrumRequest = {
        var command = ControlCommand()
        command.requestsSpectrum = true
        return command
    }()

    /// The largest payload accepted, bytes; a longer one is refused unread.
    public static let maximumPayloadSize = 4_096
    /// The accepted range of intervals, s (1 kHz down to once an hour).
    public static let intervalRange: ClosedRange<Double> = 0.001...3_600

    /// Parses a control payload for `service`.
    /// - Throws: ``ControlCommandError`` saying what is wrong; nothing is changed by a command that throws.
    public static func parse(_ payload: [UInt8], for service: MotionService) throws(ControlCommandError) -> ControlCommand {
        guard payload.count <= maximumPayloadSize else {
            throw ControlCommandError("payload of \(payload.count) bytes exceeds \(maximumPayloadSize)")
        }
        guard let text = String(validating: payload, as: UTF8.self) else {
            throw ControlCommandError("payload is not UTF-8")
        }
        switch text.trimmingBlanks() {
        case "start": return ControlCommand(active: true)
        case "stop": return ControlCommand(active: false)
        case "spectrum":
            guard service == .vibration else { throw ControlCommandError("spectrum is a command of the vibration service") }
            return spectrumRequest
        default: break
        }
        let fields: JSONObjectReader<PayloadError>
        do throws(PayloadError) {
            fields = try JSONObjectReader(bytes: payload)
        } catch {
            throw ControlCommandError("expected start, stop or a JSON object: \(error.reason)")
        }
        do throws(PayloadError) {
            var known: Set<String> = ["active", "interval"]
            if service == .deviceMotion { known.insert("frame") }
            if service == .vibration { known.insert("spectrum") }
            try fields.rejectUnknownKeys(known)
            if let spectrum = try fields.bool("spectrum") {
                guard spectrum, fields.members.count == 1 else {
                    throw PayloadError(fieldPath: "spectrum", reason: "must be true, alone (a request of its own)")
                }
                return spectrumRequest
            }
            let active = try fields.bool("active")
            let interval = try fields.number("interval")
            let frameName = try fields.string("frame")
            if let interval, !intervalRange.contains(interval) {
                throw PayloadError(
                    fieldPath: "interval",
                    reason: "must be between \(intervalRange.lowerBound) and \(intervalRange.upperBound) seconds")
            }
            let frame = frameName.flatMap(AttitudeReferenceFrame.init(rawValue:))
            if let frameName, frame == nil {
                throw PayloadError(fieldPath: "frame", reason: "unknown reference frame \"\(frameName)\"")
            }
            let command = ControlCommand(active: active, interval: interval, referenceFrame: frame)
            if command == ControlCommand() {
                throw PayloadError(fieldPath: "", reason: "command changes nothing")
            }
            return command
        } catch {
            throw ControlCommandError(error.fieldPath.isEmpty ? error.reason : "\(error.fieldPath): \(error.reason)")
        }
    }

    /// The payload that carries this command: `start` or `stop` for a bare start or stop, otherwise the
    /// JSON object with the fields that are set (`{"active":…,"interval":…,"frame":…}`).
    public func payload() -> [UInt8] {
        if requestsSpectrum { return Array("spectrum".utf8) }
        if interval == nil, referenceFrame == nil, let active { return Array((active ? "start" : "stop").utf8) }
        var writer = JSONWriter()
        if let active { writer.field("active", active) }
        if let interval { writer.field("interval", interval) }
        if let referenceFrame { writer.field("frame", referenceFrame.rawValue) }
        return writer.finishedBytes()
    }
}
