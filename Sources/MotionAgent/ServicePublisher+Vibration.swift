import MQTT
import MotionContract
import MotionEngine
import MotionLog
import MotionVibration

/// The vibration service's state in the publisher: its pipeline while it runs, and what goes on across
/// its restarts (the topics' `seq`, the health report's counts).
struct VibrationServiceState: Sendable {
    /// The running service's pipeline; nil while it is stopped.
    var pipeline: VibrationPipeline?
    /// Summaries published since the agent started (the last summary's `seq`).
    var summaries: UInt64 = 0
    /// Spectra published since the agent started (the last spectrum's `seq`).
    var spectra: UInt64 = 0
    /// Accelerometer samples the service took in since the agent started.
    var samples: UInt64 = 0
    /// The last summary's judgement (for the health report).
    var latest: HealthPayload.Vibration?

    /// Feeds `samples` to the running pipeline and keeps the counts; nothing while stopped.
    mutating func add(_ samples: [VectorSample]) -> VibrationPipeline.Output? {
        guard var running = pipeline else { return nil }
        pipeline = nil  // the pipeline is changed in place, not copied (its analyser holds large arrays)
        let output = running.add(samples)
        self.samples += UInt64(samples.count)
        summaries = running.summarySequence
        spectra = running.spectrumSequence
        pipeline = running
        if let summary = output.summaries.last { latest = .init(velocityRMS: summary.velocityRMS, zone: summary.zone) }
        return output
    }

    /// The spectrum the `spectrum` command asks for; nil while stopped or before the first segment.
    mutating func requestedSpectrum() -> VibrationSpectrumPayload? {
        guard var running = pipeline else { return nil }
        pipeline = nil
        let spectrum = running.requestedSpectrum()
        spectra = running.spectrumSequence
        pipeline = running
        return spectrum
    }
}

// The vibration service: the accelerometer at the device's full rate through a VibrationPipeline, its
// summaries on `{base}/vibration`, its spectra on `{base}/vibration/spectrum`, its zone in
// `{base}/state/vibration`.
extension ServicePublisher {
    /// Starts the service (control queue): every accelerometer sample, in batches as the device delivers
    /// them. Refused with a reason (the service's error) when the device's rate leaves no room for the band.
    func startVibrationUpdates() {
        let settings = core.state.withLock { $0.services[.vibration].settings }
        guard let configured = settings.vibration else { return }
        guard let rate = core.engine.sampleRate, rate > 0 else {
            return report(reason: "the device's sample rate is unknown", for: .vibration)
        }
        // The spectrum's top line is rate ÷ 2.56 (and no higher than the chip's filter passes); the band needs
        // two octaves above its low edge, and lines in it.
        let filter = core.engine.deviceInfo?.accelerometerBandwidth
        guard let band = configured.measurableBand(atRate: rate, filterBandwidth: filter) else {
            let needed = VibrationServiceSettings.rateFactor * configured.band.lowerBound
            core.state.withLock {
                $0.services[.vibration].error =
                    rate < needed
                    ? "the device samples at \(rate.fixedDecimal(places: 0)) Hz; a band from \(configured.band.lowerBound.fixedDecimal(places: 1)) Hz needs \(needed.fixedDecimal(places: 1)) Hz or more"
                    : "the band holds fewer than three of the spectrum's lines at \(rate.fixedDecimal(places: 0)) Hz"
                        + (filter.map { " below the accelerometer's \($0.fixedDecimal(places: 0)) Hz filter" } ?? "")
                        + ": widen it or use more lines"
            }
            return
        }
        var measured = configured
        measured.band = band
        vibration.withLock { state in
            state.pipeline = VibrationPipeline(
                settings: measured, interval: settings.sampling.interval, sampleRate: rate, wallClock: encoder.wallClock,
                summarySequence: state.summaries, spectrumSequence: state.spectra)
        }
        let subscription = MotionSubscription(
            service: .accelerometer, interval: 0,
            sink: .batch { [weak self] subscription, samples, fault in
                guard !subscription.isCancelled else { return }
                self?.receiveVibration(samples, fault: fault)
            })
        subscription.sampleInterval = 0
        subscriptions.withLock { $0[.vibration] = subscription }
        core.engine.subscribe(subscription)
    }

    /// Stops the service's pipeline (its subscription is cancelled by ``stopUpdates(_:)``) and takes its
    /// zone out of `{base}/state/vibration`.
    func stopVibrationUpdates() {
        let client = core.liveClient
        // Under the service's lock (then the board's, always in that order): a delivery still under way
        // cannot put the zone back after it is taken out.
        vibration.withLock { state in
            guard state.pipeline != nil else { return }
            state.pipeline = nil
            vibrationState.update(on: client) { $0.severity = nil }
        }
    }

    /// Publishes the spectrum now (the `spectrum` command; control queue).
    /// - Returns: false when there is none yet (the first segment is not complete).
    func publishRequestedSpectrum() -> Bool {
        guard let delivery = readyToPublish(.vibration) else { return false }
        // Published under the lock that numbers it, so `seq` reaches the broker in order.
        return vibration.withLock { state in
            guard let spectrum = state.requestedSpectrum() else { return false }
            delivery.publish(spectrum.encoded(delivery.format), to: core.topics.vibrationSpectrum)
            return true
        }
    }

    /// One delivery (the device's thread).
    private func receiveVibration(_ samples: [MotionSample]?, fault: MotionEngineFault?) {
        guard let samples else { return report(fault, for: .vibration) }
        let vectors = samples.compactMap { if case .vector(let reading) = $0 { reading } else { nil } }
        guard let delivery = readyToPublish(.vibration) else { return }
        // Published under the service's lock: in `seq` order, and never after a stop took the zone out.
        vibration.withLock { state in
            guard let output = state.add(vectors) else { return }
            for summary in output.summaries {
                delivery.publish(summary.encoded(delivery.format), to: core.topics.data(.vibration))
            }
            for spectrum in output.spectra {
                delivery.publish(spectrum.encoded(delivery.format), to: core.topics.vibrationSpectrum)
            }
            if let severity = output.severity, let since = output.summaries.last?.timestamp {
                if let previous = output.summaries.last?.previousZone {
                    Logger.agent.notice("vibration: zone \(previous) → \(severity.zone) at \(severity.velocityRMS.fixedDecimal(places: 2)) mm/s")
                }
                vibrationState.update(on: delivery.client) { $0.severity = (severity, since) }
            }
        }
    }
}
