import MQTT
import MotionContract
import MotionEngine
import MotionLog

// The commands a host sends: STATE messages of the primary host, and NCMD/DCMD read by the session, whose
// writes the agent's control plane carries out. On the node's queue, as every publication.
extension SparkplugEdgeNode {
    /// A write a host asked for, for the control plane.
    struct Write {
        let command: ControlCommand
        let device: String
    }

    /// Takes a message of a subscription: a STATE, or a command whose writes it returns.
    func received(_ message: MQTTMessage) -> [Write] {
        let now = self.now
        switch SparkplugTopic(message.topic) {
        case .state(let hostID)?:
            let state: SparkplugHostState
            do {
                state = try SparkplugHostState(decoding: message.payload)
            } catch {
                Logger.agent.warning("sparkplug: ignored a STATE of \(ContractText.sanitized(hostID)) that does not read: \(error)")
                return []
            }
            switch withSession({ $0.received(state, from: hostID, now: now) }) {
            case .none: break
            case .publish(let births):
                Logger.agent.notice("sparkplug: primary host \(hostID) is online: births")
                send(births)
            case .disconnect(let death):
                Logger.agent.notice("sparkplug: primary host \(hostID) went offline: NDEATH, and connecting again")
                reconnect(after: death)
            }
        case .message(.nodeCommand, _, _, nil)?, .message(.deviceCommand, _, _, _)?:
            return command(message, now: now)
        default:
            break
        }
        return []
    }

    /// Carries out an NCMD or DCMD's rebirth and refusals here; returns its writes.
    private func command(_ message: MQTTMessage, now: UInt64) -> [Write] {
        let device: String? = if case .message(_, _, _, let device)? = SparkplugTopic(message.topic) { device } else { nil }
        let payload: SparkplugPayload
        do {
            payload = try SparkplugPayload(decoding: message.payload)
        } catch {
            withSession { $0.countRefusal() }
            Logger.agent.notice("sparkplug: refused a command on \(ContractText.sanitized(message.topic)): \(error)")
            return []
        }
        // Not `let (commands, refusals) = withSession { … }`: Swift 6.0.3's SILGen crashes on a labeled
        // tuple returned through Mutex.withLock ("Remangling failed").
        var commands: [SparkplugSession.Command] = []
        var refusals: [String] = []
        withSession { session in (commands, refusals) = session.commands(in: payload, device: device) }
        refusals.forEach { Logger.agent.notice("sparkplug: refused: \($0)") }
        var writes: [Write] = []
        for command in commands {
            switch command {
            case .rebirth:
                Logger.agent.notice("sparkplug: rebirth requested")
                send(withSession { $0.rebirth(now: now) })
            case .setRunning(let device, let running): writes.append(Write(command: ControlCommand(active: running), device: device))
            case .setInterval(let device, let interval):
                guard ControlCommand.intervalRange.contains(interval) else {
                    refuse("DCMD for \(device): Control/Interval must be \(ControlCommand.intervalRange.lowerBound)…"
                        + "\(ControlCommand.intervalRange.upperBound) s", device: device)
                    continue
                }
                writes.append(Write(command: ControlCommand(interval: interval), device: device))
            }
        }
        return writes
    }

    /// Has the control plane carry out `writes`, then frees the message's slot in the intake; a refusal
    /// is logged, counted and answered with the device's control metrics as they are (a host's written
    /// value reverts).
    func carryOut(_ writes: [Write]) {
        guard !writes.isEmpty, let handler = commandHandler.withLock({ $0 }) else { return intake.finished() }
        core.controlQueue.async {
            defer { self.intake.finished() }
            for write in writes {
                guard let service = MotionService(topicName: write.device), let refusal = handler(service, write.command) else { continue }
                self.queue.async { self.refuse("DCMD for \(write.device): \(refusal)", device: write.device) }
            }
        }
    }

    private func refuse(_ reason: String, device: String) {
        Logger.agent.notice("sparkplug: refused: \(reason)")
        let now = self.now
        send(withSession { session in
            session.countRefusal()
            let names = [SparkplugMetricName.running, SparkplugMetricName.interval]
            let current = names.compactMap { name in
                session.value(of: name, device: device).map { SparkplugMetric(name: name, timestamp: now, value: $0) }
            }
            return session.update(device, current, now: now)
        })
    }
}
