import MotionFusion
import MotionHAL
import MotionModel

/// The stream a subscription to the ``MotionEngine`` receives.
public enum MotionStream: Sendable, Hashable {
    /// Accelerometer samples, g, Apple's sign (the negated specific force); calibrated when a calibration is set.
    case accelerometer
    /// Raw gyroscope samples, rad/s (bias included, as Apple's `CMGyroData`).
    case gyroscope
    /// Raw magnetometer samples, µT.
    case magnetometer
    /// Fused device motion in a reference frame.
    case deviceMotion(AttitudeReferenceFrame)
    /// The same filter's output in SI units (``FusedMotionSample``), every sample: what the motion detectors
    /// read. Only the engine delivers it (a remote board publishes device motion in Apple's units).
    case fusedMotion(AttitudeReferenceFrame)

    /// The contract's service that publishes this stream.
    public var service: MotionService {
        switch self {
        case .accelerometer: .accelerometer
        case .gyroscope: .gyro
        case .magnetometer: .magnetometer
        case .deviceMotion, .fusedMotion: .deviceMotion
        }
    }

    /// The reference frame of the attitude filter the stream comes from, nil for a sensor's own stream.
    public var fusionFrame: AttitudeReferenceFrame? {
        switch self {
        case .accelerometer, .gyroscope, .magnetometer: nil
        case .deviceMotion(let frame), .fusedMotion(let frame): frame
        }
    }

    /// The sensors the stream needs: its own, or for device motion an accelerometer and a gyroscope and,
    /// in a magnetic frame, a magnetometer.
    public var requiredSensors: IMUSensors {
        switch self {
        case .accelerometer: .accelerometer
        case .gyroscope: .gyroscope
        case .magnetometer: .magnetometer
        case .deviceMotion(let frame), .fusedMotion(let frame): frame.usesMagnetometer ? .all : [.accelerometer, .gyroscope]
        }
    }
}

/// One sample a subscription receives: a three-axis reading of the accelerometer, gyroscope or
/// magnetometer, or a device-motion sample.
public enum MotionSample: Sendable, Equatable {
    /// A reading of ``MotionStream/accelerometer``, ``MotionStream/gyroscope`` or ``MotionStream/magnetometer``.
    case vector(VectorSample)
    /// A sample of ``MotionStream/deviceMotion(_:)``.
    case deviceMotion(DeviceMotionSample)
    /// A sample of ``MotionStream/fusedMotion(_:)``.
    case fused(FusedMotionSample)

    /// When it was measured, seconds since boot.
    public var timestamp: Double {
        switch self {
        case .vector(let sample): sample.timestamp
        case .deviceMotion(let sample): sample.timestamp
        case .fused(let sample): sample.timestamp
        }
    }
}

/// A fault of the engine's device, reported once per fault episode to every subscription.
public struct MotionEngineFault: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of fault it is (Apple's `CMError` codes map onto these).
    public enum Kind: Sendable, Equatable {
        /// The device is unavailable or could not be started.
        case notAvailable
        /// The device failed or stalled.
        case unknown
    }

    /// What kind of fault it is.
    public let kind: Kind
    /// What went wrong, for people (for example `The motion device failed: no samples for 1.2 s`).
    public let description: String

    /// Creates a fault.
    public init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }

    /// The fault that reports a device's fault: ``Kind/notAvailable`` for a device that is gone,
    /// ``Kind/unknown`` for any other.
    init(deviceFault fault: IMUDeviceError) {
        if case .unavailable = fault {
            self.init(.notAvailable, "The motion device failed: \(fault)")
        } else {
            self.init(.unknown, "The motion device failed: \(fault)")
        }
    }
}
