/// One accelerometer sample kept by ``CMSensorRecorder``: the sample, the batch it was recorded in and the
/// wall-clock time it was taken.
open class CMRecordedAccelerometerData: CMAccelerometerData {
    private let storedIdentifier: UInt64
    private let storedStartDate: Date

    /// The batch the sample was recorded in: increases with every batch the recorder commits (one a
    /// second), so it can anchor a later query.
    open var identifier: UInt64 { storedIdentifier }

    /// The wall-clock time the sample was taken.
    open var startDate: Date { storedStartDate }

    /// Creates a sample with zero acceleration, batch 0, at the reference date.
    public override init() {
        storedIdentifier = 0
        storedStartDate = Date(timeIntervalSinceReferenceDate: 0)
        super.init()
    }

    /// Creates a recorded sample.
    /// - Parameters:
    ///   - acceleration: g, Apple's signs.
    ///   - timestamp: seconds since boot when the sample was taken (in the process that recorded it).
    ///   - identifier: the batch.
    ///   - startDate: the wall-clock time of the sample.
    init(acceleration: CMAcceleration, timestamp: TimeInterval, identifier: UInt64, startDate: Date) {
        storedIdentifier = identifier
        storedStartDate = startDate
        super.init(acceleration: acceleration, timestamp: timestamp)
    }

    /// Archives the sample (the accelerometer data's values, `identifier`, `startDate`).
    open override func encode(with coder: NSCoder) {
        super.encode(with: coder)
        coder.encodeRecording(identifier: storedIdentifier, startDate: storedStartDate)
    }

    /// Reads an archived sample; nil when a value is missing.
    public required init?(coder: NSCoder) {
        guard let recording = coder.decodeRecording() else { return nil }
        storedIdentifier = recording.identifier
        storedStartDate = recording.startDate
        super.init(coder: coder)
    }
}
