import CMosquitto
import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The clean shutdown: DISCONNECT, wait until it is written, stop and join the network thread, destroy.
extension MosquittoConnection {
    /// Clean shutdown: DISCONNECT → wait until written → stop and join the network thread → destroy.
    /// Idempotent; see ``MQTTClient/shutdown(timeout:)``.
    func shutdown(timeout: Duration) {
        let previous = state.withLockBroadcasting { state in
            let previous = state.lifecycle
            if previous == .created || previous == .running { state.lifecycle = .shuttingDown }
            return previous
        }
        let onLoopThread = link.loopThread.load(ordering: .relaxed) == MosquittoLink.currentThread()
        switch previous {
        case .destroyed:
            return
        case .shuttingDown:
            // Another thread is shutting down: wait for it (never on the network thread, it must exit).
            if !onLoopThread { _ = state.wait(timeout: timeout) { $0.lifecycle == .destroyed } }
            return
        case .created, .running:
            if onLoopThread {
                // Called from the event handler: the network thread cannot join itself. Events are
                // already off; finish on another thread once this callback has returned.
                DispatchQueue.global().async { self.finishShutdown(timeout: timeout) }
            } else {
                finishShutdown(timeout: timeout)
            }
        }
    }

    func finishShutdown(timeout: Duration) {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        func remaining() -> Duration { max(.zero, clock.now.duration(to: deadline)) }
        // New calls are refused now; let the ones inside libmosquitto finish.
        _ = state.wait(timeout: remaining()) { $0.callsInProgress == 0 }
        let thread = state.withLock { $0.networkThread }
        if let thread {
            // The network thread writes the DISCONNECT, then the disconnect callback clears `sessionUp`.
            // If that takes longer than the timeout the socket is closed without it (the broker then
            // publishes the will).
            if let wakeSignal = link.wakeSignal {
                // Plain TCP: libmosquitto would write and close the socket on this thread; the network
                // thread may be polling or reading it, so it makes the call itself.
                let sessionUp = state.withLock { state in
                    state.disconnectRequested = true
                    return state.sessionUp
                }
                wakeSignal.raise()
                if sessionUp { _ = state.wait(timeout: remaining()) { !$0.sessionUp } }
            } else if MosquittoResult(mosquitto_disconnect_v5(handle, Int32(MQTT_RC_NORMAL_DISCONNECTION.rawValue), nil)).isSuccess {
                _ = state.wait(timeout: remaining()) { !$0.sessionUp }
            }
            state.withLockBroadcasting { $0.stopNetworkThread = true }
            link.wakeSignal?.raise()
            // A loop pass ends within 200 ms once woken; a blocking connect (first attempt, fallback) may
            // take as long as TCP tries. Then the thread tears down when the connect returns.
            _ = state.wait(timeout: max(remaining(), .milliseconds(500))) { $0.networkThreadExited }
            let handedOver = state.withLockBroadcasting { state -> Bool in
                guard !state.networkThreadExited else { return false }
                state.teardownHandedToNetworkThread = true
                return true
            }
            if handedOver {
                pthread_detach(thread)
                // The process may exit right after this returns: what is pending goes to disk now (and the
                // file's lock is released); the network thread's teardown finds the journal closed.
                link.journal?.close()
                return
            }
            pthread_join(thread, nil)
        }
        link.destroy()
    }
}
