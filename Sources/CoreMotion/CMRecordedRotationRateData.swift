/// A gyroscope sample kept for later: the sample and the wall-clock time it was taken.
open class CMRecordedRotationRateData: CMRotationRateData {
    private let storedStartDate: Date

    /// The wall-clock time the sample was taken.
    open var startDate: Date { storedStartDate }

    /// Creates a sample with zero rotation at the reference date.
    public override init() {
        storedStartDate = Date(timeIntervalSinceReferenceDate: 0)
        super.init()
    }

    /// Creates a recorded sample.
    /// - Parameters:
    ///   - rotationRate: rad/s.
    ///   - timestamp: seconds since boot.
    ///   - startDate: the wall-clock time of the sample.
    public init(linuxRotationRate rotationRate: CMRotationRate, timestamp: TimeInterval, startDate: Date) {
        storedStartDate = startDate
        super.init(linuxRotationRate: rotationRate, timestamp: timestamp)
    }

    /// Archives the sample (the rotation-rate data's values and `startDate`).
    open override func encode(with coder: NSCoder) {
        super.encode(with: coder)
        coder.encode(date: storedStartDate, forKey: "startDate")
    }

    /// Reads an archived sample; nil when a value is missing.
    public required init?(coder: NSCoder) {
        guard let startDate = coder.decodeDate(forKey: "startDate") else { return nil }
        storedStartDate = startDate
        super.init(coder: coder)
    }
}
