import MotionFusion
import MotionHAL

extension AttitudeFilterSettings {
    /// Takes the noise settings from a calibration's noise part, each as the RMS over the three axes (the
    /// filter treats the axes alike): the gyroscope's white-noise density and bias instability (the
    /// uncertainty, rest detection) and the accelerometer's white-noise density (rest detection).
    /// Settings without a measured figure keep their value.
    /// - Parameter noise: `motionctl calibrate --steps noise`'s figures.
    public mutating func apply(_ noise: IMUCalibration.Noise) {
        func rms(_ value: SIMD3<Double>) -> Double { ((value * value).sum() / 3).squareRoot() }
        if let gyroscope = noise.gyroscope {
            if rms(gyroscope.noiseDensity) > 0 { gyroscopeNoiseDensity = rms(gyroscope.noiseDensity) }
            if rms(gyroscope.biasInstability) > 0 { gyroscopeBiasInstability = rms(gyroscope.biasInstability) }
        }
        if let accelerometer = noise.accelerometer, rms(accelerometer.noiseDensity) > 0 {
            accelerometerNoiseDensity = rms(accelerometer.noiseDensity)
        }
    }
}
