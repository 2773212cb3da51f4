import Dispatch
import MotionHAL
import MotionMath
import MotionSupervision

// The device's lifecycle under the engine: starting, stopping, retrying a failed start with back-off,
// the stall watchdog, and the device's events (samples through the router, faults to every subscription).
extension MotionEngine {
    /// Starts the device at its default rate and its stall watchdog; on failure every subscriber gets a
    /// fault (once per fault episode) and the supervisor tries again after its back-off.
    /// - Parameter reports: where the fault of a failed start is added, for the caller to send once it has
    ///   released the engine's locks (a sink may call the engine again).
    func startDeviceOrRetry(_ lifecycle: inout MotionEngineLifecycle, reports: inout [FaultReport]) {
        if !startDevice(&lifecycle, reports: &reports) { scheduleRetry(&lifecycle) }
    }

    /// Starts the device at its default rate and its stall watchdog; on failure every subscriber gets a
    /// fault (once per fault episode), added to `reports`.
    /// - Returns: whether it started.
    private func startDevice(_ lifecycle: inout MotionEngineLifecycle, reports: inout [FaultReport]) -> Bool {
        guard let device = lifecycle.device else { return false }
        lifecycle.generation &+= 1
        let generation = lifecycle.generation
        let sampleRate = device.info.defaultSampleRate
        let now = environment.monotonicNanoseconds()
        processing.withLock { processing in
            processing.generation = generation
            processing.router.sampleRate = sampleRate
            processing.router.resetTiming()
            processing.health.deviceStarted(at: now)
        }
        do {
            try device.start(sampleRate: sampleRate) { [weak self] event in
                self?.handle(event, generation: generation)
            }
            lifecycle.isRunning = true
            supervisor.succeeded()
            stallWatchdog.watch(self, generation: generation)
            return true
        } catch {
            let fault = MotionEngineFault(.notAvailable, "The motion device could not be started: \(error)")
            let subscriptions = processing.withLock { processing -> [MotionSubscription] in
                processing.health.deviceStopped()
                guard processing.health.beginFault(fault, description: fault.description) else { return [] }
                return processing.router.subscriptions
            }
            if !subscriptions.isEmpty { reports.append(FaultReport(fault: fault, subscriptions: subscriptions)) }
            return false
        }
    }

    /// Stops the running device and its watchdog.
    func stopDevice(_ lifecycle: inout MotionEngineLifecycle) {
        lifecycle.device?.stop()
        lifecycle.isRunning = false
        stallWatchdog.unwatch(self)
        processing.withLock { $0.health.deviceStopped() }
    }

    /// Starts the device again after the supervisor's next back-off delay, and again after each failure,
    /// until it runs, its subscriptions all left or the device was replaced (``setDevice(_:)`` and the last
    /// ``unsubscribe(_:)`` cancel the retries).
    private func scheduleRetry(_ lifecycle: inout MotionEngineLifecycle) {
        let chip = lifecycle.device?.info.chip ?? "none"
        let delay = supervisor.retry { [weak self] in
            guard let self else { return .abandoned }
            var reports: [FaultReport] = []
            defer { for report in reports { report.send() } }
            return self.lifecycle.withLock { lifecycle in
                guard !lifecycle.isRunning, lifecycle.device != nil, processing.withLock({ !$0.router.isEmpty }) else { return .abandoned }
                if startDevice(&lifecycle, reports: &reports) { return .succeeded }
                logRetry(of: chip, in: supervisor.nextDelay)
                return .failed
            }
        }
        logRetry(of: chip, in: delay)
    }

    private func logRetry(of chip: String, in delay: Double) {
        environment.logger.debug("device \(chip): starting again in \(delay.fixedDecimal(places: 1)) s")
    }

    /// From ``stallWatchdog``: reports a stall of run `generation` once per episode, on the
    /// supervision queue.
    func checkForStall(generation: UInt64) {
        let now = environment.monotonicNanoseconds()
        let report = processing.withLock { processing -> (MotionEngineFault, [MotionSubscription])? in
            guard processing.generation == generation, let silence = processing.health.stallSilence(at: now)
            else { return nil }
            let fault = IMUDeviceError.readFailed("no samples for \(silence.fixedDecimal(places: 1)) s")
            let engineFault = MotionEngineFault(deviceFault: fault)
            guard processing.health.beginFault(engineFault, description: fault.description) else { return nil }
            return (engineFault, processing.router.subscriptions)
        }
        guard let (fault, subscriptions) = report else { return }
        supervisionQueue.async {
            for subscription in subscriptions { subscription.deliver(fault) }
        }
    }

    // MARK: - Events

    private func handle(_ event: IMUDeviceEvent, generation: UInt64) {
        switch event {
        case .samples(let samples):
            let now = environment.monotonicNanoseconds()
            let (deliveries, recorder) = processing.withLock { processing -> ([SampleRouter.Delivery], MotionRecorder?) in
                guard processing.generation == generation else { return ([], nil) }
                _ = processing.health.recordDelivery(count: samples.count, at: now)
                return (processing.router.route(samples), processing.recorder)
            }
            recorder?.append(samples)
            for delivery in deliveries { delivery.send() }
        case .fault(let fault):
            let engineFault = MotionEngineFault(deviceFault: fault)
            let report = processing.withLock { processing -> ([SampleRouter.Delivery], [MotionSubscription])? in
                guard processing.generation == generation,
                    processing.health.beginFault(engineFault, description: fault.description)
                else { return nil }
                var deliveries: [SampleRouter.Delivery] = []
                processing.router.closeBatches(all: true, into: &deliveries)
                return (deliveries, processing.router.subscriptions)
            }
            if case .unavailable = fault {
                // The device is gone (unplugged, its bus lost the chip): stop it and open it again with back-off.
                supervisionQueue.async { [weak self] in self?.reopenAfterLoss(generation: generation) }
            }
            guard let (deliveries, subscriptions) = report else { return }
            for delivery in deliveries { delivery.send() }
            for subscription in subscriptions { subscription.deliver(engineFault) }
        }
    }

    /// On the supervision queue: stops run `generation` of a device that reported itself unavailable and
    /// schedules its restart (the back-off of failed starts applies until it opens again).
    private func reopenAfterLoss(generation: UInt64) {
        lifecycle.withLock { lifecycle in
            guard lifecycle.generation == generation, lifecycle.isRunning else { return }
            stopDevice(&lifecycle)
            scheduleRetry(&lifecycle)
        }
    }
}

/// A fault to hand to subscriptions once the engine's locks are released: a sink may call the engine again
/// (a handler that stops its updates on an error).
struct FaultReport {
    let fault: MotionEngineFault
    let subscriptions: [MotionSubscription]

    /// Hands the fault to each subscription, in order.
    func send() {
        for subscription in subscriptions { subscription.deliver(fault) }
    }
}
