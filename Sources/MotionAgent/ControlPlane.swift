import MQTT
import MotionContract
import MotionLog

/// The agent's control plane, a part of the agent: broker events, the service commands on
/// `{base}/{service}/set`, the configuration documents on `{base}/config/set` and reloads of the file,
/// each checked and answered; a refused one changes nothing.
///
/// Threading: ``handle(_:)`` on libmosquitto's thread hands everything over to the control queue at once;
/// every other method runs there.
final class ControlPlane: Sendable {
    /// The largest configuration document taken, bytes (every run-time field set is under 2 KiB).
    static let maximumConfigurationDocument = 64 * 1024

    let core: AgentCore
    let announcer: AgentAnnouncer
    let publisher: ServicePublisher
    let devices: AgentDevices
    let detectors: DetectorService
    let health: HealthReporter
    let intake: CommandIntake

    init(
        core: AgentCore, announcer: AgentAnnouncer, publisher: ServicePublisher, devices: AgentDevices, detectors: DetectorService,
        health: HealthReporter, intake: CommandIntake
    ) {
        self.core = core
        self.announcer = announcer
        self.publisher = publisher
        self.devices = devices
        self.detectors = detectors
        self.health = health
        self.intake = intake
    }

    private var topics: TopicLayout { core.topics }

    // MARK: - Broker events (libmosquitto's thread: hand over at once)

    func handle(_ event: MQTTClientEvent) {
        switch event {
        case .connected:
            core.controlQueue.async {
                guard let client = self.announcer.announce() else { return }
                self.health.connected(on: client)
            }
        case .connectionRefused(let code, let reason):
            Logger.agent.warning("broker refused the connection (\(code)): \(reason)")
        case .disconnected(let code, let reason):
            Logger.agent.warning("disconnected from the broker (\(code)): \(reason)")
        case .message(let message):
            guard intake.admit() else {
                if intake.droppedCount == 1 {
                    Logger.agent.warning("commands arrive faster than they can be handled: dropping them (counted in health)")
                }
                return
            }
            core.controlQueue.async {
                self.handleControl(message)
                self.intake.finished()
            }
        case .offlineBufferProblem(let problem):
            Logger.agent.warning(problem)
        case .published:
            break
        }
    }

    // MARK: - Commands (control queue)

    func handleControl(_ message: MQTTMessage) {
        guard let service = topics.service(forControlTopic: message.topic) else {
            if message.topic == topics.configurationControl { handleConfigurationDocument(message) }
            return
        }
        guard isAnswerable(message, service: service) else { return }
        do {
            try apply(try ControlCommand.parse(message.payload, for: service), to: service)
        } catch {
            answerError(error.description, service: service, command: message)
            return
        }
        if message.responseTopic != nil {
            respond(to: message, with: CommandAnswer.accepted.json())
        }
    }

    /// Carries out a command for `service`, read from `{base}/{service}/set` or from a Sparkplug DCMD: the
    /// new state, the service restarted with it and its status published; a spectrum request publishes the
    /// spectrum and changes nothing.
    /// - Throws: ``ControlCommandError`` saying why it is refused; nothing is changed then.
    func apply(_ command: ControlCommand, to service: MotionService) throws(ControlCommandError) {
        let status = announcer.status(of: service)
        let next = try core.state.withLock { $0.services[service] }.applying(
            command, for: service, unavailableReason: status.available ? nil : status.error ?? "unknown reason",
            availableFrames: core.engine.deviceInfo == nil ? nil : Set(core.engine.availableFrames))
        if command.requestsSpectrum {
            // A request, not a change: the service runs on undisturbed.
            guard publisher.publishRequestedSpectrum() else {
                throw ControlCommandError("no spectrum yet: the first segment is not complete")
            }
            return
        }
        core.state.withLock { $0.services[service] = next }
        publisher.restart(service)
        Logger.agent.info(
            "\(service.topicName): \(next.active ? "active" : "stopped"), interval \(announcer.status(of: service).interval) s")
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

    /// Answers a refused command (`service` nil: a configuration document): on its MQTT 5 response topic
    /// when it named one, else on `{base}/error`.
    func answerError(_ reason: String, service: MotionService?, command: MQTTMessage) {
        Logger.agent.notice("refused a \(service.map { "command for \($0.topicName)" } ?? "configuration document"): \(reason)")
        respond(to: command, with: CommandAnswer.refusal(reason, service: service, payload: command.payload).json())
    }

    /// Publishes `result` on the command's response topic with its correlation data, or on `{base}/error`
    /// when the command named no response topic.
    func respond(to command: MQTTMessage, with result: String) {
        guard let client = core.client else { return }
        var answer = MQTTMessage(
            topic: command.responseTopic ?? topics.error, string: result, qos: .atLeastOnce, retain: false,
            contentType: PayloadFormat.json.contentType)
        answer.correlationData = command.correlationData
        _ = try? client.publish(answer)
    }
}
