// The block types of Apple's CMMotionManager, spelled exactly as Apple's current Swift interface: plain
// (not `@Sendable`) closures. CMMotionManager runs each one on the OperationQueue it was given.

/// The type of block callback for handling accelerometer data: the data (nil on error) and an error in
/// ``CMErrorDomain`` (nil when there is data).
public typealias CMAccelerometerHandler = (CMAccelerometerData?, (any Error)?) -> Void

/// The type of block callback for handling gyroscope data: the data (nil on error) and an error in
/// ``CMErrorDomain`` (nil when there is data).
public typealias CMGyroHandler = (CMGyroData?, (any Error)?) -> Void

/// The type of block callback for handling magnetometer data: the data (nil on error) and an error in
/// ``CMErrorDomain`` (nil when there is data).
public typealias CMMagnetometerHandler = (CMMagnetometerData?, (any Error)?) -> Void

/// The type of block callback for handling device-motion data: the data (nil on error) and an error in
/// ``CMErrorDomain`` (nil when there is data).
public typealias CMDeviceMotionHandler = (CMDeviceMotion?, (any Error)?) -> Void
