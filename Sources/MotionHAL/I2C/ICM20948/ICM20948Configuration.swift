import MotionMath
/// How the ICM-20948 driver sets the chip up: the full scales, and for a requested rate the sample rate
/// divider and the digital low-pass filters (datasheet DS-000189: GYRO_CONFIG_1 with its Table 16,
/// ACCEL_CONFIG with its Table 18, GYRO_SMPLRT_DIV and ACCEL_SMPLRT_DIV).
///
/// Output data rate: with FCHOICE = 1 both sensors run at `1125 Hz / (1 + divider)`. Tables 16 and 18 give
/// 1125/(1+divider) for both; the GYRO_SMPLRT_DIV description rounds the gyroscope's base rate to "1.1 kHz".
/// The driver writes the same divider to both sensors, so each FIFO frame holds an accelerometer and a
/// gyroscope sample of the same instant, and timestamps with the rate that divider gives.
public struct ICM20948Configuration: Sendable, Equatable {
    /// Accelerometer full scale (ACCEL_FS_SEL).
    public enum AccelerometerRange: UInt8, Sendable, CaseIterable {
        /// ±2 g, 16384 LSB/g.
        case g2 = 0
        /// ±4 g, 8192 LSB/g.
        case g4 = 1
        /// ±8 g, 4096 LSB/g.
        case g8 = 2
        /// ±16 g, 2048 LSB/g.
        case g16 = 3

        /// Full scale in standard gravities.
        public var standardGravities: Double { Double(2 << Int(rawValue)) }
        /// Full scale, m/s².
        public var fullScale: Double { standardGravities * MotionMath.standardGravity }
        /// One count, m/s²: the full scale over 2¹⁵ (the datasheet's sensitivities 16384...2048 LSB/g).
        public var resolution: Double { fullScale / 32768 }
    }

    /// Gyroscope full scale (GYRO_FS_SEL).
    public enum GyroscopeRange: UInt8, Sendable, CaseIterable {
        /// ±250 °/s.
        case dps250 = 0
        /// ±500 °/s.
        case dps500 = 1
        /// ±1000 °/s.
        case dps1000 = 2
        /// ±2000 °/s.
        case dps2000 = 3

        /// Full scale, degrees per second.
        public var degreesPerSecond: Double { 250 * Double(1 << Int(rawValue)) }
        /// Full scale, rad/s.
        public var fullScale: Double { degreesPerSecond * .pi / 180 }
        /// One count, rad/s: the full scale over 2¹⁵ (the datasheet rounds the sensitivity of ±2000 °/s,
        /// 16.384 LSB per °/s, to 16.4, well inside its ±1.5 % tolerance).
        public var resolution: Double { fullScale / 32768 }
    }

    /// Accelerometer full scale (default ±8 g).
    public var accelerometerRange: AccelerometerRange
    /// Gyroscope full scale (default ±2000 °/s).
    public var gyroscopeRange: GyroscopeRange

    /// Creates a configuration.
    /// - Parameters:
    ///   - accelerometerRange: accelerometer full scale (default ±8 g).
    ///   - gyroscopeRange: gyroscope full scale (default ±2000 °/s).
    public init(accelerometerRange: AccelerometerRange = .g8, gyroscopeRange: GyroscopeRange = .dps2000) {
        self.accelerometerRange = accelerometerRange
        self.gyroscopeRange = gyroscopeRange
    }

    /// The rate both sensors divide with the filter on, Hz.
    public static let baseSampleRate = 1125.0
    /// The largest divider GYRO_SMPLRT_DIV holds (8 bits; ACCEL_SMPLRT_DIV has 12).
    static let largestDivider = 255
    /// Rates the dividers reach, Hz: 1125/256 (4.39 Hz) to 1125 Hz.
    public static let supportedSampleRates = baseSampleRate / Double(largestDivider + 1)...baseSampleRate

    /// The divider whose rate is nearest `rate`.
    /// - Parameter rate: Hz, inside ``supportedSampleRates``.
    public static func sampleRateDivider(for rate: Double) -> Int {
        let exact = baseSampleRate / rate - 1
        let candidates = [exact.rounded(.down), exact.rounded(.up)].map { min(max(Int($0), 0), largestDivider) }
        return candidates.min { abs(sampleRate(divider: $0) - rate) < abs(sampleRate(divider: $1) - rate) }!
    }

    /// The output data rate a divider gives, Hz.
    /// - Parameter divider: 0...255.
    public static func sampleRate(divider: Int) -> Double {
        baseSampleRate / Double(1 + divider)
    }

    /// The accelerometer's output data rate with its filter bypassed (ACCEL_FCHOICE = 0), Hz (Table 18).
    public static let unfilteredAccelerometerRate = 4500.0
    /// Its 3-dB bandwidth then, Hz (Table 18, ACCEL_FCHOICE = 0).
    public static let unfilteredAccelerometerBandwidth = 1209.0
    /// Rates with the accelerometer alone, Hz: the dividers' (4.39 … 1125 Hz) and, with the filter
    /// bypassed, 4500 Hz.
    public static let accelerometerOnlySampleRates = supportedSampleRates.lowerBound...unfilteredAccelerometerRate

    /// The accelerometer's rate and bandwidth nearest `rate` (in proportion): a divider's rate with the
    /// filter for it, or, with the accelerometer alone and a request above 2250 Hz (the geometric middle of
    /// 1125 and 4500 Hz), the unfiltered 4500 Hz.
    /// - Parameters:
    ///   - rate: Hz.
    ///   - accelerometerOnly: whether the unfiltered rate may be chosen (the gyroscope then stays off: it
    ///     cannot share a FIFO frame rate with it).
    public static func accelerometerSampling(near rate: Double, accelerometerOnly: Bool) -> I2CChipSampling {
        if accelerometerOnly, rate > (baseSampleRate * unfilteredAccelerometerRate).squareRoot() {
            return I2CChipSampling(rate: unfilteredAccelerometerRate, accelerometerBandwidth: unfilteredAccelerometerBandwidth)
        }
        let filtered = sampleRate(divider: sampleRateDivider(for: min(rate, baseSampleRate)))
        let setting = lowPassSetting(for: filtered, from: accelerometerBandwidths)
        let bandwidth = accelerometerBandwidths.first { $0.setting == setting }!.hertz
        return I2CChipSampling(rate: filtered, accelerometerBandwidth: bandwidth)
    }

    /// 3-dB bandwidths, Hz, of the gyroscope's GYRO_DLPFCFG settings 1...6 (Table 16). Settings 0 and 7 are
    /// left out: the GYRO_SMPLRT_DIV description applies the divider only for 0 < DLPF_CFG < 7.
    static let gyroscopeBandwidths: [(setting: UInt8, hertz: Double)] = [
        (1, 151.8), (2, 119.5), (3, 51.2), (4, 23.9), (5, 11.6), (6, 5.7),
    ]
    /// 3-dB bandwidths, Hz, of the accelerometer's ACCEL_DLPFCFG settings 1...6 (Table 18).
    static let accelerometerBandwidths: [(setting: UInt8, hertz: Double)] = [
        (1, 246.0), (2, 111.4), (3, 50.4), (4, 23.9), (5, 11.5), (6, 5.7),
    ]

    /// The low-pass setting with the widest bandwidth that stays below the Nyquist frequency of `rate`
    /// (the narrowest when none does).
    static func lowPassSetting(for rate: Double, from bandwidths: [(setting: UInt8, hertz: Double)]) -> UInt8 {
        bandwidths.first { $0.hertz <= rate / 2 }?.setting ?? bandwidths.last!.setting
    }

    /// GYRO_CONFIG_1 for a rate: low-pass setting, full scale, FCHOICE on.
    func gyroscopeConfiguration1(rate: Double) -> UInt8 {
        let lowPass = Self.lowPassSetting(for: rate, from: Self.gyroscopeBandwidths)
        return lowPass << ICM20948RegisterMap.lowPassShift | gyroscopeRange.rawValue << ICM20948RegisterMap.fullScaleShift
            | ICM20948RegisterMap.filterChoice
    }

    /// ACCEL_CONFIG for a rate: low-pass setting, full scale, FCHOICE on; at
    /// ``unfilteredAccelerometerRate`` the full scale alone (FCHOICE off, the filter bypassed).
    func accelerometerConfiguration(rate: Double) -> UInt8 {
        if rate == Self.unfilteredAccelerometerRate {
            return accelerometerRange.rawValue << ICM20948RegisterMap.fullScaleShift
        }
        let lowPass = Self.lowPassSetting(for: rate, from: Self.accelerometerBandwidths)
        return lowPass << ICM20948RegisterMap.lowPassShift
            | accelerometerRange.rawValue << ICM20948RegisterMap.fullScaleShift | ICM20948RegisterMap.filterChoice
    }
}
