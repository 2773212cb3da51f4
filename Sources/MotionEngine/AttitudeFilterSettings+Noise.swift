import MotionFusion
import MotionHAL

extension AttitudeFilterSettings {
    /// Takes the gyroscope's noise settings from a calibration's noise part: the white-noise density and the
    /// bias instability as the RMS over the three axes (the filter's uncertainty treats the axes alike).
    /// Settings without a measured figure keep their value.
    /// - Parameter noise: `motionctl calibrate --steps noise`'s figures.
    public mutating func apply(_ noise: IMUCalibration.Noise) {
        guard let gyroscope = noise.gyroscope else { return }
        func rms(_ value: SIMD3<Double>) -> Double { ((value * value).sum() / 3).squareRoot() }
        if rms(gyroscope.noiseDensity) > 0 { gyroscopeNoiseDensity = rms(gyroscope.noiseDensity) }
        if rms(gyroscope.biasInstability) > 0 { gyroscopeBiasInstability = rms(gyroscope.biasInstability) }
    }
}
