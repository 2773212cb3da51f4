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
    /// `key`: `{"x","y","z"}` of measurements.
    mutating func vector(_ key: String, x: Double, y: Double, z: Double)
    /// `key`: an object with the fields `body` writes.
    mutating func object(_ key: String, _ body: (inout Self) -> Void)
    /// `key`: an array of objects, one per element, with the fields `body` writes for it.
    mutating func array<Elements: Collection>(_ key: String, objects elements: Elements, _ body: (Elements.Element, inout Self) -> Void)
    /// The finished object's bytes.
    consuming func finishedBytes() -> [UInt8]
}
