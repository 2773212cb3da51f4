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

}
