import MotionModel
import Testing

/// The fall detector's thresholds are declared once, in ``FallSettings``' table, as the other detectors'
/// are: keys the configuration will read, defaults inside their ranges, each parameter writing its own field.
@Suite struct FallSettingsTests {
    @Test func everyParameterIsWellFormedAndWritesItsOwnField() {
        let parameters = FallSettings.parameters
        #expect(parameters.count == 15)
        #expect(Set(parameters.map(\.key)).count == parameters.count, "keys are unique")
        for parameter in parameters {
            #expect(parameter.key.allSatisfy { $0.isLowercase || $0 == "_" }, "\(parameter.key) is snake_case")
            #expect(parameter.range.contains(parameter.defaultValue), "\(parameter.key)")
            #expect(!parameter.unit.isEmpty, "\(parameter.key) has a unit")
            #expect(FallSettings()[keyPath: parameter.field] == parameter.defaultValue, "the default is the field's")
            var settings = FallSettings()
            settings[keyPath: parameter.field] = parameter.range.upperBound
            #expect(settings != FallSettings())
            for other in parameters where other.key != parameter.key {
                #expect(settings[keyPath: other.field] == other.defaultValue, "\(parameter.key) wrote \(other.key)")
            }
        }
    }

    @Test("the levels keep their order: free fall below the dip, the dip below 1 g, the impact above it")
    func levelsAreOrdered() {
        let settings = FallSettings()
        #expect(settings.freeFallThreshold < settings.dipThreshold && settings.dipThreshold < 1 && settings.impactThreshold > 1)
        #expect(settings.minimumDip < settings.maximumDip && settings.minimumFreeFall <= settings.maximumDip)
        // Every accepted dip threshold lies below 1 g (a body at rest), every impact threshold above it.
        let ranges = Dictionary(uniqueKeysWithValues: FallSettings.parameters.map { ($0.key, $0.range) })
        #expect(ranges["dip_threshold"]!.upperBound < 1 && ranges["impact_threshold"]!.lowerBound > 1)
    }
}
