/// Depth and pressure under water at one moment (Apple's `CMWaterSubmersionMeasurement`). Immutable.
open class CMWaterSubmersionMeasurement: NSObject, NSCopying, NSSecureCoding {
    /// How deep the device is (Apple's boundaries: shallow below 1 m).
    public enum DepthState: Int, Sendable {
        /// Not known.
        case unknown = 0
        /// Not under water.
        case notSubmerged = 100
        /// Under water, less than 1 m deep.
        case submergedShallow = 200
        /// Under water, at least 1 m deep.
        case submergedDeep = 300
        /// Close to the deepest the device may go (``CMWaterSubmersionManager/maximumDepth``).
        case approachingMaxDepth = 400
        /// Deeper than the device may go.
        case pastMaxDepth = 500
        /// The sensor's reading is unusable (not a number, or outside its rated range).
        case sensorDepthError = 600
    }

    private let storedDate: Date
    private let storedDepth: Double?
    private let storedPressure: Double?
    private let storedSurfacePressure: Double
    private let storedState: DepthState

    /// When the measurement was made.
    open var date: Date { storedDate }
    /// The depth under water (stored in m); nil when not under water.
    open var depth: Measurement<UnitLength>? { storedDepth.map { Measurement(value: $0, unit: .meters) } }
    /// The water's pressure (stored in kPa); nil when not under water.
    open var pressure: Measurement<UnitPressure>? { storedPressure.map { Measurement(value: $0, unit: .kilopascals) } }
    /// The air pressure at the surface (stored in kPa).
    open var surfacePressure: Measurement<UnitPressure> { Measurement(value: storedSurfacePressure, unit: .kilopascals) }
    /// The depth state.
    open var submersionState: DepthState { storedState }

    /// Creates an unknown measurement at the reference date (surface pressure 101.325 kPa).
    public override init() {
        storedDate = Date(timeIntervalSinceReferenceDate: 0)
        storedDepth = nil
        storedPressure = nil
        storedSurfacePressure = 101.325
        storedState = .unknown
        super.init()
    }

    /// Creates a measurement.
    /// - Parameters:
    ///   - depth: m, nil when not under water.
    ///   - pressure: kPa, nil when not under water.
    ///   - surfacePressure: kPa.
    init(date: Date, depth: Double?, pressure: Double?, surfacePressure: Double, state: DepthState) {
        storedDate = date
        storedDepth = depth
        storedPressure = pressure
        storedSurfacePressure = surfacePressure
        storedState = state
        super.init()
    }

    /// Returns the receiver itself: the measurement is immutable.
    open func copy(with zone: NSZone? = nil) -> Any { self }

    /// True.
    public class var supportsSecureCoding: Bool { true }

    /// Archives the measurement (`date`, `depth` in m and `pressure` in kPa when present, `surfacePressure`
    /// in kPa, `submersionState`).
    open func encode(with coder: NSCoder) {
        coder.encode(date: storedDate, forKey: "date")
        coder.encodeIfPresent(storedDepth, forKey: "depth")
        coder.encodeIfPresent(storedPressure, forKey: "pressure")
        coder.encode(storedSurfacePressure, forKey: "surfacePressure")
        coder.encode(storedState.rawValue, forKey: "submersionState")
    }

    /// Reads an archived measurement; nil when a required value is missing.
    public required init?(coder: NSCoder) {
        guard let date = coder.decodeDate(forKey: "date"), let surface = coder.decodeRequiredDouble(forKey: "surfacePressure"),
            let state = DepthState(rawValue: coder.decodeInteger(forKey: "submersionState"))
        else { return nil }
        storedDate = date
        storedDepth = coder.decodeRequiredDouble(forKey: "depth")
        storedPressure = coder.decodeRequiredDouble(forKey: "pressure")
        storedSurfacePressure = surface
        storedState = state
        super.init()
    }
}
