/// The confidence of a heart-rate value.
public enum CMHighFrequencyHeartRateDataConfidence: Int, Sendable {
    /// Low confidence.
    case low = 0
    /// Medium confidence.
    case medium = 1
    /// High confidence.
    case high = 2
    /// The highest confidence.
    case highest = 3
}

/// Heart rate sampled at 1 Hz (Apple's `CMHighFrequencyHeartRateData`, from a watch's optical sensor).
/// A board has no heart-rate sensor, so no API here produces it; it exists so code that handles it
/// compiles. Immutable.
open class CMHighFrequencyHeartRateData: CMLogItem {
    private let storedHeartRate: Double
    private let storedConfidence: CMHighFrequencyHeartRateDataConfidence
    private let storedDate: Date?

    /// Beats per minute.
    open var heartRate: Double { storedHeartRate }
    /// The confidence of ``heartRate``.
    open var confidence: CMHighFrequencyHeartRateDataConfidence { storedConfidence }
    /// When the value was measured, if known.
    open var date: Date? { storedDate }

    /// Creates a reading of 0 bpm, low confidence, no date.
    public override init() {
        storedHeartRate = 0
        storedConfidence = .low
        storedDate = nil
        super.init()
    }

    /// Archives the reading (`timestamp`, `heartRate`, `confidence`, `date` when known).
    open override func encode(with coder: NSCoder) {
        super.encode(with: coder)
        coder.encode(storedHeartRate, forKey: "heartRate")
        coder.encode(storedConfidence.rawValue, forKey: "confidence")
        if let storedDate { coder.encode(date: storedDate, forKey: "date") }
    }

    /// Reads an archived reading; nil when a value is missing.
    public required init?(coder: NSCoder) {
        guard let heartRate = coder.decodeRequiredDouble(forKey: "heartRate"),
            let confidence = CMHighFrequencyHeartRateDataConfidence(rawValue: coder.decodeInteger(forKey: "confidence"))
        else { return nil }
        storedHeartRate = heartRate
        storedConfidence = confidence
        storedDate = coder.decodeDate(forKey: "date")
        super.init(coder: coder)
    }
}
