import MotionFusion

// The host's one subscription and the delivery path: every sample through the bank, the pedometer's and
// the activity's history, then the processors, then the listeners.
extension MotionDetectorHost {
    /// The stream the bank reads: the filter's output in the processors' frame, else in the frame with no
    /// north (the detectors need gravity only); from another source than an engine, its device motion in
    /// Apple's units (a remote board's); nil while no listener or processor needs the bank.
    private func bankStream(_ state: State) -> MotionStream? {
        if let processor = state.processors.first { return .fusedMotion(processor.slot.frame) }
        guard !state.listeners.isEmpty else { return nil }
        return source is MotionEngine ? .fusedMotion(.xArbitraryZVertical) : .deviceMotion(.xArbitraryZVertical)
    }

    /// Makes the subscription match who needs the bank: none without listeners and processors, else one to
    /// ``bankStream(_:)``. A new stream is subscribed before the old one is removed, so that the bank misses
    /// no sample while it changes frame.
    /// - Returns: false when the source refused the stream (no subscription is then left).
    @discardableResult
    func updateSubscription() -> Bool {
        subscribing.withLock { _ in
            let (new, old) = state.withLock { state -> (MotionSubscription?, MotionSubscription?) in
                let stream = bankStream(state)
                guard state.subscription?.service != stream else { return (nil, nil) }
                let old = state.subscription
                state.retiring = old
                state.subscription = stream.map { stream in
                    MotionSubscription(service: stream, interval: 0, sink: .batch { [weak self] subscription, samples, fault in
                        self?.receive(samples, fault: fault, from: subscription)
                    })
                }
                // No one left to have been told: the next subscription's faults are news.
                if stream == nil { state.isFaulted = false }
                return (state.subscription, old)
            }
            var subscribed = true
            if let new, !source.subscribe(new) {
                subscribed = false
                state.withLock { state in if state.subscription === new { state.subscription = nil } }
            }
            if let old {
                source.unsubscribe(old)
                state.withLock { state in if state.retiring === old { state.retiring = nil } }
            }
            return subscribed
        }
    }

    /// One batch of the subscription (or the one it replaces): the bank, the history, the processors (their
    /// outputs handed on under the lock), then the listeners without it.
    private func receive(_ samples: [MotionSample]?, fault: MotionEngineFault?, from subscription: MotionSubscription) {
        let (update, listeners) = state.withLock { state -> (Update, [@Sendable (Update) -> Void]) in
            let isCurrent = subscription === state.subscription
            guard isCurrent || subscription === state.retiring else { return (Update(), []) }
            var update = Update()
            if isCurrent, let fault, !state.isFaulted {
                update.fault = fault
                state.isFaulted = true
            }
            if samples?.isEmpty == false { state.isFaulted = false }
            for item in samples ?? [] {
                let sample: MotionDetectorBank.Sample
                var fused: FusedMotionSample?
                switch item {
                case .fused(let output):
                    sample = MotionDetectorBank.Sample(output)
                    fused = output
                case .deviceMotion(let motion): sample = MotionDetectorBank.Sample(motion)
                case .vector: continue
                }
                if let last = state.lastSampleTime {
                    // Time that runs backwards is another device or run (a replay started again): the
                    // detectors start afresh; the history stays. A sample seen already came through the
                    // other subscription while the stream changed.
                    if sample.timestamp < last - 1 {
                        state.bank = state.detectors
                    } else if sample.timestamp <= last {
                        continue
                    }
                }
                let output = state.bank.update(sample)
                state.lastSampleTime = sample.timestamp
                state.samplesAnalysed &+= 1
                record(output, at: sample.timestamp, in: &state, update: &update)
                if let fused {
                    for processor in state.processors { processor.slot.step(fused, found: output, bank: state.bank) }
                }
            }
            for processor in state.processors { processor.slot.finishDelivery() }
            return (update, Array(state.listeners.values))
        }
        guard !update.events.isEmpty || !update.states.isEmpty || update.newSteps > 0 || update.fault != nil else { return }
        for listener in listeners { listener(update) }
    }

    /// What one sample brought, into the listeners' update and the pedometer's and the activity's history.
    private func record(_ output: MotionDetectorBank.Output, at time: Double, in state: inout State, update: inout Update) {
        update.events += output.events
        update.states += output.states.map { (time, $0) }
        if output.step {
            update.newSteps += 1
            state.pedometer.recordStep(at: time, length: StrideLength.estimate(cadence: state.bank.steps?.cadence))
        }
        for case .activity(let estimate) in output.states {
            if state.activities.last?.since == estimate.since { state.activities.removeLast() }
            state.activities.append(estimate)
            // Keep the activity that held at the horizon, drop the ones before it.
            if let held = state.activities.lastIndex(where: { $0.since < time - retention }), held > 0 {
                state.activities.removeFirst(held)
            }
        }
    }
}
