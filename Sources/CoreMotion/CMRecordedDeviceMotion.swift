/// A device-motion sample kept for later (Apple's `CMRecordedDeviceMotion`, iOS 27: SensorKit's headphone
/// motion): the sample, its batch and the wall-clock time it was taken.
open class CMRecordedDeviceMotion: CMDeviceMotion {
    private let storedIdentifier: UInt64
    private let storedStartDate: Date

    /// The batch the sample was recorded in (increasing).
    open var identifier: UInt64 { storedIdentifier }
    /// The wall-clock time the sample was taken.
    open var startDate: Date { storedStartDate }

    /// Creates an empty sample, batch 0, at the reference date.
    public override init() {
        storedIdentifier = 0
        storedStartDate = Date(timeIntervalSinceReferenceDate: 0)
        super.init()
    }

    /// Archives the sample (the device motion's values, `identifier`, `startDate`).
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
