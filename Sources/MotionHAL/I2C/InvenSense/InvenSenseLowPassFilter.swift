/// One setting of the digital low-pass filter (CONFIG DLPF_CFG; on the MPU-6500 family also ACCEL_CONFIG2
/// A_DLPF_CFG, which takes the same value) and the bandwidths it gives.
///
/// Only the settings 1...6 are used: they keep the internal rate at 1 kHz, which SMPLRT_DIV divides
/// (settings 0 and 7 run the gyroscope at 8 kHz).
public struct InvenSenseLowPassFilter: Sendable, Equatable {
    /// The DLPF_CFG (and A_DLPF_CFG) value.
    public var configuration: UInt8
    /// The gyroscope's −3 dB bandwidth, Hz.
    public var gyroscopeBandwidth: Double
    /// The accelerometer's −3 dB bandwidth, Hz.
    public var accelerometerBandwidth: Double

    /// Creates a table entry.
    /// - Parameters:
    ///   - configuration: the DLPF_CFG value.
    ///   - gyroscopeBandwidth: gyroscope bandwidth, Hz.
    ///   - accelerometerBandwidth: accelerometer bandwidth, Hz.
    public init(configuration: UInt8, gyroscopeBandwidth: Double, accelerometerBandwidth: Double) {
        self.configuration = configuration
        self.gyroscopeBandwidth = gyroscopeBandwidth
        self.accelerometerBandwidth = accelerometerBandwidth
    }

    /// The filter for an output data rate: the widest whose bandwidths both lie below the Nyquist frequency
    /// (half the rate), so the decimation by SMPLRT_DIV does not alias; the narrowest when none does (rates
    /// under 10 Hz). The Linux driver (`inv_mpu6050_set_lpf`) makes the same choice.
    /// - Parameters:
    ///   - sampleRate: the output data rate, Hz.
    ///   - filters: the chip's settings, widest first.
    public static func widest(
        for sampleRate: Double, from filters: [InvenSenseLowPassFilter]
    ) -> InvenSenseLowPassFilter {
        let nyquist = sampleRate / 2
        return filters.first { $0.widestBandwidth < nyquist } ?? filters[filters.count - 1]
    }

    /// The larger of the two bandwidths, Hz.
    public var widestBandwidth: Double { max(gyroscopeBandwidth, accelerometerBandwidth) }
}
