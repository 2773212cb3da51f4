/// Processed motion of the device: attitude, bias-free rotation rate, gravity and user acceleration,
/// calibrated magnetic field and heading, from the sensor-fusion filter.
///
/// `gravity + userAcceleration` equals the accelerometer's reading (``CMAccelerometerData/acceleration``)
/// at the same instant, in g.
open class CMDeviceMotion: CMLogItem {
    /// Where the sensors that produced device motion are.
    public enum SensorLocation: Int, Sendable {
        /// The device's own sensors (always the case on Linux).
        case `default` = 0
        /// The sensor is in the left headphone.
        case headphoneLeft = 1
        /// The sensor is in the right headphone.
        case headphoneRight = 2
    }

    private let storedAttitude: CMAttitude
    private let storedRotationRate: CMRotationRate
    private let storedGravity: CMAcceleration
    private let storedUserAcceleration: CMAcceleration
    private let storedMagneticField: CMCalibratedMagneticField
    private let storedHeading: Double
    private let storedSensorLocation: SensorLocation
    private let storedUncertainty: (heading: Double, inclination: Double)

    /// The attitude of the device relative to the reference frame the updates were started with.
    open var attitude: CMAttitude { storedAttitude }
    /// The rotation rate of the device, rad/s, with the gyroscope's estimated bias removed.
    open var rotationRate: CMRotationRate { storedRotationRate }
    /// The gravity vector in the device's axes, g; it points down, so lying face up at rest it is (0, 0, -1).
    open var gravity: CMAcceleration { storedGravity }
    /// The acceleration the user gives the device, g: the accelerometer's reading minus ``gravity`` (zero at
    /// rest).
    open var userAcceleration: CMAcceleration { storedUserAcceleration }
    /// The magnetic field in the device's axes, µT, with its accuracy; the accuracy is
    /// ``CMMagneticFieldCalibrationAccuracy/uncalibrated`` (and the field zero) in reference frames that do
    /// not use the magnetometer. On Linux, with a calibration in use (see
    /// `CMLinuxMotionDevice.useCalibration(contentsOf:)`) that has a magnetometer part, the field has the
    /// hard and soft iron removed and the accuracy is the calibration's grade (low, medium, high); without
    /// one it is the raw reading, of accuracy ``CMMagneticFieldCalibrationAccuracy/low`` once the attitude
    /// filter follows it and ``CMMagneticFieldCalibrationAccuracy/uncalibrated`` before.
    open var magneticField: CMCalibratedMagneticField { storedMagneticField }
    /// The heading, in degrees in [0, 360), clockwise from the reference x-axis (north) to the device's top
    /// edge projected on the horizontal, for the north-referenced frames; a negative value (-1) meaning
    /// "invalid" for ``CMAttitudeReferenceFrame/xArbitraryZVertical`` and
    /// ``CMAttitudeReferenceFrame/xArbitraryCorrectedZVertical``.
    open var heading: Double { storedHeading }
    /// Where the sensors are: ``SensorLocation/default``.
    open var sensorLocation: SensorLocation { storedSensorLocation }
    /// Linux only: the attitude filter's own estimate of its heading error, 1 σ, degrees (it grows while the
    /// magnetometer is rejected as disturbed or not used); -1 when unknown (a sample from a publisher that
    /// does not report it).
    open var linuxHeadingUncertainty: Double { storedUncertainty.heading }
    /// Linux only: the attitude filter's own estimate of its inclination (tilt) error, 1 σ, degrees; -1 when
    /// unknown.
    open var linuxInclinationUncertainty: Double { storedUncertainty.inclination }

    /// Creates an empty sample: identity attitude, zero vectors, uncalibrated field, heading -1, at 0 s.
    public override init() {
        storedAttitude = CMAttitude()
        storedRotationRate = CMRotationRate()
        storedGravity = CMAcceleration()
        storedUserAcceleration = CMAcceleration()
        storedMagneticField = CMCalibratedMagneticField()
        storedHeading = -1
        storedSensorLocation = .default
        storedUncertainty = (-1, -1)
        super.init()
    }

    /// Creates a sample from the fused values (units as the properties).
    init(
        attitude: CMAttitude, rotationRate: CMRotationRate, gravity: CMAcceleration,
        userAcceleration: CMAcceleration, magneticField: CMCalibratedMagneticField, heading: Double,
        uncertainty: (heading: Double, inclination: Double) = (-1, -1), sensorLocation: SensorLocation = .default,
        timestamp: TimeInterval
    ) {
        storedAttitude = attitude
        storedRotationRate = rotationRate
        storedGravity = gravity
        storedUserAcceleration = userAcceleration
        storedMagneticField = magneticField
        storedHeading = heading
        storedSensorLocation = sensorLocation
        storedUncertainty = uncertainty
        super.init(timestamp: timestamp)
    }

    /// The same sample, measured by the sensor at `location` (a headphone's).
    func measured(at location: SensorLocation) -> CMDeviceMotion {
        CMDeviceMotion(
            attitude: attitude, rotationRate: rotationRate, gravity: gravity, userAcceleration: userAcceleration,
            magneticField: magneticField, heading: heading, uncertainty: storedUncertainty, sensorLocation: location,
            timestamp: timestamp)
    }

    /// Archives every value: `timestamp`, `attitude` (``CMAttitude``), `rotationRate`, `gravity`,
    /// `userAcceleration`, `magneticField` (vectors, `.x` `.y` `.z`), `magneticField.accuracy`, `heading`,
    /// `sensorLocation` and the Linux uncertainties.
    open override func encode(with coder: NSCoder) {
        super.encode(with: coder)
        coder.encode(storedAttitude, forKey: "attitude")
        coder.encodeVector(x: storedRotationRate.x, y: storedRotationRate.y, z: storedRotationRate.z, forKey: "rotationRate")
        coder.encodeVector(x: storedGravity.x, y: storedGravity.y, z: storedGravity.z, forKey: "gravity")
        coder.encodeVector(x: storedUserAcceleration.x, y: storedUserAcceleration.y, z: storedUserAcceleration.z, forKey: "userAcceleration")
        let field = storedMagneticField.field
        coder.encodeVector(x: field.x, y: field.y, z: field.z, forKey: "magneticField")
        coder.encode(Int(storedMagneticField.accuracy.rawValue), forKey: "magneticField.accuracy")
        coder.encode(storedHeading, forKey: "heading")
        coder.encode(storedSensorLocation.rawValue, forKey: "sensorLocation")
        coder.encode(storedUncertainty.heading, forKey: "linuxHeadingUncertainty")
        coder.encode(storedUncertainty.inclination, forKey: "linuxInclinationUncertainty")
    }

    /// Reads archived device motion; nil when a value is missing or out of its domain.
    public required init?(coder: NSCoder) {
        guard let attitude = coder.decodeObject(of: CMAttitude.self, forKey: "attitude"),
            let rotationRate = coder.decodeVector(forKey: "rotationRate"), let gravity = coder.decodeVector(forKey: "gravity"),
            let user = coder.decodeVector(forKey: "userAcceleration"), let field = coder.decodeVector(forKey: "magneticField"),
            coder.containsValue(forKey: "magneticField.accuracy"),
            let accuracy = Int32(exactly: coder.decodeInteger(forKey: "magneticField.accuracy"))
                .flatMap(CMMagneticFieldCalibrationAccuracy.init(rawValue:)),
            let heading = coder.decodeRequiredDouble(forKey: "heading"),
            let location = SensorLocation(rawValue: coder.decodeInteger(forKey: "sensorLocation"))
        else { return nil }
        storedAttitude = attitude
        storedRotationRate = CMRotationRate(x: rotationRate.x, y: rotationRate.y, z: rotationRate.z)
        storedGravity = CMAcceleration(x: gravity.x, y: gravity.y, z: gravity.z)
        storedUserAcceleration = CMAcceleration(x: user.x, y: user.y, z: user.z)
        storedMagneticField = CMCalibratedMagneticField(field: CMMagneticField(x: field.x, y: field.y, z: field.z), accuracy: accuracy)
        storedHeading = heading
        storedSensorLocation = location
        storedUncertainty = (
            coder.decodeRequiredDouble(forKey: "linuxHeadingUncertainty") ?? -1,
            coder.decodeRequiredDouble(forKey: "linuxInclinationUncertainty") ?? -1
        )
        super.init(coder: coder)
    }
}
