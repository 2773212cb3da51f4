import MotionCommandLine
import MotionFusion

/// `--set NAME=VALUE[,NAME=VALUE…]`: attitude filter settings other than the defaults, for scoring a tuning
/// or taking the filter's parts away one at a time (docs/FUSION.md's ablation). Names are
/// ``AttitudeFilterSettings``'s properties, values in their units (SI: s, rad, rad/s, m/s², µT); `true`
/// or `false` for the switches.
enum FilterSettingsOption {
    /// The settings that take a number, by name.
    static var numbers: [String: WritableKeyPath<AttitudeFilterSettings, Double>] {
        [
            "gravity": \.gravity,
            "accelerometerTimeConstant": \.accelerometerTimeConstant,
            "magnetometerTimeConstant": \.magnetometerTimeConstant,
            "restGyroscopeThreshold": \.restGyroscopeThreshold,
            "restAccelerometerThreshold": \.restAccelerometerThreshold,
            "restMinimumDuration": \.restMinimumDuration,
            "motionBiasTimeConstant": \.motionBiasTimeConstant,
            "magneticNormThreshold": \.magneticNormThreshold,
            "magneticDipThreshold": \.magneticDipThreshold,
            "magneticNewReferenceTime": \.magneticNewReferenceTime,
            "maximumDeltaTime": \.maximumDeltaTime,
            "maximumGyroscopeBias": \.maximumGyroscopeBias,
            "gyroscopeScaleTimeConstant": \.gyroscopeScaleTimeConstant,
            "maximumGyroscopeScaleError": \.maximumGyroscopeScaleError,
            "gyroscopeNoiseDensity": \.gyroscopeNoiseDensity,
            "accelerometerNoiseDensity": \.accelerometerNoiseDensity,
            "magnetometerNoise": \.magnetometerNoise,
            "gyroscopeBiasInstability": \.gyroscopeBiasInstability,
            "gyroscopeScaleUncertainty": \.gyroscopeScaleUncertainty,
            "accelerometerInclinationError": \.accelerometerInclinationError,
            "magnetometerHeadingError": \.magnetometerHeadingError,
        ]
    }
    /// The settings that take `true` or `false`, by name (`useMagnetometer` follows the scored frame).
    static var switches: [String: WritableKeyPath<AttitudeFilterSettings, Bool>] {
        ["estimatesGyroscopeBias": \.estimatesGyroscopeBias]
    }

    /// The default settings changed as `text` says.
    /// - Throws: ``CommandLineError`` naming the part that is not `NAME=VALUE` with a known name and a
    ///   finite number (or a Boolean for a switch).
    static func parse(_ text: String) throws(CommandLineError) -> AttitudeFilterSettings {
        var settings = AttitudeFilterSettings()
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let pair = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard pair.count == 2 else { throw CommandLineError("--set: '\(part)' is not NAME=VALUE") }
            let (name, value) = (String(pair[0]), String(pair[1]))
            if let keyPath = numbers[name] {
                guard let number = Double(value), number.isFinite else {
                    throw CommandLineError("--set: \(name) needs a finite number, not '\(value)'")
                }
                settings[keyPath: keyPath] = number
            } else if let keyPath = switches[name] {
                guard let flag = Bool(value) else { throw CommandLineError("--set: \(name) needs true or false, not '\(value)'") }
                settings[keyPath: keyPath] = flag
            } else {
                let known = (Array(numbers.keys) + Array(switches.keys)).sorted().joined(separator: ", ")
                throw CommandLineError("--set: unknown setting '\(name)' (known: \(known))")
            }
        }
        return settings
    }
}
