/// A barometer reading kept for later: the reading, its batch and the wall-clock time it was taken.
open class CMRecordedPressureData: CMAmbientPressureData {
    private let storedIdentifier: UInt64
    private let storedStartDate: Date

    /// The batch the reading was recorded in (increasing).
    open var identifier: UInt64 { storedIdentifier }

    /// The wall-clock time the reading was taken.
    open var startDate: Date { storedStartDate }

    /// Creates a reading of 0 kPa, batch 0, at the reference date.
    public override init() {
        storedIdentifier = 0
        storedStartDate = Date(timeIntervalSinceReferenceDate: 0)
        super.init()
    }

    /// Creates a recorded reading.
    /// - Parameters:
    ///   - pressure: kPa.
    ///   - temperature: °C (NaN when unknown).
    ///   - timestamp: seconds since boot.
    ///   - identifier: the batch.
    ///   - startDate: the wall-clock time of the reading.
    public init(linuxPressure pressure: Double, temperature: Double, timestamp: TimeInterval, identifier: UInt64, startDate: Date) {
        storedIdentifier = identifier
        storedStartDate = startDate
        super.init(linuxPressure: pressure, temperature: temperature, timestamp: timestamp)
    }

    /// Archives the reading (the ambient data's values, `identifier`, `startDate`).
    open override func encode(with coder: NSCoder) {
        super.encode(with: coder)
        coder.encodeRecording(identifier: storedIdentifier, startDate: storedStartDate)
    }

    /// Reads an archived reading; nil when a value is missing.
    public required init?(coder: NSCoder) {
        guard let recording = coder.decodeRecording() else { return nil }
        storedIdentifier = recording.identifier
        storedStartDate = recording.startDate
        super.init(coder: coder)
    }
}
