import MotionMath

/// Decodes the payloads of the data topics (see ``SamplePayloadEncoder`` for the format): one message,
/// `{"seq","timestamp","ts",…values}`, or a batch, `{"seq":n,"samples":[…]}`, in JSON or CBOR (told
/// apart by the first byte, ``PayloadFormat/of(_:)``).
public enum SamplePayloadDecoder {
    /// One message of a data topic: its sequence number and its samples, oldest first.
    public struct Message<Sample: Sendable & Equatable>: Sendable, Equatable {
        /// The message's `seq` on its topic (from 1; a gap means lost messages).
        public let sequence: UInt64
        /// The samples (one for a single-value message).
        public let samples: [Sample]
        /// Unix time of each sample, s (`ts`), in the same order.
        public let unixTimes: [Double]
        /// Whether the message was written in the batch form.
        public let isBatch: Bool
    }

    /// Decodes a message of an accelerometer, gyro or magnetometer topic.
    /// - Parameters:
    ///   - payload: the message's bytes.
    ///   - service: the topic's service (not device motion).
    /// - Throws: ``PayloadError`` naming the missing or wrong field.
    public static func vectors(_ payload: [UInt8], service: MotionService) throws(PayloadError) -> Message<VectorSample> {
        guard let name = SamplePayloadEncoder.valueName(of: service) else {
            throw PayloadError(fieldPath: "", reason: "\(service.topicName) is not a vector service")
        }
        return try decode(payload) { fields throws(PayloadError) in
            VectorSample(timestamp: try fields.required("timestamp", fields.number), value: try fields.required(name, fields.vector))
        }
    }

    /// Decodes a message of the device-motion topic.
    /// - Throws: ``PayloadError`` naming the missing or wrong field.
    public static func deviceMotion(_ payload: [UInt8]) throws(PayloadError) -> Message<DeviceMotionSample> {
        try decode(payload) { fields throws(PayloadError) in
            let magnetic = try fields.required("magneticField", fields.object)
            let accuracyName = try magnetic.required("accuracy", magnetic.string)
            guard let accuracy = MagneticFieldAccuracy(name: accuracyName) else {
                throw PayloadError(fieldPath: magnetic.fieldPath("accuracy"), reason: "unknown accuracy \"\(accuracyName)\"")
            }
            return DeviceMotionSample(
                timestamp: try fields.required("timestamp", fields.number),
                attitude: try fields.required("attitude", fields.attitude),
                rotationRate: try fields.required("rotationRate", fields.vector), gravity: try fields.required("gravity", fields.vector),
                userAcceleration: try fields.required("userAcceleration", fields.vector),
                magneticField: try magnetic.required("field", magnetic.vector),
                magneticAccuracy: accuracy, heading: try fields.required("heading", fields.measurement),
                uncertainty: try AttitudeUncertaintyEstimate.decode(in: fields))
        }
    }

    /// The measurement time of a data message's first sample (of any data topic), seconds since boot, for
    /// a subscriber that measures latency without decoding the values.
    /// - Throws: ``PayloadError`` when the payload has none.
    public static func firstTimestamp(_ payload: [UInt8]) throws(PayloadError) -> Double {
        let root = try JSONObjectReader<PayloadError>(payload: payload)
        let first = try root.objects("samples")?.first ?? root
        return try first.required("timestamp", first.number)
    }

    /// The `seq` of a data message (of any data topic), for a subscriber that counts lost messages
    /// without decoding the values.
    /// - Throws: ``PayloadError`` when the payload has none.
    public static func sequence(_ payload: [UInt8]) throws(PayloadError) -> UInt64 {
        let root = try JSONObjectReader<PayloadError>(payload: payload)
        return try root.required("seq", root.count)
    }

    /// A sequence number and one or more samples read by `sample`.
    static func decode<Sample>(
        _ payload: [UInt8], sample: (JSONObjectReader<PayloadError>) throws(PayloadError) -> Sample
    ) throws(PayloadError) -> Message<Sample> {
        let root = try JSONObjectReader<PayloadError>(payload: payload)
        let sequence = try root.required("seq", root.count)
        guard let batch = try root.objects("samples") else {
            return Message(
                sequence: sequence, samples: [try sample(root)], unixTimes: [try root.required("ts", root.number)], isBatch: false)
        }
        var samples: [Sample] = []
        var unixTimes: [Double] = []
        samples.reserveCapacity(batch.count)
        for entry in batch {
            samples.append(try sample(entry))
            unixTimes.append(try entry.required("ts", entry.number))
        }
        return Message(sequence: sequence, samples: samples, unixTimes: unixTimes, isBatch: true)
    }
}
