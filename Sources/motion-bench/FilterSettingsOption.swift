import FusionReference
import MotionCommandLine
import MotionFusion

/// `--set NAME=VALUE[,NAME=VALUE…]`: attitude filter settings other than the defaults, for scoring a tuning
/// or taking the filter's parts away one at a time (docs/FUSION.md's ablation). Names are
/// ``AttitudeFilterSettings``'s properties, values in their units (SI: s, rad, rad/s, m/s², µT); `true`
/// or `false` for the switches. With `--filter vqf`, VQF's parameters (``VQFReference/Parameters``, in
/// VQF's units: s, °/s, degrees, m/s²), so that VQF itself can be changed one part at a time.
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

    /// VQF's parameters that take a number, by name.
    static var referenceNumbers: [String: WritableKeyPath<VQFReference.Parameters, Double>] {
        [
            "accelerometerTimeConstant": \.accelerometerTimeConstant,
            "magnetometerTimeConstant": \.magnetometerTimeConstant,
            "biasSigmaInitial": \.biasSigmaInitial, "biasForgettingTime": \.biasForgettingTime, "biasClip": \.biasClip,
            "biasSigmaMotion": \.biasSigmaMotion, "biasVerticalForgettingFactor": \.biasVerticalForgettingFactor,
            "biasSigmaRest": \.biasSigmaRest, "restMinimumTime": \.restMinimumTime,
            "restFilterTimeConstant": \.restFilterTimeConstant, "restGyroscopeThreshold": \.restGyroscopeThreshold,
            "restAccelerometerThreshold": \.restAccelerometerThreshold,
            "magneticCurrentTimeConstant": \.magneticCurrentTimeConstant,
            "magneticReferenceTimeConstant": \.magneticReferenceTimeConstant,
            "magneticNormThreshold": \.magneticNormThreshold, "magneticDipThreshold": \.magneticDipThreshold,
            "magneticNewTime": \.magneticNewTime, "magneticNewFirstTime": \.magneticNewFirstTime,
            "magneticNewMinimumRate": \.magneticNewMinimumRate,
            "magneticMinimumUndisturbedTime": \.magneticMinimumUndisturbedTime,
            "magneticMaximumRejectionTime": \.magneticMaximumRejectionTime,
            "magneticRejectionFactor": \.magneticRejectionFactor,
        ]
    }
    /// VQF's switches, by name.
    static var referenceSwitches: [String: WritableKeyPath<VQFReference.Parameters, Bool>] {
        [
            "estimatesBiasInMotion": \.estimatesBiasInMotion, "estimatesBiasAtRest": \.estimatesBiasAtRest,
            "rejectsMagneticDisturbances": \.rejectsMagneticDisturbances,
        ]
    }

    /// The default settings changed as `text` says.
    /// - Throws: ``CommandLineError`` naming the part that is not `NAME=VALUE` with a known name and a
    ///   finite number (or a Boolean for a switch).
    static func parse(_ text: String) throws(CommandLineError) -> AttitudeFilterSettings {
        try apply(text, to: AttitudeFilterSettings(), numbers: numbers, switches: switches)
    }

    /// VQF's default parameters changed as `text` says.
    /// - Throws: ``CommandLineError`` as ``parse(_:)``.
    static func parseReference(_ text: String) throws(CommandLineError) -> VQFReference.Parameters {
        try apply(text, to: VQFReference.Parameters(), numbers: referenceNumbers, switches: referenceSwitches)
    }

    private static func apply<Settings>(
        _ text: String, to defaults: Settings, numbers: [String: WritableKeyPath<Settings, Double>],
        switches: [String: WritableKeyPath<Settings, Bool>]
    ) throws(CommandLineError) -> Settings {
        var settings = defaults
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
