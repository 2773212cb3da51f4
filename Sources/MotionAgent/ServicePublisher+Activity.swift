import MotionContract
import MotionEngine
import MotionFusion
import MotionHAL

/// The listeners the running `steps`, `activity` and `altitude` services hold.
struct ActivityListeners: Sendable {
    /// Per running steps or activity service: its listener on the detector host (which keeps the host's
    /// bank running).
    var detectors: [MotionService: MotionDetectorHost.ListenerToken] = [:]
    /// The altitude service's listener on the altimeter (which keeps the barometer running).
    var altimeter: MotionAltimeter.ListenerToken?
}

// The `steps`, `activity` and `altitude` services: what the on-board pedometer, activity classifier and
// barometer make of the sensors, published like the sensor services (`latest` or `mean` at the service's
// interval, deadband, batches, QoS, format, status and control).
extension ServicePublisher {
    /// On the control queue: starts the steps or activity service (unless it runs): the detector host runs (a
    /// listener) and the engine delivers one sample of the filter's output per interval, each a tick that
    /// reads the host.
    func startActivityUpdates(_ service: MotionService, interval: Double) {
        guard activityListeners.withLock({ $0.detectors[service] == nil }), let token = detectorHost.addListener({ _ in }) else { return }
        activityListeners.withLock { $0.detectors[service] = token }
        let subscription = MotionSubscription(
            service: .fusedMotion(.xArbitraryZVertical), interval: 0,
            sink: .batch { [weak self] subscription, samples, fault in
                guard !subscription.isCancelled else { return }
                self?.receiveTicks(samples, fault: fault, for: service)
            })
        subscription.sampleInterval = core.effectiveInterval(interval)
        subscriptions.withLock { $0[service] = subscription }
        core.engine.subscribe(subscription)
    }

    /// On the control queue: starts the altitude service on the altimeter (nothing without a barometer, or
    /// when it runs already: it does not wait for the IMU, whose opening starts the active services again).
    func startAltitudeUpdates() {
        guard activityListeners.withLock({ $0.altimeter == nil }) else { return }
        let token = core.altimeter.addListener { [weak self] update in self?.receiveAltitude(update) }
        activityListeners.withLock { $0.altimeter = token }
    }

    /// On the control queue: releases what a steps, activity or altitude service held.
    func stopActivityUpdates(_ service: MotionService) {
        let (detectorToken, altimeterToken) = activityListeners.withLock { listeners in
            let altimeterToken = service == .altitude ? listeners.altimeter : nil
            if service == .altitude { listeners.altimeter = nil }
            return (listeners.detectors.removeValue(forKey: service), altimeterToken)
        }
        if let detectorToken { detectorHost.removeListener(detectorToken) }
        if let altimeterToken { core.altimeter.removeListener(altimeterToken) }
    }

    // MARK: - Data (the device's thread)

    /// A steps or activity service's ticks: the pedometer's totals or the activity at each. The values are
    /// made under the pipelines' lock (the step tally lives there); the payloads are encoded after it, as
    /// the sensor services' are.
    func receiveTicks(_ samples: [MotionSample]?, fault: MotionEngineFault?, for service: MotionService) {
        guard let samples else { return report(fault, for: service) }
        let times = samples.map(\.timestamp)
        guard !times.isEmpty, let delivery = readyToPublish(service) else { return }
        if service == .steps {
            let (seen, cadence) = (detectorHost.lastSampleTime, detectorHost.cadence)
            let floors = core.altimeter.isAvailable
            let (messages, batched) = pipelines.withLock { pipelines in
                let values = times.map { time in
                    pipelines.stepTally.advance(to: time, seenThrough: seen, ledger: detectorHost.pedometerTotals)
                    let tally = pipelines.stepTally
                    return PedometerSample(
                        timestamp: time, steps: tally.steps, distance: tally.distance, cadence: cadence,
                        pace: cadence.map(StrideLength.pace(cadence:)), floorsAscended: floors ? tally.floorsAscended : nil,
                        floorsDescended: floors ? tally.floorsDescended : nil)
                }
                return (pipelines.steps.add(values), pipelines.steps.isBatched)
            }
            for message in messages {
                delivery.publish(encoder.encode(message.values, seq: message.sequence, batched: batched, format: delivery.format), to: core.topics.data(service))
                delivery.sparkplug?.publish(encoder.sparkplugMetrics(message.values), of: service)
            }
        } else {
            let estimate = detectorHost.currentActivity
            let (messages, batched) = pipelines.withLock { pipelines in
                let values = times.map { time in
                    // Before the first estimate: unknown, since the service's first tick.
                    if pipelines.activityStart == nil { pipelines.activityStart = time }
                    return ActivitySample(
                        timestamp: time, activity: estimate?.activity.rawValue ?? MotionActivityEstimate.Activity.unknown.rawValue,
                        confidence: (estimate?.confidence ?? .low).name,
                        since: estimate?.since ?? pipelines.activityStart ?? time)
                }
                return (pipelines.activity.add(values), pipelines.activity.isBatched)
            }
            for message in messages {
                delivery.publish(encoder.encode(message.values, seq: message.sequence, batched: batched, format: delivery.format), to: core.topics.data(service))
                delivery.sparkplug?.publish(encoder.sparkplugMetrics(message.values), of: service)
            }
        }
    }

    /// The altimeter's readings (pressure in kPa, Apple's unit) or its fault.
    func receiveAltitude(_ update: MotionAltimeter.Update) {
        switch update {
        case .fault(let reason):
            report(reason: "barometer: \(reason)", for: .altitude)
        case .readings(let readings):
            guard let delivery = readyToPublish(.altitude) else { return }
            let values = readings.map {
                AltitudeSample(
                    timestamp: $0.timestamp, relativeAltitude: $0.relativeAltitude, pressure: $0.pressure / 1000,
                    absoluteAltitude: $0.absoluteAltitude)
            }
            let (messages, batched) = pipelines.withLock { ($0.altitude.add(values), $0.altitude.isBatched) }
            for message in messages {
                delivery.publish(encoder.encode(message.values, seq: message.sequence, batched: batched, format: delivery.format), to: core.topics.data(.altitude))
                delivery.sparkplug?.publish(encoder.sparkplugMetrics(message.values), of: .altitude)
            }
        }
    }
}
