import AgentTestSupport
import Foundation
import MotionContract
import Synchronization
import Testing

@testable import MotionAgent

/// The systemd side (`Type=notify`): the watchdog's rule as a value, the status line, and the real agent
/// reporting to a notification socket the test owns, as systemd would give it.
@Suite struct ServiceManagerTests {
    @Test func theWatchdogIsFedOnlyWhenSamplesFlow() {
        var watchdog = SampleWatchdog()
        let checks: [(active: Set<MotionService>, samples: UInt64, open: Bool, feeds: Bool, why: String)] = [
            ([.deviceMotion], 0, true, true, "the first check: a period's grace"),
            ([.deviceMotion], 0, true, false, "no sample since: stalled"),
            ([.deviceMotion], 50, true, true, "samples flowed"),
            ([.deviceMotion], 50, true, false, "stalled again"),
            ([.deviceMotion, .gyro], 50, true, true, "a service started: grace again"),
            ([.deviceMotion, .gyro], 50, true, false, "and then samples are expected"),
            ([.deviceMotion, .gyro], 50, false, true, "the device is gone: the agent retries it, a restart would not help"),
            ([.deviceMotion, .gyro], 50, false, true, "still gone"),
            ([.deviceMotion, .gyro], 50, true, true, "reopened: a new start's grace"),
            ([.deviceMotion, .gyro], 50, true, false, "and then samples are expected again"),
            ([], 50, true, true, "nothing active: nothing expected"),
            ([], 50, true, true, "still nothing expected"),
        ]
        for check in checks {
            let feeds = watchdog.check(activeServices: check.active, samplesIn: check.samples, deviceIsOpen: check.open)
            #expect(feeds == check.feeds, "\(check.why)")
        }
    }

    @Test func theStatusLineIsOneLine() {
        #expect(ServiceManagerReporter.statusLine(connection: "connected to mqtt://127.0.0.1:1883", services: ["device-motion 50 Hz", "gyro 12.5 Hz"], faults: [])
            == "connected to mqtt://127.0.0.1:1883; device-motion 50 Hz, gyro 12.5 Hz; no faults")
        #expect(ServiceManagerReporter.statusLine(connection: "connecting to mqtt://b:1883", services: [], faults: ["no samples for 2 s\nat all"])
            == "connecting to mqtt://b:1883; no service active; faults: no samples for 2 s at all")
        #expect(ServiceManagerReporter.formatRate(49.96) == "50" && ServiceManagerReporter.formatRate(12.46) == "12.5" && ServiceManagerReporter.formatRate(0) == "0")
    }

    @Test func readyStatusWatchdogAndStoppingReachTheNotifySocket() throws {
        let socket = try NotifySocket()
        defer { socket.close() }
        // The simulated device goes silent 3 s after it starts, for a minute.
        let running = try RunningAgent.start(
            device: "sim:rate=100,fault=stall,fault_after=3,fault_duration=60",
            environment: ["NOTIFY_SOCKET": socket.path, "WATCHDOG_USEC": "400000"])
        defer { running.cleanUp() }
        let started = Date()
        var messages: [(time: Double, text: String)] = []
        while Date().timeIntervalSince(started) < 6.5, let text = socket.receive(timeout: 0.5) {
            messages.append((Date().timeIntervalSince(started), text))
        }
        while Date().timeIntervalSince(started) < 6.5 {
            if let text = socket.receive(timeout: 0.5) { messages.append((Date().timeIntervalSince(started), text)) }
        }
        func assignments(_ name: String) -> [(time: Double, value: String)] {
            messages.flatMap { message in
                message.text.split(separator: "\n").compactMap { line in
                    line.hasPrefix("\(name)=") ? (message.time, String(line.dropFirst(name.count + 1))) : nil
                }
            }
        }
        #expect(messages.first?.text.hasPrefix("READY=1\nSTATUS=") == true, "readiness first: \(messages.first?.text ?? "nothing")")
        let pings = assignments("WATCHDOG").map(\.time)
        // Every 0.2 s while samples flow (the first 3 s), none once the device is silent.
        #expect(pings.filter { $0 < 2.5 }.count >= 6, "pings while samples flow: \(pings)")
        #expect(pings.filter { $0 > 4 }.isEmpty, "no ping while the device is silent: \(pings)")
        let statuses = assignments("STATUS").map(\.value)
        #expect(statuses.contains { $0.hasPrefix("connected to mqtt://127.0.0.1:") && $0.contains("device-motion") }, "\(statuses)")
        #expect(statuses.contains { $0.contains("faults: ") && $0.contains("no samples") }, "the stall in the status: \(statuses)")

        running.agent.send(SIGTERM)
        var stopping = false
        while !stopping, let text = socket.receive(timeout: 3) { stopping = text.contains("STOPPING=1") }
        #expect(stopping, "STOPPING=1 at shutdown")
        #expect(running.agent.waitForExit(timeout: .seconds(5)) == 0)
    }
}

/// A datagram socket on a file path, as systemd's `$NOTIFY_SOCKET`.
private final class NotifySocket: @unchecked Sendable {
    // Used by one test at a time.
    let path: String
    private let descriptor: Int32

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("notify-\(UUID().uuidString.prefix(8)).sock").path
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in path.utf8.prefix(buffer.count - 1).enumerated() { buffer[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else { throw POSIXError(.EADDRINUSE) }
    }

    /// The next datagram's text, or `nil` after `timeout` seconds without one.
    func receive(timeout: Double) -> String? {
        var descriptors = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
        guard poll(&descriptors, 1, Int32(timeout * 1000)) == 1 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(descriptor, &buffer, buffer.count, 0)
        return count > 0 ? String(decoding: buffer[..<count], as: UTF8.self) : nil
    }

    func close() {
        Glibc.close(descriptor)
        unlink(path)
    }
}
