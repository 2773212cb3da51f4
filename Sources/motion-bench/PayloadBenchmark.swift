import Foundation
import MotionCommandLine
import MotionContract
import MotionEngine
import Synchronization

/// `motion-bench payloads`: each data topic's payload in JSON, CBOR, SenML (JSON and CBOR) and Sparkplug B
/// (DDATA by alias, MQTT 3.1.1), single and batched: bytes per message, bytes on the wire per message (the MQTT 5 PUBLISH around it) and per hour
/// at the default rates, and the CPU time to encode and to decode one message (the contract's own forms;
/// SenML is decoded by SenML libraries, not by MotionContract), from real samples of the simulated IMU.
enum PayloadBenchmark {
    static let usage = """
        usage: motion-bench payloads [--device SPEC] [--samples N] [--json]
          encodes N samples (default 2000) of each service, read from SPEC (default sim:rate=1000,motion=demo)
          through the engine, in JSON, CBOR, SenML JSON, SenML CBOR and Sparkplug B DDATA, one sample per message and 10 per message; prints bytes per
          message, wire bytes (MQTT 5 PUBLISH, QoS 0, topic motion/board-7/SERVICE, content type) and MB per
          hour at the default rates (50 Hz, magnetometer 20 Hz), and µs of CPU to encode and decode a message
        """

    /// One row of the table.
    struct Row: Encodable {
        let service: String
        let format: String
        let batch: Int
        let payloadBytes: Double
        let wireBytes: Double
        let megabytesPerHour: Double
        let encodeMicroseconds: Double
        /// `nil` for SenML, which MotionContract does not decode.
        let decodeMicroseconds: Double?
    }

    static func run(_ scanner: ArgumentScanner) throws {
        try scanner.expectPositional(atMost: 0)
        let device = scanner["--device"] ?? "sim:rate=1000,motion=demo"
        let count = try scanner.integer("--samples", atLeast: 10, atMost: 1_000_000) ?? 2000
        let samples = try collect(count, from: device)
        var encoder = SamplePayloadEncoder(wallClockOffset: Date().timeIntervalSince1970 - Double(Clock.monotonicNanoseconds()) / 1e9)
        encoder.senmlBaseName = "urn:dev:mac:0024beffff804ff1_board-7:"

        var rows: [Row] = []
        for service in MotionService.sensorServices {
            let rate = service == .magnetometer ? 20.0 : 50.0
            for format in PayloadFormat.allCases.map(Optional.some) + [nil] {
                for batch in [1, 10] {
                    let encode: (Int) -> [UInt8]
                    let decode: ([UInt8]) -> Void
                    let topic = "motion/board-7/\(service.topicName)"
                    if let format {
                      if service == .deviceMotion {
                        let values = samples.deviceMotion
                        encode = { index in
                            encoder.encode(Array(values[index..<(index + batch)]), seq: UInt64(index), batched: batch > 1, format: format)
                        }
                        decode = { _ = try? SamplePayloadDecoder.deviceMotion($0) }
                    } else {
                        let values = samples.vectors[service]!
                        encode = { index in
                            encoder.encode(Array(values[index..<(index + batch)]), service: service, seq: UInt64(index), batched: batch > 1, format: format)
                        }
                        decode = { _ = try? SamplePayloadDecoder.vectors($0, service: service) }
                      }
                    } else {
                        // Sparkplug B DDATA as the edge node sends it: metrics by alias, payload timestamp and seq.
                        let metrics: (Int) -> [SparkplugMetric] = service == .deviceMotion
                            ? { encoder.sparkplugMetrics(Array(samples.deviceMotion[$0..<($0 + batch)])) }
                            : { encoder.sparkplugMetrics(Array(samples.vectors[service]![$0..<($0 + batch)]), service: service) }
                        let aliases = Dictionary(
                            metrics(0).compactMap(\.name).enumerated().map { ($1, UInt64($0 + 1)) }, uniquingKeysWith: { first, _ in first })
                        encode = { index in
                            let data = metrics(index).map { metric in
                                var data = metric
                                data.alias = metric.name.flatMap { aliases[$0] }
                                data.name = nil
                                data.properties = []
                                return data
                            }
                            return SparkplugPayload(timestamp: data.first?.timestamp, metrics: data, seq: UInt64(index % 256)).encoded()
                        }
                        decode = { _ = try? SparkplugPayload(decoding: $0) }
                    }
                    let starts = Array(stride(from: 0, to: count - batch + 1, by: batch))
                    let payloads = starts.map(encode)
                    let bytes = Double(payloads.map(\.count).reduce(0, +)) / Double(payloads.count)
                    let sparkplugTopic = SparkplugTopic.message(.deviceData, group: "plant-1", edgeNode: "board-7", device: service.topicName).name
                    let wire = Double(payloads.map { payload in
                        format.map { publishPacketSize(topic: topic, contentType: $0.contentType, payload: payload.count) }
                            ?? publishPacketSize311(topic: sparkplugTopic, payload: payload.count)
                    }.reduce(0, +)) / Double(payloads.count)
                    rows.append(Row(
                        service: service.topicName, format: format?.rawValue ?? "sparkplug", batch: batch, payloadBytes: bytes, wireBytes: wire,
                        megabytesPerHour: wire * rate / Double(batch) * 3600 / 1e6,
                        encodeMicroseconds: cpuMicroseconds(per: starts.count) { for start in starts { _ = encode(start) } },
                        decodeMicroseconds: format?.isSenML == true
                            ? nil : cpuMicroseconds(per: payloads.count) { for payload in payloads { decode(payload) } }))
                }
            }
        }
        if scanner.has("--json") {
            let encoder = JSONEncoder()
            encoder.keyEncodingStrategy = .convertToSnakeCase
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(rows), as: UTF8.self))
        } else {
            print(render(rows, device: device, count: count))
        }
    }

    /// The size of the MQTT 5 PUBLISH packet (QoS 0, no packet identifier) carrying `payload` bytes on
    /// `topic` with a content type property, bytes (TCP/IP headers not counted).
    static func publishPacketSize(topic: String, contentType: String, payload: Int) -> Int {
        let properties = 1 + 2 + contentType.utf8.count
        let remaining = 2 + topic.utf8.count + variableByteIntegerSize(properties) + properties + payload
        return 1 + variableByteIntegerSize(remaining) + remaining
    }

    /// The size of the MQTT 3.1.1 PUBLISH packet (QoS 0) carrying `payload` bytes on `topic`: a Sparkplug
    /// edge node's, bytes.
    static func publishPacketSize311(topic: String, payload: Int) -> Int {
        let remaining = 2 + topic.utf8.count + payload
        return 1 + variableByteIntegerSize(remaining) + remaining
    }

    private static func variableByteIntegerSize(_ value: Int) -> Int {
        value < 128 ? 1 : value < 16_384 ? 2 : value < 2_097_152 ? 3 : 4
    }

    /// Thread CPU time of `work` (repeated until 0.2 s have passed), µs per item of its `items`.
    private static func cpuMicroseconds(per items: Int, _ work: () -> Void) -> Double {
        work()  // warm-up
        var rounds = 0
        let start = threadCPUNanoseconds()
        repeat {
            work()
            rounds += 1
        } while threadCPUNanoseconds() - start < 200_000_000
        return Double(threadCPUNanoseconds() - start) / 1e3 / Double(rounds * items)
    }

    private static func threadCPUNanoseconds() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }

    /// `count` samples of each stream of the device, through the engine as the agent receives them.
    private static func collect(_ count: Int, from device: String) throws
        -> (vectors: [MotionService: [VectorSample]], deviceMotion: [DeviceMotionSample])
    {
        let engine = MotionEngine(environment: MotionEngineEnvironment())
        do {
            try engine.openDevice(specification: device)
        } catch {
            throw BenchError("device \(device): \(error)")
        }
        let vectors = Mutex<[MotionService: [VectorSample]]>([:])
        let motions = Mutex<[DeviceMotionSample]>([])
        let streams: [(MotionService, MotionStream)] = [
            (.accelerometer, .accelerometer), (.gyro, .gyroscope), (.magnetometer, .magnetometer),
            (.deviceMotion, .deviceMotion(.xMagneticNorthZVertical)),
        ]
        let subscriptions = streams.map { service, stream in
            MotionSubscription(service: stream, interval: 0, sink: .batch { _, samples, _ in
                for sample in samples ?? [] {
                    switch sample {
                    case .vector(let reading): vectors.withLock { $0[service, default: []].append(reading) }
                    case .deviceMotion(let motion): motions.withLock { $0.append(motion) }
                    case .fused: break  // not subscribed
                    }
                }
            })
        }
        for subscription in subscriptions { _ = engine.subscribe(subscription) }
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let enough = vectors.withLock { v in [MotionService.accelerometer, .gyro, .magnetometer].allSatisfy { (v[$0]?.count ?? 0) >= count } }
                && motions.withLock { $0.count } >= count
            if enough { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        for subscription in subscriptions { engine.unsubscribe(subscription) }
        let collected = (vectors.withLock { $0 }, motions.withLock { $0 })
        guard collected.1.count >= count, collected.0.values.allSatisfy({ $0.count >= count }), collected.0.count == 3 else {
            throw BenchError("device \(device) did not deliver \(count) samples of every service within 60 s")
        }
        return (collected.0.mapValues { Array($0.prefix(count)) }, Array(collected.1.prefix(count)))
    }

    private static func render(_ rows: [Row], device: String, count: Int) -> String {
        #if DEBUG
        let build = "DEBUG build (figures are for release builds only)"
        #else
        let build = "release build"
        #endif
        var lines = [
            "payload formats: \(count) samples per service from \(device); \(build), one thread's CPU time",
            "service        format      batch  bytes/msg  wire/msg  MB/hour   encode µs/msg  decode µs/msg",
        ]
        for row in rows {
            lines.append(
                row.service.padding(toLength: 15, withPad: " ", startingAt: 0) + row.format.padding(toLength: 12, withPad: " ", startingAt: 0)
                    + String(format: "%-7d%-11.0f%-10.0f%-10.2f%-15.2f", row.batch, row.payloadBytes, row.wireBytes,
                             row.megabytesPerHour, row.encodeMicroseconds)
                    + (row.decodeMicroseconds.map { String(format: "%.2f", $0) } ?? "—"))
        }
        lines.append("MB/hour: wire bytes at 50 Hz (magnetometer 20 Hz) of samples; batch 10 sends a tenth as many messages")
        return lines.joined(separator: "\n")
    }
}
