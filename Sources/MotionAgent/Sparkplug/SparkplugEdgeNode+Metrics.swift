import MotionContract
import MotionEngine
import MotionLog

// The edge node's metrics: the samples and statuses of its devices, and the node's own (the clock's state,
// the counters). Threading as the node's: each is handed to the node's queue, which publishes in order.
extension SparkplugEdgeNode {
    /// Samples of `service`, as metrics (from the device's thread).
    func publish(_ metrics: [SparkplugMetric], of service: MotionService) {
        guard !metrics.isEmpty else { return }
        queue.async {
            let now = self.now
            self.send(self.withSession { $0.update(service.topicName, metrics, now: now) })
        }
    }

    /// `service`'s status changed (control queue): its control metrics, when they changed. A device comes
    /// and goes with its sensor: born (DBIRTH) when the service becomes available, and dead (its last
    /// control metrics, with the reason, then DDEATH) when it stops being available.
    func statusChanged(_ service: MotionService, _ status: ServiceStatus) {
        guard Self.services.contains(service) else { return }
        let device = service.topicName
        queue.async {
            let now = self.now
            self.send(self.withSession { session in
                let declared = session.hasDevice(device)
                if status.available, !declared {
                    return session.declareDevice(device, metrics: Self.deviceMetrics(service, status, now: now), now: now)
                }
                guard declared else { return [] }
                let changed = Self.controlMetrics(status, now: now).filter { metric in
                    metric.name.map { session.value(of: $0, device: device) != metric.value } ?? false
                }
                let update = session.update(device, changed, now: now)
                return status.available ? update : update + session.removeDevice(device, now: now)
            })
        }
    }

    /// What the detectors found (the detectors' thread): events and changed states as the metrics of the
    /// `detectors` device, each at the time it began; the device is born first when it was not yet (the
    /// detectors were switched on after the start).
    func detectorsFound(_ output: DetectorPipeline.Output) {
        guard !output.events.isEmpty || !output.states.isEmpty else { return }
        queue.async {
            let now = self.now
            self.send(self.withSession { session in
                let device = SparkplugDetectorMetrics.device
                let birth = session.hasDevice(device) ? [] : session.declareDevice(device, metrics: Self.detectorDeclarations(now: now), now: now)
                var counts: [String: UInt64] = [:]
                var metrics: [SparkplugMetric] = []
                for event in output.events {
                    let name = SparkplugDetectorMetrics.countName(of: event.type)
                    let last: UInt64 = if case .uint64(let count)? = session.value(of: name, device: device) { count } else { 0 }
                    let count = (counts[name] ?? last) + 1
                    counts[name] = count
                    metrics += SparkplugDetectorMetrics.metrics(of: event, count: count)
                }
                for state in output.states { metrics += SparkplugDetectorMetrics.metrics(of: state) }
                return birth + session.update(device, metrics, now: now)
            })
        }
    }

    /// The `detectors` device's metrics for its birth, null until the first event and state.
    static func detectorDeclarations(now: UInt64) -> [SparkplugMetric] {
        SparkplugDetectorMetrics.declarations.map { declaration in
            var metric = declaration
            metric.timestamp = now
            return metric
        }
    }

    func publishNodeMetrics() {
        let now = self.now
        send(withSession { session in
            session.updateNode(nodeMetrics(refused: session.refusedCommands, dropped: session.history.dropped, now: now), now: now)
        })
    }

    /// The node's metrics now.
    func nodeMetrics(refused: UInt64, dropped: UInt64, now: UInt64) -> [SparkplugMetric] {
        let configuration = core.configuration
        let status = clock.kernelStatusNow
        var maximumError = status.map { SparkplugMetric(name: SparkplugMetricName.clockMaximumError, timestamp: now, value: .double($0.maximumError * 1000)) }
            ?? SparkplugMetric(name: SparkplugMetricName.clockMaximumError, timestamp: now, nullOf: .double)
        maximumError.properties = [SparkplugProperty(SparkplugProperty.engineeringUnitKey, .string("ms"))]
        return [
            SparkplugMetric(name: SparkplugMetricName.version, timestamp: now, value: .string(core.version)),
            SparkplugMetric(name: SparkplugMetricName.deviceID, timestamp: now, value: .string(configuration.resolvedDeviceID)),
            SparkplugMetric(name: SparkplugMetricName.imu, timestamp: now, value: .string(core.engine.deviceInfo?.chip ?? configuration.device)),
            SparkplugMetric(
                name: SparkplugMetricName.clockSynchronized, timestamp: now, value: .boolean(status?.synchronized ?? core.wallClock.isSynchronized)),
            maximumError,
            SparkplugMetric(name: SparkplugMetricName.refusedCommands, timestamp: now, value: .uint64(refused)),
            SparkplugMetric(name: SparkplugMetricName.droppedHistory, timestamp: now, value: .uint64(dropped)),
        ]
    }

    /// Every metric of `service`'s device, for its birth: the control metrics, then the samples' metrics
    /// (null until the first sample).
    static func deviceMetrics(_ service: MotionService, _ status: ServiceStatus?, now: UInt64) -> [SparkplugMetric] {
        controlMetrics(status, now: now)
            + SamplePayloadEncoder.sparkplugDeclarations(for: service).map { declaration in
                var metric = declaration
                metric.timestamp = now
                return metric
            }
    }

    /// A device's control and status metrics for `status` (nil: not known yet).
    static func controlMetrics(_ status: ServiceStatus?, now: UInt64) -> [SparkplugMetric] {
        guard let status else { return [] }
        var interval = SparkplugMetric(name: SparkplugMetricName.interval, timestamp: now, value: .double(status.interval))
        interval.properties = [SparkplugProperty(SparkplugProperty.engineeringUnitKey, .string("s"))]
        return [
            SparkplugMetric(name: SparkplugMetricName.running, timestamp: now, value: .boolean(status.active)),
            interval,
            SparkplugMetric(name: SparkplugMetricName.available, timestamp: now, value: .boolean(status.available)),
            SparkplugMetric(name: SparkplugMetricName.unavailableReason, timestamp: now, value: .string(status.error ?? "")),
        ]
    }
}
