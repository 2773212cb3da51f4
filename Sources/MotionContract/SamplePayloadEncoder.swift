
/// Encodes down-sampled values (``VectorSample``, ``DeviceMotionSample``) as the JSON payloads of the
/// MQTT contract, in Apple's names and units (acceleration in g, rotation rate in rad/s, field in µT,
/// angles in rad, heading in degrees).
///
/// In JSON (the default) or CBOR (``PayloadFormat``, the same maps and keys). A message of one value is
/// `{"seq","timestamp","ts",…values}`; a batch is
/// `{"seq":n,"samples":[{"timestamp","ts",…values},…]}`. `seq` counts messages per topic from 1,
/// `timestamp` is seconds since boot (as `CMLogItem`), `ts` Unix time in seconds with fraction. While the
/// wall clock is not synchronized (``WallClockAnchor/isSynchronized``) a message also says
/// `"tsUncertain":true` after its `seq` (since contract 1.9).
public struct SamplePayloadEncoder: Sendable {
    /// Where `ts` comes from: `ts = timestamp + wallClock.offset`.
    public let wallClock: WallClockAnchor
    /// The SenML packs' base name before the service's name (`urn:dev:mac:…_{device_id}:`); the packs'
    /// `bn` is this followed by `{service}:`.
    public var senmlBaseName = "urn:dev:mac:0000000000000000:"

    /// Unix time minus seconds-since-boot time now, s.
    public var wallClockOffset: Double { wallClock.offset }

    /// Creates an encoder with a fixed offset and a synchronized clock (tests, tools, replays).
    /// - Parameter wallClockOffset: Unix time minus `CMLogItem` time (seconds since boot), s.
    public init(wallClockOffset: Double) {
        wallClock = WallClockAnchor(offset: wallClockOffset)
    }

    /// Creates an encoder that follows `wallClock`.
    /// - Parameter wallClock: the agent's anchor, updated by its clock supervisor.
    public init(wallClock: WallClockAnchor) {
        self.wallClock = wallClock
    }

    /// The field holding a vector service's value: `acceleration` (g), `rotationRate` (rad/s) or
    /// `magneticField` (µT); `nil` for the services with several (device motion, steps, activity, altitude).
    public static func valueName(of service: MotionService) -> String? {
        switch service {
        case .accelerometer: "acceleration"
        case .gyro: "rotationRate"
        case .magnetometer: "magneticField"
        case .deviceMotion, .steps, .activity, .altitude, .vibration: nil
        }
    }

    /// Encodes one message of an accelerometer, gyro or magnetometer topic.
    /// - Parameters:
    ///   - values: the message's values (as returned by ``TopicSampler/add(_:)``).
    ///   - service: `accelerometer`, `gyro` or `magnetometer` (not `deviceMotion`: a precondition).
    ///   - seq: the message's sequence number on its topic.
    ///   - batched: write the batch form even for one value (pass `batchSize > 1`, so that a last partial
    ///     batch keeps the topic's format); more or fewer than one value is always a batch.
    ///   - format: JSON (the default), CBOR, or SenML in either.
    /// - Returns: the payload's bytes (UTF-8 JSON, or CBOR).
    public func encode(
        _ values: [VectorSample], service: MotionService, seq: UInt64, batched: Bool = false, format: PayloadFormat = .json
    ) -> [UInt8] {
        guard let name = Self.valueName(of: service) else {
            preconditionFailure("device motion is encoded from DeviceMotionSample values")
        }
        switch format {
        case .json: return encode(values, seq: seq, batched: batched, into: JSONWriter.self) { Self.write($0, name, into: &$1) }
        case .cbor: return encode(values, seq: seq, batched: batched, into: CBORWriter.self) { Self.write($0, name, into: &$1) }
        case .senmlJSON, .senmlCBOR: return senml(values, service: service, format: format) { Self.senmlRecords($0, service: service) }
        }
    }

    /// Encodes one message of the device-motion topic: attitude (quaternion; roll, pitch, yaw in rad with
    /// ``CMAttitude``'s conventions), rotation rate (rad/s), gravity and user acceleration (g), calibrated
    /// magnetic field (µT) with its accuracy, heading (degrees), and the filter's uncertainty (1 σ, degrees)
    /// when the sample has one.
    /// - Parameters:
    ///   - values: the message's values (as returned by ``TopicSampler/add(_:)``).
    ///   - seq: the message's sequence number on its topic.
    ///   - batched: write the batch form even for one value; more or fewer than one value is always a batch.
    ///   - format: JSON (the default), CBOR, or SenML in either.
    /// - Returns: the payload's bytes (UTF-8 JSON, or CBOR).
    public func encode(_ values: [DeviceMotionSample], seq: UInt64, batched: Bool = false, format: PayloadFormat = .json) -> [UInt8] {
        switch format {
        case .json: encode(values, seq: seq, batched: batched, into: JSONWriter.self, writeValues: Self.write)
        case .cbor: encode(values, seq: seq, batched: batched, into: CBORWriter.self, writeValues: Self.write)
        case .senmlJSON, .senmlCBOR: senml(values, service: .deviceMotion, format: format, records: Self.senmlRecords)
        }
    }

    /// The value of a vector sample, under `name`.
    private static func write<Writer: PayloadWriter>(_ sample: VectorSample, _ name: String, into writer: inout Writer) {
        writer.vector(name, x: sample.value.x, y: sample.value.y, z: sample.value.z)
    }

    /// The values of a device-motion sample.
    private static func write<Writer: PayloadWriter>(_ sample: DeviceMotionSample, into writer: inout Writer) {
        writer.attitude(sample.attitude)
        vector("rotationRate", sample.rotationRate, into: &writer)
        vector("gravity", sample.gravity, into: &writer)
        vector("userAcceleration", sample.userAcceleration, into: &writer)
        writer.object("magneticField") { field in
            vector("field", sample.magneticField, into: &field)
            field.field("accuracy", sample.magneticAccuracy.name)
        }
        writer.measurement("heading", sample.heading)
        if let uncertainty = sample.uncertainty {
            writer.object("uncertainty") { estimate in
                estimate.measurement("heading", uncertainty.heading)
                estimate.measurement("inclination", uncertainty.inclination)
            }
        }
    }

    /// One message of values written by `writeValues`, each with its `timestamp` and `ts`.
    func encode<Value: TimestampedSample, Writer: PayloadWriter>(
        _ values: [Value], seq: UInt64, batched: Bool, into _: Writer.Type, writeValues: (Value, inout Writer) -> Void
    ) -> [UInt8] {
        var writer = Writer()
        writer.field("seq", seq)
        let clock = wallClock.reading
        if !clock.isSynchronized { writer.field("tsUncertain", true) }
        let offset = clock.offset
        if values.count == 1, !batched {
            writeSample(values[0], offset: offset, into: &writer, writeValues: writeValues)
        } else {
            writer.array("samples", objects: values) { value, sampleWriter in
                writeSample(value, offset: offset, into: &sampleWriter, writeValues: writeValues)
            }
        }
        return writer.finishedBytes()
    }

    private func writeSample<Value: TimestampedSample, Writer: PayloadWriter>(
        _ value: Value, offset: Double, into writer: inout Writer, writeValues: (Value, inout Writer) -> Void
    ) {
        writer.field("timestamp", value.timestamp)
        writer.field("ts", value.timestamp + offset)
        writeValues(value, &writer)
    }

    private static func vector<Writer: PayloadWriter>(_ name: String, _ value: SIMD3<Double>, into writer: inout Writer) {
        writer.vector(name, x: value.x, y: value.y, z: value.z)
    }
}
