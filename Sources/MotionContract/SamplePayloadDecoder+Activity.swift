// Decoding the `steps`, `activity` and `altitude` payloads (``SamplePayloadEncoder``'s forms).
extension SamplePayloadDecoder {
    /// Decodes a message of the `steps` topic.
    /// - Throws: ``PayloadError`` naming the missing or wrong field.
    public static func steps(_ payload: [UInt8]) throws(PayloadError) -> Message<PedometerSample> {
        try decode(payload) { fields throws(PayloadError) in
            PedometerSample(
                timestamp: try fields.required("timestamp", fields.number), steps: try fields.required("steps", fields.count),
                distance: try fields.required("distance", fields.measurement), cadence: try fields.measurement("cadence"),
                pace: try fields.measurement("pace"), floorsAscended: try fields.count("floorsAscended"),
                floorsDescended: try fields.count("floorsDescended"))
        }
    }

    /// Decodes a message of the `activity` topic.
    /// - Throws: ``PayloadError`` naming the missing or wrong field.
    public static func activity(_ payload: [UInt8]) throws(PayloadError) -> Message<ActivitySample> {
        try decode(payload) { fields throws(PayloadError) in
            ActivitySample(
                timestamp: try fields.required("timestamp", fields.number), activity: try fields.required("activity", fields.string),
                confidence: try fields.required("confidence", fields.string), since: try fields.required("since", fields.number))
        }
    }

    /// Decodes a message of the `altitude` topic.
    /// - Throws: ``PayloadError`` naming the missing or wrong field.
    public static func altitude(_ payload: [UInt8]) throws(PayloadError) -> Message<AltitudeSample> {
        try decode(payload) { fields throws(PayloadError) in
            AltitudeSample(
                timestamp: try fields.required("timestamp", fields.number),
                relativeAltitude: try fields.required("relativeAltitude", fields.measurement),
                pressure: try fields.required("pressure", fields.measurement),
                absoluteAltitude: try fields.required("absoluteAltitude", fields.measurement))
        }
    }
}
