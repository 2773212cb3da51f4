#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import MotionMath

/// VQF as published (Laidig & Seel, "VQF: Highly accurate IMU orientation estimation with bias estimation
/// and magnetic disturbance rejection", Information Fusion 91, 2023; version 2.1.2 of the authors' code,
/// default parameters): a reference for measuring MotionBridge's filter against, one deviation at a time.
/// Not shipped: it lives beside the tests and serves `motion-bench broad --filter vqf`.
/// `VQFReferenceTests` checks it against the authors' C++ core (PyPI `vqf` 2.1.2) on the committed BROAD
/// excerpt.
///
/// The structure: the gyroscope integrated into `gyroscopeQuaternion` (sensor → an almost inertial frame);
/// the specific force taken into that frame, low-passed (second-order Butterworth, τ = 3 s) and made to
/// point up by `accelerometerQuaternion`; the magnetometer's heading in the result followed by a first-order
/// filter (`delta`, τ = 9 s), paused while the field's norm or dip is off its reference (disturbance
/// rejection); the gyroscope's bias from a Kalman filter fed by the rate at rest and, in motion, by the
/// inclination corrections. One sample time for every sensor, as `vqf.VQF(Ts)`.
///
/// Units: rad/s, m/s², any unit for the field. Not thread-safe (a value type; one owner).
public struct VQFReference: Sendable {
    /// VQF's parameters (its `VQFParams`), with its defaults; angles in degrees as VQF takes them.
    public struct Parameters: Sendable {
        /// VQF's `tauAcc`, s.
        public var accelerometerTimeConstant = 3.0
        /// VQF's `tauMag`, s.
        public var magnetometerTimeConstant = 9.0
        /// VQF's `motionBiasEstEnabled`.
        public var estimatesBiasInMotion = true
        /// VQF's `restBiasEstEnabled`.
        public var estimatesBiasAtRest = true
        /// VQF's `magDistRejectionEnabled`.
        public var rejectsMagneticDisturbances = true
        /// VQF's `biasSigmaInit`, °/s.
        public var biasSigmaInitial = 0.5
        /// VQF's `biasForgettingTime`, s.
        public var biasForgettingTime = 100.0
        /// VQF's `biasClip`, °/s.
        public var biasClip = 2.0
        /// VQF's `biasSigmaMotion`, °/s.
        public var biasSigmaMotion = 0.1
        /// VQF's `biasVerticalForgettingFactor`, dimensionless.
        public var biasVerticalForgettingFactor = 0.0001
        /// VQF's `biasSigmaRest`, °/s.
        public var biasSigmaRest = 0.03
        /// VQF's `restMinT`, s.
        public var restMinimumTime = 1.5
        /// VQF's `restFilterTau`, s.
        public var restFilterTimeConstant = 0.5
        /// VQF's `restThGyr`, °/s.
        public var restGyroscopeThreshold = 2.0
        /// VQF's `restThAcc`, m/s².
        public var restAccelerometerThreshold = 0.5
        /// VQF's `magCurrentTau`, s.
        public var magneticCurrentTimeConstant = 0.05
        /// VQF's `magRefTau`, s.
        public var magneticReferenceTimeConstant = 20.0
        /// VQF's `magNormTh`, relative.
        public var magneticNormThreshold = 0.1
        /// VQF's `magDipTh`, degrees.
        public var magneticDipThreshold = 10.0
        /// VQF's `magNewTime`, s.
        public var magneticNewTime = 20.0
        /// VQF's `magNewFirstTime`, s.
        public var magneticNewFirstTime = 5.0
        /// VQF's `magNewMinGyr`, °/s.
        public var magneticNewMinimumRate = 20.0
        /// VQF's `magMinUndisturbedTime`, s.
        public var magneticMinimumUndisturbedTime = 0.5
        /// VQF's `magMaxRejectionTime`, s.
        public var magneticMaximumRejectionTime = 60.0
        /// VQF's `magRejectionFactor`, dimensionless.
        public var magneticRejectionFactor = 2.0

        /// VQF's defaults.
        public init() {}
    }

    private let parameters: Parameters
    private let sampleTime: Double
    // Coefficients (VQF's `setup`).
    private let magnetometerGain: Double
    private let magneticReferenceGain: Double
    private let biasP0: Double
    private let biasV: Double
    private let biasMotionW: Double
    private let biasVerticalW: Double
    private let biasRestW: Double

    private var gyroscopeQuaternion = Quaternion.identity
    private var accelerometerQuaternion = Quaternion.identity
    /// The heading correction about the vertical, rad.
    private var delta = 0.0
    private var accelerometerLowPass: VQFLowPass
    private var initialMagnetometerGain = 1.0

    /// The gyroscope bias estimate, rad/s.
    public private(set) var bias = SIMD3<Double>(0, 0, 0)
    /// The bias estimate's covariance, (0.01 °/s)².
    private var biasP: Matrix3
    private var rotationLowPass: VQFLowPass
    private var biasLowPass: VQFLowPass

    /// Whether the device is detected at rest.
    public private(set) var isAtRest = false
    private var restTime = 0.0
    private var restGyroscopeLowPass: VQFLowPass
    private var restAccelerometerLowPass: VQFLowPass
    private var lastGyroscopeLowPassed = SIMD3<Double>(0, 0, 0)

    /// Whether the magnetometer is detected disturbed (VQF starts disturbed, without a reference).
    public private(set) var isMagneticallyDisturbed = true
    private var referenceNorm = 0.0
    private var referenceDip = 0.0
    private var undisturbedTime = 0.0
    private var rejectionTime: Double
    private var candidateNorm = -1.0
    private var candidateDip = 0.0
    private var candidateTime = 0.0
    private var normDipLowPass: VQFLowPass

    /// - Parameters:
    ///   - sampleTime: the time between samples, s (VQF's `Ts`).
    ///   - parameters: VQF's parameters.
    public init(sampleTime: Double, parameters: Parameters = Parameters()) {
        self.parameters = parameters
        self.sampleTime = sampleTime
        magnetometerGain = Self.gain(timeConstant: parameters.magnetometerTimeConstant, sampleTime: sampleTime)
        magneticReferenceGain = Self.gain(timeConstant: parameters.magneticReferenceTimeConstant, sampleTime: sampleTime)
        // The covariances in (0.01 °/s)²; the system noise takes the variance from 0 to (0.1 °/s)² in
        // biasForgettingTime.
        biasP0 = pow(parameters.biasSigmaInitial * 100, 2)
        biasV = pow(0.1 * 100, 2) * sampleTime / parameters.biasForgettingTime
        let motion = pow(parameters.biasSigmaMotion * 100, 2)
        biasMotionW = motion * motion / biasV + motion
        biasVerticalW = biasMotionW / max(parameters.biasVerticalForgettingFactor, 1e-10)
        let rest = pow(parameters.biasSigmaRest * 100, 2)
        biasRestW = rest * rest / biasV + rest
        biasP = Matrix3(diagonal: SIMD3(repeating: biasP0))
        accelerometerLowPass = VQFLowPass(timeConstant: parameters.accelerometerTimeConstant, sampleTime: sampleTime, count: 3)
        rotationLowPass = VQFLowPass(timeConstant: parameters.accelerometerTimeConstant, sampleTime: sampleTime, count: 9)
        biasLowPass = VQFLowPass(timeConstant: parameters.accelerometerTimeConstant, sampleTime: sampleTime, count: 2)
        restGyroscopeLowPass = VQFLowPass(timeConstant: parameters.restFilterTimeConstant, sampleTime: sampleTime, count: 3)
        restAccelerometerLowPass = VQFLowPass(timeConstant: parameters.restFilterTimeConstant, sampleTime: sampleTime, count: 3)
        normDipLowPass = VQFLowPass(timeConstant: parameters.magneticCurrentTimeConstant, sampleTime: sampleTime, count: 2)
        rejectionTime = parameters.magneticMaximumRejectionTime
    }

    /// The median time between samples, s, from timestamps in ns, taken as NumPy's `median(diff(t))` of the
    /// times in seconds as floating point, so that VQF runs at the very `Ts` the Python reference
    /// (Benchmarks/broad/vqf_reference.py) gives it: its rest and start-up timers add Ts up against
    /// thresholds, where the last bit of Ts can move a decision by one sample. 0.01 s for fewer than two.
    public static func sampleTime(timestamps: [UInt64]) -> Double {
        let times = timestamps.map { Double($0) / 1e9 }
        guard times.count > 1 else { return 0.01 }
        let differences = zip(times.dropFirst(), times).map { $0 - $1 }.sorted()
        let middle = differences.count / 2
        return differences.count % 2 == 1 ? differences[middle] : (differences[middle - 1] + differences[middle]) / 2
    }

    /// 1 − exp(−Ts/τ); 0 for a negative τ (no update), 1 for τ = 0.
    private static func gain(timeConstant: Double, sampleTime: Double) -> Double {
        timeConstant < 0 ? 0 : timeConstant == 0 ? 1 : 1 - exp(-sampleTime / timeConstant)
    }

    /// Sensor → the 6-axis earth frame (z up, heading arbitrary).
    public var quaternion6D: Quaternion { accelerometerQuaternion * gyroscopeQuaternion }

    /// Sensor → East-North-Up (the horizontal field along +y, north).
    public var quaternion9D: Quaternion {
        Quaternion(w: cos(delta / 2), x: 0, y: 0, z: sin(delta / 2)) * quaternion6D
    }

    /// One sample: the gyroscope (rad/s), the accelerometer (m/s²) and, for 9 axes, the magnetometer.
    /// A zero accelerometer or magnetometer reading is skipped, as VQF does.
    public mutating func update(gyroscope: SIMD3<Double>, accelerometer: SIMD3<Double>, magnetometer: SIMD3<Double>?) {
        updateGyroscope(gyroscope)
        updateAccelerometer(accelerometer)
        if let magnetometer { updateMagnetometer(magnetometer) }
    }

    private var biasClip: Double { parameters.biasClip * .pi / 180 }

    private mutating func updateGyroscope(_ gyroscope: SIMD3<Double>) {
        if parameters.estimatesBiasAtRest || parameters.rejectsMagneticDisturbances {
            let filtered = restGyroscopeLowPass.update([gyroscope.x, gyroscope.y, gyroscope.z])
            lastGyroscopeLowPassed = SIMD3(filtered[0], filtered[1], filtered[2])
            let deviation = (gyroscope - lastGyroscopeLowPassed).lengthSquared
            let threshold = parameters.restGyroscopeThreshold * .pi / 180
            if deviation >= threshold * threshold || abs(lastGyroscopeLowPassed.x) > biasClip
                || abs(lastGyroscopeLowPassed.y) > biasClip || abs(lastGyroscopeLowPassed.z) > biasClip
            {
                restTime = 0
                isAtRest = false
            }
        }
        let rate = gyroscope - bias
        let norm = rate.length
        guard norm > .ulpOfOne else { return }
        let angle = norm * sampleTime
        let s = sin(angle / 2) / norm
        let step = Quaternion(w: cos(angle / 2), x: s * rate.x, y: s * rate.y, z: s * rate.z)
        gyroscopeQuaternion = (gyroscopeQuaternion * step).renormalized
    }

    private mutating func updateAccelerometer(_ accelerometer: SIMD3<Double>) {
        guard accelerometer != .zero else { return }
        if parameters.estimatesBiasAtRest {
            let filtered = restAccelerometerLowPass.update([accelerometer.x, accelerometer.y, accelerometer.z])
            let deviation = (accelerometer - SIMD3(filtered[0], filtered[1], filtered[2])).lengthSquared
            if deviation >= parameters.restAccelerometerThreshold * parameters.restAccelerometerThreshold {
                restTime = 0
                isAtRest = false
            } else {
                restTime += sampleTime
                if restTime >= parameters.restMinimumTime { isAtRest = true }
            }
        }
        let inertial = gyroscopeQuaternion.rotate(accelerometer)
        let lowPassed = accelerometerLowPass.update([inertial.x, inertial.y, inertial.z])
        let earth = accelerometerQuaternion.rotate(SIMD3(lowPassed[0], lowPassed[1], lowPassed[2])).normalized
        let w = ((earth.z + 1) / 2).squareRoot()
        let correction =
            w > 1e-6
            ? Quaternion(w: w, x: 0.5 * earth.y / w, y: -0.5 * earth.x / w, z: 0)
            : Quaternion(w: 0, x: 1, y: 0, z: 0)
        accelerometerQuaternion = (correction * accelerometerQuaternion).renormalized
        if parameters.estimatesBiasInMotion || parameters.estimatesBiasAtRest {
            estimateBias(earth: earth)
        }
    }

    /// The bias's Kalman filter: at rest the low-passed rate measures it; in motion the inclination
    /// correction does, as the low-passed attitude's rotation of the bias (VQF's section 3.3).
    private mutating func estimateBias(earth: SIMD3<Double>) {
        let attitude = quaternion6D.rotationMatrix
        let rotatedBias = [attitude.row0.dot(bias), attitude.row1.dot(bias)]
        let r = rotationLowPass.update([
            attitude.row0.x, attitude.row0.y, attitude.row0.z, attitude.row1.x, attitude.row1.y, attitude.row1.z,
            attitude.row2.x, attitude.row2.y, attitude.row2.z,
        ])
        var rotation = Matrix3(row0: SIMD3(r[0], r[1], r[2]), row1: SIMD3(r[3], r[4], r[5]), row2: SIMD3(r[6], r[7], r[8]))
        let biasLowPassed = biasLowPass.update(rotatedBias)
        var error: SIMD3<Double>
        var noise: SIMD3<Double>?
        if isAtRest && parameters.estimatesBiasAtRest {
            error = lastGyroscopeLowPassed - bias
            rotation = .identity
            noise = SIMD3(repeating: biasRestW)
        } else if parameters.estimatesBiasInMotion {
            error = SIMD3(
                -earth.y / sampleTime + biasLowPassed[0] - rotation.row0.dot(bias),
                earth.x / sampleTime + biasLowPassed[1] - rotation.row1.dot(bias),
                -rotation.row2.dot(bias))
            noise = SIMD3(biasMotionW, biasMotionW, biasVerticalW)
        } else {
            error = .zero
            noise = nil
        }
        // P += V on the diagonal, up to the initial variance (also without a measurement).
        if biasP.row0.x < biasP0 { biasP.row0.x += biasV }
        if biasP.row1.y < biasP0 { biasP.row1.y += biasV }
        if biasP.row2.z < biasP0 { biasP.row2.z += biasV }
        guard let noise else { return }
        error = error.clamped(lowerBound: SIMD3(repeating: -biasClip), upperBound: SIMD3(repeating: biasClip))
        // K = P Rᵀ (W + R P Rᵀ)⁻¹; bias += K e; P −= K R P.
        let innovation = rotation * biasP * rotation.transposed + Matrix3(diagonal: noise)
        let inverse = innovation.inverse ?? Matrix3(row0: .zero, row1: .zero, row2: .zero)
        let gain = biasP * rotation.transposed * inverse
        bias += gain * error
        biasP = biasP - gain * rotation * biasP
        bias = bias.clamped(lowerBound: SIMD3(repeating: -biasClip), upperBound: SIMD3(repeating: biasClip))
    }

    private mutating func updateMagnetometer(_ magnetometer: SIMD3<Double>) {
        guard magnetometer != .zero else { return }
        let earth = quaternion6D.rotate(magnetometer)
        if parameters.rejectsMagneticDisturbances { detectDisturbance(earth: earth) }
        var disagreement = atan2(earth.x, earth.y) - delta
        if disagreement > .pi { disagreement -= 2 * .pi } else if disagreement < -.pi { disagreement += 2 * .pi }
        var gain = magnetometerGain
        if parameters.rejectsMagneticDisturbances {
            if isMagneticallyDisturbed {
                if rejectionTime <= parameters.magneticMaximumRejectionTime {
                    rejectionTime += sampleTime
                    gain = 0
                } else {
                    gain /= parameters.magneticRejectionFactor
                }
            } else {
                rejectionTime = max(rejectionTime - parameters.magneticRejectionFactor * sampleTime, 0)
            }
        }
        // The first samples: a gain of at least 1/N, until N·Ts passes τm.
        if initialMagnetometerGain != 0 {
            gain = max(gain, initialMagnetometerGain)
            initialMagnetometerGain /= initialMagnetometerGain + 1
            if initialMagnetometerGain * parameters.magnetometerTimeConstant < sampleTime { initialMagnetometerGain = 0 }
        }
        delta += gain * disagreement
        if delta > .pi { delta -= 2 * .pi } else if delta < -.pi { delta += 2 * .pi }
    }

    /// VQF's disturbance detection and new-field acceptance on the field's norm and dip, low-passed.
    private mutating func detectDisturbance(earth: SIMD3<Double>) {
        let norm = earth.length
        var normDip = [norm, -asin(earth.z / norm)]
        if parameters.magneticCurrentTimeConstant > 0 { normDip = normDipLowPass.update(normDip) }
        let dipThreshold = parameters.magneticDipThreshold * .pi / 180
        if abs(normDip[0] - referenceNorm) < parameters.magneticNormThreshold * referenceNorm
            && abs(normDip[1] - referenceDip) < dipThreshold
        {
            undisturbedTime += sampleTime
            if undisturbedTime >= parameters.magneticMinimumUndisturbedTime {
                isMagneticallyDisturbed = false
                referenceNorm += magneticReferenceGain * (normDip[0] - referenceNorm)
                referenceDip += magneticReferenceGain * (normDip[1] - referenceDip)
            }
        } else {
            undisturbedTime = 0
            isMagneticallyDisturbed = true
        }
        if abs(normDip[0] - candidateNorm) < parameters.magneticNormThreshold * candidateNorm
            && abs(normDip[1] - candidateDip) < dipThreshold
        {
            if lastGyroscopeLowPassed.length >= parameters.magneticNewMinimumRate * .pi / 180 {
                candidateTime += sampleTime
            }
            candidateNorm += magneticReferenceGain * (normDip[0] - candidateNorm)
            candidateDip += magneticReferenceGain * (normDip[1] - candidateDip)
            if isMagneticallyDisturbed,
                candidateTime >= parameters.magneticNewTime
                    || (referenceNorm == 0 && candidateTime >= parameters.magneticNewFirstTime)
            {
                referenceNorm = candidateNorm
                referenceDip = candidateDip
                isMagneticallyDisturbed = false
                undisturbedTime = parameters.magneticMinimumUndisturbedTime
            }
        } else {
            candidateTime = 0
            candidateNorm = normDip[0]
            candidateDip = normDip[1]
        }
    }
}
