import MotionMath
import MotionModel

// The sample services as Sparkplug B metrics (the `sparkplug` profile, docs/MQTT-CONTRACT.md): the records
// SenML publishes, one metric per value, named as SenML names them with `/` for `:` (`attitude/x`,
// `rotationRate/z`, `magneticField/accuracy`), in SenML's SI units (written as each metric's `engUnit`
// property), measurements as Float, counts as UInt64, names as String. Each metric carries its sample's
// Unix time (ms) as its timestamp; a batch is one metric per value and sample. A value that is not finite
// is sent as null.
extension SamplePayloadEncoder {
    /// The metrics of a sensor topic's samples (accelerometer, gyro, magnetometer).
    public func sparkplugMetrics(_ values: [VectorSample], service: MotionService) -> [SparkplugMetric] {
        sparkplugMetrics(values) { Self.senmlRecords($0, service: service) }
    }

    /// The metrics of device-motion samples.
    public func sparkplugMetrics(_ values: [DeviceMotionSample]) -> [SparkplugMetric] {
        sparkplugMetrics(values) { Self.senmlRecords($0) }
    }

    /// The metrics of the pedometer's samples.
    public func sparkplugMetrics(_ values: [PedometerSample]) -> [SparkplugMetric] {
        sparkplugMetrics(values) { Self.senmlRecords($0) }
    }

    /// The metrics of the activity's samples.
    public func sparkplugMetrics(_ values: [ActivitySample]) -> [SparkplugMetric] {
        sparkplugMetrics(values) { Self.senmlRecords($0) }
    }

    /// The metrics of the altimeter's samples.
    public func sparkplugMetrics(_ values: [AltitudeSample]) -> [SparkplugMetric] {
        sparkplugMetrics(values) { Self.senmlRecords($0) }
    }

    /// Every metric `service` can publish, with its datatype and unit and no value: what a device's birth
    /// declares before its first sample (the optional ones too: heading, the filter's uncertainty, cadence,
    /// pace, floors). Empty for the vibration service, which has no Sparkplug metrics.
    public static func sparkplugDeclarations(for service: MotionService) -> [SparkplugMetric] {
        let records: [SenMLRecord]
        switch service {
        case .accelerometer, .gyro, .magnetometer:
            records = senmlRecords(VectorSample(timestamp: 0, value: .zero), service: service)
        case .deviceMotion:
            records = senmlRecords(
                DeviceMotionSample(
                    timestamp: 0, attitude: Quaternion(w: 1, x: 0, y: 0, z: 0), rotationRate: .zero, gravity: .zero,
                    userAcceleration: .zero, magneticField: .zero, magneticAccuracy: .uncalibrated, heading: 0,
                    uncertainty: AttitudeUncertaintyEstimate(heading: 0, inclination: 0)))
        case .steps:
            records = senmlRecords(
                PedometerSample(timestamp: 0, steps: 0, distance: 0, cadence: 0, pace: 0, floorsAscended: 0, floorsDescended: 0))
        case .activity: records = senmlRecords(ActivitySample(timestamp: 0, activity: "", confidence: "", since: 0))
        case .altitude: records = senmlRecords(AltitudeSample(timestamp: 0, relativeAltitude: 0, pressure: 0, absoluteAltitude: 0))
        case .vibration: records = []
        }
        return records.map { record in
            var metric = sparkplugMetric(record, timestamp: 0)
            metric.timestamp = nil
            metric.value = nil
            return metric
        }
    }

    private func sparkplugMetrics<Value: TimestampedSample>(_ values: [Value], records: (Value) -> [SenMLRecord]) -> [SparkplugMetric] {
        let offset = wallClock.offset
        var metrics: [SparkplugMetric] = []
        metrics.reserveCapacity(values.count * 4)
        for value in values {
            let timestamp = Self.sparkplugTimestamp(unixTime: value.timestamp + offset)
            for record in records(value) {
                metrics.append(Self.sparkplugMetric(record, timestamp: timestamp))
            }
        }
        return metrics
    }

    /// A Unix time, s, as Sparkplug's milliseconds (0 before the epoch).
    public static func sparkplugTimestamp(unixTime: Double) -> UInt64 {
        unixTime > 0 && unixTime.isFinite ? UInt64((unixTime * 1000).rounded()) : 0
    }

    /// A SenML record as a metric: its name with `/` for `:`, its unit as `engUnit`.
    static func sparkplugMetric(_ record: SenMLRecord, timestamp: UInt64) -> SparkplugMetric {
        let name = record.name.replacing(":", with: "/")
        var metric: SparkplugMetric
        switch record.value {
        case .number(let number):
            metric = record.hasWritableValue
                ? SparkplugMetric(name: name, timestamp: timestamp, value: .float(Float(number)))
                : SparkplugMetric(name: name, timestamp: timestamp, nullOf: .float)
        case .count(let count): metric = SparkplugMetric(name: name, timestamp: timestamp, value: .uint64(count))
        case .string(let text): metric = SparkplugMetric(name: name, timestamp: timestamp, value: .string(text))
        case .bool(let flag): metric = SparkplugMetric(name: name, timestamp: timestamp, value: .boolean(flag))
        }
        if let unit = record.unit { metric.properties = [SparkplugProperty(SparkplugProperty.engineeringUnitKey, .string(unit))] }
        return metric
    }
}
