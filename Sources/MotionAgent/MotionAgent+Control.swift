import Dispatch
import MQTT
import MotionContract
import MotionEngine
import MotionFusion
import MotionHAL
import MotionLog
import MotionMath
import Synchronization

extension MotionAgent {
    // MARK: - Broker events (libmosquitto's thread: hand over at once)

    func handle(_ event: MQTTClientEvent) {
        switch event {
        case .connected:
            controlQueue.async { self.announce() }
        case .connectionRefused(let code, let reason):
            Logger.agent.warning("broker refused the connection (\(code)): \(reason)")
        case .disconnected(let code, let reason):
            Logger.agent.warning("disconnected from the broker (\(code)): \(reason)")
        case .message(let message):
            // A flood of commands must not queue without bound: beyond the limit they are dropped (the
            // broker stops sending QoS 1 ones by itself once 20 are unacknowledged; QoS 0 ones it does not).
            let waiting = pendingCommands.add(1, ordering: .relaxed).newValue
            guard waiting <= Self.maximumPendingCommands else {
                pendingCommands.subtract(1, ordering: .relaxed)
                if droppedCommands.add(1, ordering: .relaxed).newValue == 1 {
                    Logger.agent.warning("commands arrive faster than they can be handled: dropping them (counted in health)")
                }
                return
            }
            controlQueue.async {
                self.handleControl(message)
                self.pendingCommands.subtract(1, ordering: .relaxed)
            }
        case .offlineBufferProblem(let problem):
            Logger.agent.warning(problem)
        case .published:
            break
        }
    }

    // MARK: - Control (control queue)

    func handleControl(_ message: MQTTMessage) {
        guard let service = topics.service(forControlTopic: message.topic) else {
            if message.topic == topics.configurationControl { handleConfigurationDocument(message) }
            return
        }
        guard isAnswerable(message, service: service) else { return }
        let next: ServiceState
        do {
            let command = try ControlCommand.parse(message.payload, for: service)
            let status = status(of: service)
            next = try state.withLock { $0.services[service] }.applying(
                command, for: service, unavailableReason: status.available ? nil : status.error ?? "unknown reason",
                availableFrames: engine.deviceInfo == nil ? nil : Set(engine.availableFrames))
        } catch {
            answerError(error.description, service: service, command: message)
            return
        }
        state.withLock { $0.services[service] = next }
        restart(service)
        Logger.agent.info("\(service.topicName): \(state.withLock { $0.services[service].active } ? "active" : "stopped"), interval \(status(of: service).interval) s")
        if message.responseTopic != nil {
            respond(to: message, with: CommandAnswer.accepted.json())
        }
    }

    /// Whether a command (`service` nil: a configuration document) may be handled: a retained one is
    /// ignored (someone left it on the broker), and one whose response topic points into the devices'
    /// subtrees is refused on `{base}/error`.
    func isAnswerable(_ message: MQTTMessage, service: MotionService?) -> Bool {
        guard !message.retain else {
            Logger.agent.warning("ignored a retained command on \(ContractText.sanitized(message.topic)): commands must not be retained")
            return false
        }
        if let responseTopic = message.responseTopic, let problem = topics.responseTopicProblem(responseTopic) {
            var refused = message
            refused.responseTopic = nil  // answered on {base}/error instead
            answerError("refused: \(problem)", service: service, command: refused)
            return false
        }
        return true
    }

    /// Stops `service` and starts it again with its current settings if it is active; publishes its status.
    func restart(_ service: MotionService) {
        stopUpdates(service)
        let (active, sampling) = state.withLock { state in
            state.services[service].error = nil
            return (state.services[service].active, state.services[service].settings.sampling)
        }
        do {
            try pipelines.withLock { try $0.reconfigure(service, sampling) }
        } catch {
            state.withLock { $0.services[service].error = "\(error)" }
        }
        if active { startUpdates(service) }
        if let client = state.withLock({ $0.client }) {
            try? publishStatus(service, on: client)
        }
    }

    /// Answers a refused command (`service` nil: a configuration document): on its MQTT 5 response topic
    /// when it named one, else on `{base}/error`.
    func answerError(_ reason: String, service: MotionService?, command: MQTTMessage) {
        Logger.agent.notice("refused a \(service.map { "command for \($0.topicName)" } ?? "configuration document"): \(reason)")
        respond(to: command, with: CommandAnswer.refusal(reason, service: service, payload: command.payload).json())
    }

    /// Publishes `result` on the command's response topic with its correlation data, or on `{base}/error`
    /// when the command named no response topic.
    func respond(to command: MQTTMessage, with result: String) {
        guard let client = state.withLock({ $0.client }) else { return }
        var answer = MQTTMessage(
            topic: command.responseTopic ?? topics.error, string: result, qos: .atLeastOnce, retain: false, contentType: Self.json)
        answer.correlationData = command.correlationData
        _ = try? client.publish(answer)
    }
}
