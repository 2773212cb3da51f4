import MotionMath
import MotionModel

// The sample services as SenML packs (RFC 8428; `format` `senml+json` or `senml+cbor`, since contract 1.9).
//
// One pack per message: base name `{senmlBaseName}{service}:` and base time (the first sample's Unix
// time) on the first record; one record per value (one per axis), the later samples' records with `t`
// relative to it. Units are SenML's registered (primary) ones, so values are converted from the native
// contract's: acceleration, gravity and user acceleration in m/s2 (g × 9.80665; SenML's `g` is the gram),
// magnetic field in T (µT × 10⁻⁶), angles and heading in rad, pressure in Pa, cadence in 1/s. SenML has no
// `seq`: a subscriber that needs to see lost messages uses the native contract.
extension SamplePayloadEncoder {
    /// The records of one message: `records` gives each sample's (names relative to the base name).
    func senml<Value: TimestampedSample>(
        _ values: [Value], service: MotionService, format: PayloadFormat, records: (Value) -> [SenMLRecord]
    ) -> [UInt8] {
        let offset = wallClock.offset
        var pack = SenMLPack()
        pack.records.reserveCapacity(values.count * 4)
        let baseTime = (values.first?.timestamp ?? 0) + offset
        for (index, value) in values.enumerated() {
            var sampleRecords = records(value)
            if index > 0 {
                let relative = value.timestamp + offset - baseTime
                for record in sampleRecords.indices { sampleRecords[record].time = relative }
            }
            // RFC 8428 has no value for "not a number": a record whose reading is not finite (or beyond a
            // float) is left out rather than written as null.
            pack.records += sampleRecords.filter(\.hasWritableValue)
        }
        if !pack.records.isEmpty {
            pack.records[0].baseName = senmlBaseName + service.topicName + ":"
            pack.records[0].baseTime = baseTime
        }
        return format == .senmlCBOR ? pack.cbor() : pack.json()
    }

    /// `x`, `y`, `z` of a vector under `prefix` (`gravity:x`, or `x` for a sensor topic's own value).
    static func senmlVector(_ prefix: String, _ value: SIMD3<Double>, unit: String, scale: Double = 1) -> [SenMLRecord] {
        let names = prefix.isEmpty ? ("x", "y", "z") : ("\(prefix):x", "\(prefix):y", "\(prefix):z")
        return [
            SenMLRecord(name: names.0, unit: unit, value: .number(value.x * scale)),
            SenMLRecord(name: names.1, unit: unit, value: .number(value.y * scale)),
            SenMLRecord(name: names.2, unit: unit, value: .number(value.z * scale)),
        ]
    }

    /// A sensor topic's records: `x`, `y`, `z` in m/s2, rad/s or T.
    static func senmlRecords(_ sample: VectorSample, service: MotionService) -> [SenMLRecord] {
        switch service {
        case .accelerometer: senmlVector("", sample.value, unit: "m/s2", scale: MotionMath.standardGravity)
        case .magnetometer: senmlVector("", sample.value, unit: "T", scale: 1e-6)
        default: senmlVector("", sample.value, unit: "rad/s")
        }
    }

    /// Device motion's records: `attitude:x`…`w` (no unit), `roll`, `pitch`, `yaw` (rad), `rotationRate:…`
    /// (rad/s), `gravity:…` and `userAcceleration:…` (m/s2), `magneticField:…` (T) and
    /// `magneticField:accuracy`, `heading` (rad; absent in the frames without north) and the filter's
    /// `uncertainty:heading` / `uncertainty:inclination` (rad, 1 σ) when it has them.
    static func senmlRecords(_ sample: DeviceMotionSample) -> [SenMLRecord] {
        let angles = EulerAngles(sample.attitude)
        let degree = Double.pi / 180
        var records = [
            SenMLRecord(name: "attitude:x", value: .number(sample.attitude.x)),
            SenMLRecord(name: "attitude:y", value: .number(sample.attitude.y)),
            SenMLRecord(name: "attitude:z", value: .number(sample.attitude.z)),
            SenMLRecord(name: "attitude:w", value: .number(sample.attitude.w)),
            SenMLRecord(name: "roll", unit: "rad", value: .number(angles.roll)),
            SenMLRecord(name: "pitch", unit: "rad", value: .number(angles.pitch)),
            SenMLRecord(name: "yaw", unit: "rad", value: .number(angles.yaw)),
        ]
        records += senmlVector("rotationRate", sample.rotationRate, unit: "rad/s")
        records += senmlVector("gravity", sample.gravity, unit: "m/s2", scale: MotionMath.standardGravity)
        records += senmlVector("userAcceleration", sample.userAcceleration, unit: "m/s2", scale: MotionMath.standardGravity)
        records += senmlVector("magneticField", sample.magneticField, unit: "T", scale: 1e-6)
        records.append(SenMLRecord(name: "magneticField:accuracy", value: .string(sample.magneticAccuracy.name)))
        if sample.heading >= 0 { records.append(SenMLRecord(name: "heading", unit: "rad", value: .number(sample.heading * degree))) }
        if let uncertainty = sample.uncertainty {
            records.append(SenMLRecord(name: "uncertainty:heading", unit: "rad", value: .number(uncertainty.heading * degree)))
            records.append(SenMLRecord(name: "uncertainty:inclination", unit: "rad", value: .number(uncertainty.inclination * degree)))
        }
        return records
    }

    /// The pedometer's records: `steps` and the floors (count), `distance` (m), `cadence` (1/s), `pace`
    /// (s/m, which SenML's registry lacks: no unit).
    static func senmlRecords(_ sample: PedometerSample) -> [SenMLRecord] {
        var records = [
            SenMLRecord(name: "steps", unit: "count", value: .count(sample.steps)),
            SenMLRecord(name: "distance", unit: "m", value: .number(sample.distance)),
        ]
        if let cadence = sample.cadence { records.append(SenMLRecord(name: "cadence", unit: "1/s", value: .number(cadence))) }
        if let pace = sample.pace { records.append(SenMLRecord(name: "pace", value: .number(pace))) }
        if let up = sample.floorsAscended { records.append(SenMLRecord(name: "floorsAscended", unit: "count", value: .count(up))) }
        if let down = sample.floorsDescended {
            records.append(SenMLRecord(name: "floorsDescended", unit: "count", value: .count(down)))
        }
        return records
    }

    /// The activity's records: `activity` and `confidence` (strings), `since` (s since boot).
    static func senmlRecords(_ sample: ActivitySample) -> [SenMLRecord] {
        [
            SenMLRecord(name: "activity", value: .string(sample.activity)),
            SenMLRecord(name: "confidence", value: .string(sample.confidence)),
            SenMLRecord(name: "since", unit: "s", value: .number(sample.since)),
        ]
    }

    /// The altimeter's records: `relativeAltitude` and `absoluteAltitude` (m), `pressure` (Pa).
    static func senmlRecords(_ sample: AltitudeSample) -> [SenMLRecord] {
        [
            SenMLRecord(name: "relativeAltitude", unit: "m", value: .number(sample.relativeAltitude)),
            SenMLRecord(name: "pressure", unit: "Pa", value: .number(sample.pressure * 1000)),
            SenMLRecord(name: "absoluteAltitude", unit: "m", value: .number(sample.absoluteAltitude)),
        ]
    }
}
