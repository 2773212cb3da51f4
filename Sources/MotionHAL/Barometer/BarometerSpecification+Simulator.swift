import MotionMath

extension BarometerSpecification {
    /// The options of driver `sim`, in the order ``description`` writes them.
    static let simulatorOptionNames = ["rate", "pressure", "temperature", "noise", "seed", "alt", "climb", "floors", "motion"]

    /// The configuration `sim:OPTIONS` describes (see ``BarometerSpecification``).
    static func simulatorConfiguration(options: Substring) throws(DeviceSpecificationSyntaxError)
        -> SimulatedBarometer.Configuration
    {
        var configuration = SimulatedBarometer.Configuration()
        guard !options.trimmingBlanks().isEmpty else { return configuration }
        var profileOption: Substring?
        let items = options.split(separator: ",", omittingEmptySubsequences: false)
        for (key, value) in try DeviceSpecificationGrammar.options(
            items, driver: "sim", whole: "sim:\(options)", known: simulatorOptionNames, form: "key=value")
        {
            if ["alt", "climb", "floors", "motion"].contains(key) {
                if let profileOption {
                    throw DeviceSpecificationSyntaxError(
                        "options '\(profileOption)' and '\(key)' of driver sim both set the altitude profile: give one")
                }
                profileOption = key
            }
            switch key {
            case "rate":
                configuration.sampleRate = try number(value, option: key, unit: "Hz", range: SimulatedBarometer.supportedSampleRates)
            case "pressure":
                configuration.referencePressure = try number(value, option: key, unit: "Pa", range: 10_000...200_000)
            case "temperature":
                configuration.temperature = try number(value, option: key, unit: "°C", range: -60...100)
            case "noise":
                configuration.pressureNoise = try number(value, option: key, unit: "Pa", range: 0...1000)
            case "seed":
                configuration.seed = try DeviceSpecificationGrammar.seed(value, driver: "sim")
            case "alt":
                configuration.altitudeProfile = .constant(try number(value, option: key, unit: "m", range: -1000...10_000))
            case "climb":
                guard let at = value.firstIndex(of: "@") else {
                    throw DeviceSpecificationSyntaxError("option 'climb' of driver sim: '\(value)' needs the form METRES@SECONDS, e.g. 10@20")
                }
                let height = try number(value[..<at], option: key, unit: "m", range: -10_000...10_000)
                let duration = try number(value[value.index(after: at)...], option: key, unit: "s", range: 0...86_400)
                guard duration > 0 else {
                    throw DeviceSpecificationSyntaxError("option 'climb' of driver sim: the climb needs a duration > 0 s")
                }
                configuration.altitudeProfile = .climb(height: height, duration: duration)
            case "floors":
                guard let count = Int(value), (1...1000).contains(count) else {
                    throw DeviceSpecificationSyntaxError("option 'floors' of driver sim: '\(value)' is not a number of floors in 1...1000")
                }
                configuration.altitudeProfile = .floors(count: count)
            case "motion":
                guard let motion = SimulatedMotion(name: String(value)) else {
                    throw DeviceSpecificationSyntaxError(
                        "option 'motion' of driver sim: '\(value)' is not one of \(IMUDeviceSpecification.simulatedMotions.joined(separator: ", "))")
                }
                configuration.altitudeProfile = .motion(motion)
            default:  // unreachable: `options` refuses keys outside simulatorOptionNames
                throw DeviceSpecificationSyntaxError("unknown option '\(key)' of driver sim")
            }
        }
        return configuration
    }

    /// The options that describe `configuration`: those that differ from the defaults, in
    /// ``simulatorOptionNames`` order.
    static func simulatorOptions(_ configuration: SimulatedBarometer.Configuration) -> [String] {
        let defaults = SimulatedBarometer.Configuration()
        var options: [String] = []
        func add(_ key: String, _ value: Double, _ standard: Double) {
            if value != standard { options.append("\(key)=\(value.decimalText)") }
        }
        add("rate", configuration.sampleRate, defaults.sampleRate)
        add("pressure", configuration.referencePressure, defaults.referencePressure)
        add("temperature", configuration.temperature, defaults.temperature)
        add("noise", configuration.pressureNoise, defaults.pressureNoise)
        if configuration.seed != defaults.seed { options.append("seed=\(configuration.seed)") }
        switch configuration.altitudeProfile {
        case .constant(let altitude): add("alt", altitude, 0)
        case .climb(let height, let duration): options.append("climb=\(height.decimalText)@\(duration.decimalText)")
        case .floors(let count): options.append("floors=\(count)")
        // A trajectory no name selects (made in code) has no text form: it is left out.
        case .motion(let motion): if let name = motion.name { options.append("motion=\(name)") }
        }
        return options
    }

    /// `value` as a finite number inside `range`.
    private static func number(_ value: Substring, option: Substring, unit: String, range: ClosedRange<Double>)
        throws(DeviceSpecificationSyntaxError) -> Double
    {
        try DeviceSpecificationGrammar.number(value, option: option, driver: "sim", unit: unit, range: range)
    }
}
