import MotionMath

/// Builds one payload object field by field, in JSON (``JSONWriter``) or CBOR (``CBORWriter``): the data
/// topics' encoder is written once against this and gives either format.
///
/// Keys are the contract's field names. A measurement (an axis, an angle, a heading) may be written with
/// less precision than a number in general (a time): CBOR writes it as a single-precision float.
public protocol PayloadWriter {
    /// Starts an empty object.
    init()
    /// `key`: a number, written exactly (times, counters given as doubles).
    mutating func field(_ key: String, _ value: Double)
    /// `key`: a measured value; CBOR writes it as a single-precision float (7 significant digits, far finer
    /// than any MEMS sensor's resolution).
    mutating func measurement(_ key: String, _ value: Double)
    /// `key`: an unsigned integer.
    mutating func field(_ key: String, _ value: UInt64)
    /// `key`: a text string.
    mutating func field(_ key: String, _ value: String)
    /// `key`: `true` or `false`.
    mutating func field(_ key: String, _ value: Bool)
    /// `key`: `{"x","y","z"}` of measurements.
    mutating func vector(_ key: String, x: Double, y: Double, z: Double)
    /// `key`: an object with the fields `body` writes.
    mutating func object(_ key: String, _ body: (inout Self) -> Void)
    /// `key`: an array of objects, one per element, with the fields `body` writes for it.
    mutating func array<Elements: Collection>(_ key: String, objects elements: Elements, _ body: (Elements.Element, inout Self) -> Void)
    /// `key`: an array of coarse measurements, each rounded to half precision (``HalfPrecision``: 11
    /// significant bits from 6.1 × 10⁻⁵ to 65504, smaller magnitudes written as 0): a spectrum's lines,
    /// where a line's level is worth three digits and the count of lines makes the bytes. CBOR writes 3 bytes
    /// a value; JSON the shortest decimal that reads back as the same half-precision number (within 0.1 %
    /// of the value). A NaN or infinite value (or one beyond 65504) is `null`.
    mutating func coarseMeasurements(_ key: String, _ values: [Double])
    /// The finished object's bytes.
    consuming func finishedBytes() -> [UInt8]
}

extension PayloadWriter {
    /// `attitude`: `{"quaternion":{"x","y","z","w"},"roll","pitch","yaw"}`, the quaternion's components
    /// and ``EulerAngles`` (rad, `CMAttitude`'s conventions) as measurements.
    /// - Parameter attitude: device → reference unit quaternion.
    mutating func attitude(_ attitude: Quaternion) {
        let angles = EulerAngles(attitude)
        object("attitude") { entry in
            entry.object("quaternion") { components in
                components.measurement("x", attitude.x)
                components.measurement("y", attitude.y)
                components.measurement("z", attitude.z)
                components.measurement("w", attitude.w)
            }
            entry.measurement("roll", angles.roll)
            entry.measurement("pitch", angles.pitch)
            entry.measurement("yaw", angles.yaw)
        }
    }
}

extension JSONObjectReader {
    /// Member `key` as an `attitude` object (``PayloadWriter/attitude(_:)``): its quaternion; nil when
    /// absent (the angles are derived values and not read).
    /// - Throws: `Failure` naming the component that is missing or not a measurement.
    func attitude(_ key: String) throws(Failure) -> Quaternion? {
        guard let entry = try object(key) else { return nil }
        let quaternion = try entry.required("quaternion", entry.object)
        return Quaternion(
            w: try quaternion.required("w", quaternion.measurement), x: try quaternion.required("x", quaternion.measurement),
            y: try quaternion.required("y", quaternion.measurement), z: try quaternion.required("z", quaternion.measurement))
    }
}

/// The rounding of ``PayloadWriter/coarseMeasurements(_:_:)``, the same for both formats.
enum HalfPrecision {
    /// `value` rounded to the nearest half-precision number; magnitudes below the smallest normal one
    /// (6.1 × 10⁻⁵) are 0, since libcbor 0.8 (Debian 12) encodes subnormal halves wrongly; nil when not
    /// finite or beyond ±65504.
    static func rounded(_ value: Double) -> Float16? {
        let half = Float16(value)
        guard half.isFinite else { return nil }
        return half.magnitude < .leastNormalMagnitude ? 0 : half
    }
}

/// A payload written field by field in either format: its ``write(to:)`` is the one description of its
/// map, and ``encoded(_:)`` gives its bytes in JSON or CBOR.
public protocol FormattedPayload {
    /// Writes the payload's fields.
    func write<Writer: PayloadWriter>(to writer: inout Writer)
}

extension FormattedPayload {
    /// The payload, in `format` (a SenML format gives the contract's own form in its encoding: these
    /// payloads have no SenML form).
    public func encoded(_ format: PayloadFormat = .json) -> [UInt8] {
        format.nativeForm == .cbor ? bytes(CBORWriter.self) : bytes(JSONWriter.self)
    }

    private func bytes<Writer: PayloadWriter>(_: Writer.Type) -> [UInt8] {
        var writer = Writer()
        write(to: &writer)
        return writer.finishedBytes()
    }
}
