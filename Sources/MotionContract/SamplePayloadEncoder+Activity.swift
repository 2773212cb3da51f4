// The payloads of the `steps`, `activity` and `altitude` services: the same message and batch forms as the
// sensor topics, with `CMPedometerData`'s, `CMMotionActivity`'s and `CMAltitudeData`'s values.
extension SamplePayloadEncoder {
    /// Encodes one message of the `steps` topic: `steps`, `distance` (m), `floorsAscended` and
    /// `floorsDescended` (with a barometer), since the service started; `cadence` (steps/s) and `pace`
    /// (s/m) while walking.
    /// - Parameters:
    ///   - values: the message's values.
    ///   - seq: the message's sequence number on its topic.
    ///   - batched: write the batch form even for one value.
    ///   - format: JSON (the default), CBOR, or SenML in either.
    /// - Returns: the payload's bytes.
    public func encode(_ values: [PedometerSample], seq: UInt64, batched: Bool = false, format: PayloadFormat = .json) -> [UInt8] {
        switch format {
        case .json: encode(values, seq: seq, batched: batched, into: JSONWriter.self, writeValues: Self.write)
        case .cbor: encode(values, seq: seq, batched: batched, into: CBORWriter.self, writeValues: Self.write)
        case .senmlJSON, .senmlCBOR: senml(values, service: .steps, format: format, records: Self.senmlRecords)
        }
    }

    /// Encodes one message of the `activity` topic: `activity`, `confidence` and `since` (s since boot).
    /// - Parameters:
    ///   - values: the message's values.
    ///   - seq: the message's sequence number on its topic.
    ///   - batched: write the batch form even for one value.
    ///   - format: JSON (the default), CBOR, or SenML in either.
    /// - Returns: the payload's bytes.
    public func encode(_ values: [ActivitySample], seq: UInt64, batched: Bool = false, format: PayloadFormat = .json) -> [UInt8] {
        switch format {
        case .json: encode(values, seq: seq, batched: batched, into: JSONWriter.self, writeValues: Self.write)
        case .cbor: encode(values, seq: seq, batched: batched, into: CBORWriter.self, writeValues: Self.write)
        case .senmlJSON, .senmlCBOR: senml(values, service: .activity, format: format, records: Self.senmlRecords)
        }
    }

    /// Encodes one message of the `altitude` topic: `relativeAltitude` (m), `pressure` (kPa) and
    /// `absoluteAltitude` (m).
    /// - Parameters:
    ///   - values: the message's values.
    ///   - seq: the message's sequence number on its topic.
    ///   - batched: write the batch form even for one value.
    ///   - format: JSON (the default), CBOR, or SenML in either.
    /// - Returns: the payload's bytes.
    public func encode(_ values: [AltitudeSample], seq: UInt64, batched: Bool = false, format: PayloadFormat = .json) -> [UInt8] {
        switch format {
        case .json: encode(values, seq: seq, batched: batched, into: JSONWriter.self, writeValues: Self.write)
        case .cbor: encode(values, seq: seq, batched: batched, into: CBORWriter.self, writeValues: Self.write)
        case .senmlJSON, .senmlCBOR: senml(values, service: .altitude, format: format, records: Self.senmlRecords)
        }
    }

    private static func write<Writer: PayloadWriter>(_ sample: PedometerSample, into writer: inout Writer) {
        writer.field("steps", sample.steps)
        writer.measurement("distance", sample.distance)
        if let cadence = sample.cadence { writer.measurement("cadence", cadence) }
        if let pace = sample.pace { writer.measurement("pace", pace) }
        if let up = sample.floorsAscended { writer.field("floorsAscended", up) }
        if let down = sample.floorsDescended { writer.field("floorsDescended", down) }
    }

    private static func write<Writer: PayloadWriter>(_ sample: ActivitySample, into writer: inout Writer) {
        writer.field("activity", sample.activity)
        writer.field("confidence", sample.confidence)
        writer.field("since", sample.since)
    }

    private static func write<Writer: PayloadWriter>(_ sample: AltitudeSample, into writer: inout Writer) {
        writer.measurement("relativeAltitude", sample.relativeAltitude)
        writer.measurement("pressure", sample.pressure)
        writer.measurement("absoluteAltitude", sample.absoluteAltitude)
    }
}
