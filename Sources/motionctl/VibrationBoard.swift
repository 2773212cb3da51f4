import MotionContract
import Synchronization

/// The messages of one device's vibration service taken into a ``VibrationView``: `{base}/status`,
/// `{base}/vibration` (summaries), `{base}/vibration/spectrum`, `{base}/vibration/status` and
/// `{base}/state/vibration`, JSON or CBOR.
///
/// Thread-safe: messages arrive on the MQTT client's thread, the view is read on others.
final class VibrationBoard: Sendable {
    /// What a message changed.
    enum Change: Sendable, Equatable {
        /// A new summary (the view holds it and its point of the trend).
        case summary
        /// A new spectrum.
        case spectrum
        /// The availability, the service's status or the retained zone.
        case other
    }

    /// The device's topics.
    let topics: TopicLayout
    private let view: Mutex<VibrationView>

    /// Creates an empty board for the device whose topics are `topics`.
    init(topics: TopicLayout) {
        self.topics = topics
        view = Mutex(VibrationView(topics: topics))
    }

    /// The topics to subscribe to.
    var filters: [String] {
        [topics.status, topics.status(.vibration), topics.state(.vibration), topics.data(.vibration), topics.vibrationSpectrum]
    }

    /// The view as it is now.
    var snapshot: VibrationView { view.withLock { $0 } }

    /// Sets the view's note (the spectrum request's outcome); nil removes it.
    func note(_ text: String?) {
        view.withLock { $0.note = text }
    }

    /// Takes in one message of the device.
    /// - Returns: what it changed; nil for a message of another topic, or one that did not decode (the
    ///   view notes that).
    @discardableResult
    func receive(topic: String, payload: [UInt8]) -> Change? {
        switch topics.kind(ofTopic: topic) {
        case .availability?:
            view.withLock { $0.availability = String(decoding: payload, as: UTF8.self) }
            return .other
        case .status(.vibration)?:
            guard let status = try? ServiceStatus(payload: payload) else { return nil }
            view.withLock { $0.status = status }
            return .other
        case .state(.vibration)?:
            // Empty: the state was removed (its sources switched off).
            let state = payload.isEmpty ? nil : try? MotionStatePayload(payload: payload, name: .vibration)
            guard payload.isEmpty || state != nil else { return nil }
            let severity: MotionStatePayload.Severity? = if case .vibration(_, _, let severity)? = state?.value { severity } else { nil }
            view.withLock { $0.severity = severity }
            return .other
        case .data(.vibration)?:
            do {
                let summary = try VibrationPayload(payload: payload)
                view.withLock { view in
                    view.summary = summary
                    view.trend.append(SIMD2(summary.ts, summary.velocityRMS))
                }
                return .summary
            } catch {
                view.withLock { $0.note = "a summary did not decode: \(error)" }
                return nil
            }
        case .vibrationSpectrum?:
            do {
                let spectrum = try VibrationSpectrumPayload(payload: payload)
                guard spectrum.resolution.isFinite, spectrum.resolution > 0, spectrum.lines > 0 else {
                    view.withLock { $0.note = "a spectrum without lines or with a resolution of \(spectrum.resolution) Hz was skipped" }
                    return nil
                }
                view.withLock { view in
                    view.spectrum = spectrum
                    view.note = nil  // a refused request is answered after all
                }
                return .spectrum
            } catch {
                view.withLock { $0.note = "a spectrum did not decode: \(error)" }
                return nil
            }
        default:
            return nil
        }
    }
}
