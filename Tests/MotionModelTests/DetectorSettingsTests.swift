import MotionModel
import Testing

/// Each detector's thresholds are declared once, in its settings' parameter table: the keys the
/// configuration reads, defaults inside their ranges, and each parameter writing its own field.
@Suite struct DetectorSettingsTests {
    @Test(arguments: MotionDetectorKind.allCases)
    func everyParameterIsWellFormed(detector: MotionDetectorKind) {
        let parameters = MotionDetectorSettings.parameters(of: detector)
        #expect(Set(parameters.map(\.key)).count == parameters.count, "keys are unique")
        for parameter in parameters {
            #expect(parameter.key.allSatisfy { $0.isLowercase || $0 == "_" }, "\(parameter.key) is snake_case")
            #expect(parameter.range.contains(parameter.defaultValue), "\(detector.rawValue).\(parameter.key)")
            #expect(!parameter.isWhole || parameter.defaultValue.rounded() == parameter.defaultValue)
            #expect(MotionDetectorSettings()[keyPath: parameter.field] == parameter.defaultValue, "the default is the field's")
        }
    }

    @Test("each parameter reaches its own detector's field and no other")
    func parametersWriteTheirOwnField() {
        for detector in MotionDetectorKind.allCases {
            for parameter in MotionDetectorSettings.parameters(of: detector) {
                var settings = MotionDetectorSettings()
                settings[keyPath: parameter.field] = parameter.range.upperBound
                #expect(settings != MotionDetectorSettings())
                // Every other parameter keeps its default.
                for other in MotionDetectorKind.allCases.flatMap({ kind in MotionDetectorSettings.parameters(of: kind).map { (kind, $0) } })
                where !(other.0 == detector && other.1.key == parameter.key) {
                    #expect(settings[keyPath: other.1.field] == other.1.defaultValue, "\(detector.rawValue).\(parameter.key) wrote \(other.0.rawValue).\(other.1.key)")
                }
            }
        }
    }

    @Test("the derived levels: a fall ends below 1 g, an impact re-arms above it")
    func derivedLevels() {
        #expect(FreeFallSettings().endThreshold == 0.5 && ImpactSettings().rearmThreshold == 1.5)
        for threshold in stride(from: 0.05, through: 0.9, by: 0.05) {
            var fall = FreeFallSettings()
            fall.threshold = threshold
            #expect(fall.endThreshold > threshold && fall.endThreshold < 1, "\(threshold)")
        }
        var impact = ImpactSettings()
        impact.threshold = 1.2
        #expect(impact.rearmThreshold > 1 && impact.rearmThreshold < 1.2)
    }

    @Test func switchingOff() {
        var settings = MotionDetectorSettings()
        #expect(MotionDetectorKind.allCases.allSatisfy(settings.isOn))
        settings.switchedOff = [.tap]
        #expect(!settings.isOn(.tap) && settings.isOn(.shake))
    }
}
