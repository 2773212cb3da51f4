/// The stream a subscription to the ``MotionHub`` receives.
enum MotionService: Sendable, Equatable {
    /// Raw accelerometer samples (``CMAccelerometerData``).
    case accelerometer
    /// Raw gyroscope samples (``CMGyroData``).
    case gyroscope
    /// Raw magnetometer samples (``CMMagnetometerData``).
    case magnetometer
    /// Fused device motion in a reference frame (``CMDeviceMotion``); the frame is a single flag.
    case deviceMotion(CMAttitudeReferenceFrame)

    static func == (lhs: MotionService, rhs: MotionService) -> Bool {
        switch (lhs, rhs) {
        case (.accelerometer, .accelerometer), (.gyroscope, .gyroscope), (.magnetometer, .magnetometer):
            true
        case (.deviceMotion(let left), .deviceMotion(let right)):
            left.rawValue == right.rawValue
        default:
            false
        }
    }
}
