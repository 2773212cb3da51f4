import MotionModel

/// Finds taps and double taps in the user acceleration: a tap is a spike above ``threshold`` that falls
/// back below half of it within ``maximumDuration`` and is followed by ``quietTime`` without another
/// spike start; a second tap starting within ``doubleTapWindow`` of the first makes a double tap (reported
/// instead of two taps). A longer excursion (a shake, a push) is no tap. Pure value, fed at the sensor rate;
/// times in s, accelerations in g.
public struct TapDetector: Sendable {
    /// A tap's peak must exceed this user acceleration, g. Default 1.0 g.
    public let threshold: Double
    /// Longest a tap stays above half ``threshold``, s. Default 0.05 s.
    public let maximumDuration: Double
    /// Window from the first tap's start in which a second one makes a double tap, s. Default 0.4 s.
    public let doubleTapWindow: Double

    private var spike: (start: Double, peak: Double)?
    /// A spike that ran too long: nothing is reported until the signal settles.
    private var tooLong = false
    private var pendingTap: MotionEvent?

    /// Creates a detector; every parameter has the documented default (those of ``TapSettings``).
    public init(threshold: Double = TapSettings().threshold, maximumDuration: Double = 0.05, doubleTapWindow: Double = TapSettings().doubleTapWindow) {
        self.threshold = threshold
        self.maximumDuration = maximumDuration
        self.doubleTapWindow = doubleTapWindow
    }

    /// Feeds one sample.
    /// - Parameters:
    ///   - userAcceleration: its magnitude, g.
    ///   - timestamp: s.
    /// - Returns: a tap once no second one can follow any more, or a double tap once it ended.
    public mutating func update(userAcceleration: Double, timestamp: Double) -> MotionEvent? {
        let below = userAcceleration < threshold / 2
        if let current = spike {
            if !below {
                spike = (current.start, max(current.peak, userAcceleration))
                if timestamp - current.start > maximumDuration { tooLong = true }
                return nil
            }
            spike = nil
            defer { tooLong = false }
            guard !tooLong, current.peak > threshold else { return expirePending(at: timestamp) }
            let tap = MotionEvent(kind: .tap, timestamp: current.start, duration: timestamp - current.start, magnitude: current.peak)
            if let first = pendingTap, current.start - first.timestamp <= doubleTapWindow {
                pendingTap = nil
                return MotionEvent(
                    kind: .doubleTap, timestamp: first.timestamp, duration: timestamp - first.timestamp,
                    magnitude: max(first.magnitude, tap.magnitude))
            }
            let expired = pendingTap
            pendingTap = tap
            return expired
        }
        if !below {
            spike = (timestamp, userAcceleration)
            return nil
        }
        return expirePending(at: timestamp)
    }

    /// The single tap waiting for a second one, once its window has passed.
    private mutating func expirePending(at timestamp: Double) -> MotionEvent? {
        guard let first = pendingTap, timestamp - first.timestamp > doubleTapWindow else { return nil }
        pendingTap = nil
        return first
    }
}
