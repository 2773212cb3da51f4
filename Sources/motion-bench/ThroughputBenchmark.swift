import Foundation
import MQTT
import PrivateBroker
#if canImport(Glibc)
import Glibc
#endif

/// QoS 0 burst over one ``MQTTClient`` connection, counted by a second connection.
///
/// Pacing: libmosquitto queues a QoS 0 message in memory when `mosquitto_publish` is called and its loop
/// thread writes it later, so publishing faster than the loop thread writes grows the queue without
/// bound. The publisher therefore keeps at most `window` messages published but not yet written: before
/// publishing message *i* it waits (``MQTTClient/waitUntilPublished(messageID:timeout:)``, which returns
/// when libmosquitto's publish callback reports the message written to the socket) for message
/// *i − window*. `window == 0` publishes unpaced, to show the unbounded queue.
struct ThroughputBenchmark {
    /// The figures of one run.
    struct Result: Sendable, Codable {
        /// Which publisher: `MQTTClient (Swift)` or `C libmosquitto`.
        let publisher: String
        /// Messages the publisher was asked to send.
        let messages: Int
        /// Payload size, bytes.
        let payloadBytes: Int
        /// At most this many published but unwritten messages (0 = unpaced).
        let window: Int
        /// Messages accepted by `publish` / written, per second of the publishing run.
        let publishRate: Double
        /// Messages received by the counting subscriber.
        let received: Int
        /// Received messages per second, from the first arrival to the last.
        let receivedRate: Double
        /// Messages not received (`messages − received`).
        let lost: Int
        /// Publish calls that failed.
        let publishErrors: Int
        /// Peak resident memory of the publishing process (`VmHWM`), MB. For the Swift publisher the
        /// process also holds the counting subscriber.
        let publisherPeakRSSMegabytes: Double
        /// Broker CPU during the run, percent of one core (`nil` with an external broker).
        let brokerCPUPercent: Double?
    }

    /// Topic of the burst.
    static let topic = "motion-bench/throughput"

    let broker: MQTTBrokerAddress
    let brokerPID: pid_t?
    let messages: Int
    let payloadBytes: Int
    let window: Int

    /// Publishes with ``MQTTClient`` from this process.
    func runSwift() throws -> Result {
        let subscriber = try MonitoringSubscriber(
            broker: broker, topicFilters: [Self.topic], measuresLatency: false, clientID: "bench-counter-swift")
        defer { subscriber.shutdown() }
        let publisher = try MQTTClient(
            configuration: MQTTClientConfiguration(broker: broker, clientID: "bench-publisher-swift")) { _ in }
        defer { publisher.shutdown(timeout: .seconds(5)) }
        try publisher.start()
        guard publisher.waitUntilConnected(timeout: .seconds(5)) else { throw BenchError("publisher did not connect") }

        let message = MQTTMessage(topic: Self.topic, payload: [UInt8](repeating: UInt8(ascii: "a"), count: payloadBytes))
        var messageIDs = [Int32](repeating: 0, count: max(window, 1))
        var errors = 0
        let brokerBefore = brokerPID.flatMap { ProcessSnapshot(pid: $0) }
        let start = Clock.monotonicNanoseconds()
        for index in 0..<messages {
            let slot = window > 0 ? index % window : 0
            if window > 0, index >= window {
                _ = publisher.waitUntilPublished(messageID: messageIDs[slot], timeout: .seconds(5))
            }
            do {
                messageIDs[slot] = try publisher.publish(message)
            } catch {
                errors += 1
            }
        }
        // The last message written means all were (the loop thread writes in order).
        let lastID = messageIDs[window > 0 ? (messages - 1) % window : 0]
        _ = publisher.waitUntilPublished(messageID: lastID, timeout: .seconds(60))
        let written = Clock.monotonicNanoseconds()
        subscriber.waitForMessages(messages - errors, quietPeriod: 2)
        let brokerAfter = brokerPID.flatMap { ProcessSnapshot(pid: $0) }
        let peak = ProcFS.memoryKilobytes(pid: getpid())?.peak ?? 0
        return result(
            publisher: "MQTTClient (Swift)", start: start, written: written, errors: errors, subscriber: subscriber,
            peakKilobytes: peak, brokerBefore: brokerBefore, brokerAfter: brokerAfter)
    }

    /// Publishes with the C floor program (`motion-floor --throughput N`).
    func runC(floorExecutable: String, logDirectory: String) throws -> Result {
        let subscriber = try MonitoringSubscriber(
            broker: broker, topicFilters: [Self.topic], measuresLatency: false, clientID: "bench-counter-c")
        defer { subscriber.shutdown() }
        let output = logDirectory + "/motion-floor-throughput.out"
        unlink(output)
        let brokerBefore = brokerPID.flatMap { ProcessSnapshot(pid: $0) }
        let start = Clock.monotonicNanoseconds()
        let process = try ChildProcess(
            executable: floorExecutable,
            arguments: [
                "--host", broker.host, "--port", String(broker.port), "--throughput", String(messages),
                "--payload", String(payloadBytes), "--window", String(window), "--topic", Self.topic,
            ],
            logFile: output)
        guard process.waitForExit(timeout: .seconds(120)) == 0 else {
            process.terminate(grace: .seconds(1))
            throw BenchError("motion-floor --throughput failed; see \(output)")
        }
        subscriber.waitForMessages(messages, quietPeriod: 2)
        let brokerAfter = brokerPID.flatMap { ProcessSnapshot(pid: $0) }
        // `published=N errors=E seconds=S rate=R hwm_kb=K rss_kb=K`
        let line = ProcFS.read(output) ?? ""
        var fields: [String: Double] = [:]
        for pair in line.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
            let parts = pair.split(separator: "=")
            if parts.count == 2, let value = Double(parts[1]) { fields[String(parts[0])] = value }
        }
        guard let seconds = fields["seconds"], let hwm = fields["hwm_kb"] else {
            throw BenchError("unexpected motion-floor output: \(line)")
        }
        return result(
            publisher: "C libmosquitto", start: start, written: start + UInt64(seconds * 1e9),
            errors: Int(fields["errors"] ?? 0), subscriber: subscriber, peakKilobytes: Int(hwm),
            brokerBefore: brokerBefore, brokerAfter: brokerAfter)
    }

    private func result(
        publisher: String, start: UInt64, written: UInt64, errors: Int, subscriber: MonitoringSubscriber,
        peakKilobytes: Int, brokerBefore: ProcessSnapshot?, brokerAfter: ProcessSnapshot?
    ) -> Result {
        let received = subscriber.receivedCount
        let arrivals = subscriber.arrivalSpan
        let publishSeconds = Double(written - start) / 1e9
        let receiveSeconds = arrivals.last > arrivals.first ? Double(arrivals.last - arrivals.first) / 1e9 : 0
        var brokerCPU: Double?
        if let brokerBefore, let brokerAfter { brokerCPU = brokerAfter.cpuPercent(since: brokerBefore) }
        return Result(
            publisher: publisher, messages: messages, payloadBytes: payloadBytes, window: window,
            publishRate: publishSeconds > 0 ? Double(messages - errors) / publishSeconds : 0,
            received: received, receivedRate: receiveSeconds > 0 ? Double(received) / receiveSeconds : 0,
            lost: messages - received, publishErrors: errors,
            publisherPeakRSSMegabytes: Double(peakKilobytes) / 1024, brokerCPUPercent: brokerCPU)
    }
}
