import Foundation

/// Everything one `motion-bench` invocation measured, printed as a text table or JSON.
struct BenchReport: Codable {
    /// One of the issue's targets, with the measured figures beside it.
    struct TargetCheck: Codable {
        /// What is measured.
        let name: String
        /// The goal, as written in the issue.
        let goal: String
        /// The Swift figure (agent or MQTTClient).
        let measured: String
        /// The C floor's figure, when it was measured.
        let floor: String?
        /// The batched C floor's figure (the agent's delivery structure), when it was measured.
        var batchedFloor: String? = nil
        /// Whether the Swift figure meets the goal.
        let pass: Bool
    }

    /// Host, core count and load when the run started.
    var machine: String
    /// The agent run.
    var agent: PublisherProcessBenchmark.Result?
    /// The C floor's agent-like run (a wake-up per sample).
    var floor: PublisherProcessBenchmark.Result?
    /// The C floor with the agent's delivery structure: a wake-up per 10 samples, packets written by the
    /// waking thread.
    var batchedFloor: PublisherProcessBenchmark.Result?
    /// The Swift QoS 0 burst.
    var throughputSwift: ThroughputBenchmark.Result?
    /// The C QoS 0 burst.
    var throughputC: ThroughputBenchmark.Result?

    /// The issue's targets judged on whatever was measured.
    var targets: [TargetCheck] {
        var checks: [TargetCheck] = []
        if let agent {
            // A target judged on one figure of the agent's run, shown beside the same figure of each floor.
            func check(_ name: String, goal: String, pass: Bool, figure: (PublisherProcessBenchmark.Result) -> String) {
                checks.append(
                    TargetCheck(
                        name: name, goal: goal, measured: figure(agent), floor: floor.map(figure),
                        batchedFloor: batchedFloor.map(figure), pass: pass))
            }
            check("agent CPU, % of one core", goal: "< 2 %", pass: agent.cpuPercent < 2) {
                Self.format($0.cpuPercent, "%")
            }
            // Issue 36: the agent at or below the C floor with its own delivery structure, in the same run.
            if let ratio = cpuRatioToBatchedFloor, let batched = batchedFloor {
                checks.append(
                    TargetCheck(
                        name: "agent CPU / C batched CPU", goal: "<= 1.0", measured: Self.format(ratio, "x"),
                        floor: floor.map { Self.format($0.cpuPercent / batched.cpuPercent, "x") },
                        batchedFloor: "1.00 x", pass: ratio <= 1))
            }
            check("agent private memory (RssAnon)", goal: "<= 2 MB", pass: agent.anonymousResidentMegabytes <= 2) {
                Self.format($0.anonymousResidentMegabytes, "MB")
            }
            check("agent resident memory (peak VmHWM)", goal: "<= 12 MB", pass: agent.peakResidentMegabytes <= 12) {
                Self.format($0.peakResidentMegabytes, "MB")
            }
            check("agent executable (static, stripped)", goal: "<= 25 MB", pass: agent.executableMegabytes <= 25) {
                Self.format($0.executableMegabytes, "MB")
            }
            check(
                "sample-to-subscriber latency p99", goal: "<= 0.5 ms",
                pass: agent.latency.count > 0 && agent.latency.p99 <= 0.5
            ) { Self.format($0.latency.p99, "ms") }
            check("rate on each of the 4 topics", goal: "100 msg/s", pass: (agent.ratesByTopic.values.min() ?? 0) >= 99) {
                Self.format($0.ratesByTopic.values.min() ?? 0, "/s (min)")
            }
        }
        if let swift = throughputSwift {
            checks.append(
                TargetCheck(
                    name: "QoS 0 msg/s, 1 connection (received)", goal: ">= 50 000/s",
                    measured: Self.format(swift.receivedRate, "/s"), floor: throughputC.map { Self.format($0.receivedRate, "/s") },
                    pass: swift.receivedRate >= 50_000 && swift.lost == 0))
        }
        return checks
    }

    /// The agent's CPU divided by the batched C floor's in the same run (nil unless both ran and the floor
    /// used any): issue 36's ratio, at most 1.0 to pass.
    var cpuRatioToBatchedFloor: Double? {
        guard let agent, let batchedFloor, batchedFloor.cpuPercent > 0 else { return nil }
        return agent.cpuPercent / batchedFloor.cpuPercent
    }

    /// The report as a text table.
    func text() -> String {
        var out = "motion-bench: \(machine)\n"
        if agent != nil || floor != nil {
            let runs = [agent, floor, batchedFloor].compactMap { $0 }
            let seconds = runs.first.map { Self.format($0.seconds, "s") } ?? ""
            out += "\nSimulated IMU at 1 kHz, 4 topics at 100 Hz, QoS 0 (measured over \(seconds) after the warm-up)\n"
            var rows = [[""] + runs.map(\.name)]
            rows.append(["executable size (MB)"] + runs.map { Self.format($0.executableMegabytes) })
            rows.append(["CPU, % of one core"] + runs.map { Self.format($0.cpuPercent, "%") })
            rows.append(["RSS now / peak (MB)"] + runs.map {
                "\(Self.format($0.residentMegabytes)) / \(Self.format($0.peakResidentMegabytes))"
            })
            rows.append(["RSS anonymous / file-backed (MB)"] + runs.map {
                "\(Self.format($0.anonymousResidentMegabytes)) / \(Self.format($0.residentMegabytes - $0.anonymousResidentMegabytes))"
            })
            rows.append(["rate per topic min-max (msg/s)"] + runs.map {
                "\(Self.format($0.ratesByTopic.values.min() ?? 0))-\(Self.format($0.ratesByTopic.values.max() ?? 0))"
            })
            rows.append(["latency p50 / p90 (ms)"] + runs.map { "\(Self.format($0.latency.p50)) / \(Self.format($0.latency.p90))" })
            rows.append(["latency p99 / max (ms)"] + runs.map { "\(Self.format($0.latency.p99)) / \(Self.format($0.latency.max))" })
            rows.append(["latency samples"] + runs.map { "\($0.latency.count)" })
            rows.append(["broker CPU, % of one core"] + runs.map { $0.brokerCPUPercent.map { Self.format($0, "%") } ?? "-" })
            rows.append(["clean exit on SIGTERM"] + runs.map { $0.cleanExit ? "yes" : "NO" })
            out += Self.table(rows)
            for run in runs {
                let busy = run.threads.filter { $0.cpuPercent >= 0.05 }.prefix(8)
                let listed = busy.map { "\($0.name)[\($0.threadID)] \(Self.format($0.cpuPercent, "%"))" }
                out += "  \(run.name) threads (\(run.threads.count)): \(listed.isEmpty ? "all idle" : listed.joined(separator: ", "))\n"
            }
        }
        let bursts = [throughputSwift, throughputC].compactMap { $0 }
        if let first = bursts.first {
            out += "\nQoS 0 burst over one connection: \(first.messages) x \(first.payloadBytes) B, "
            out += first.window > 0 ? "at most \(first.window) unwritten\n" : "unpaced\n"
            var rows = [[""] + bursts.map(\.publisher)]
            rows.append(["published (written), msg/s"] + bursts.map { Self.format($0.publishRate) })
            rows.append(["received by subscriber, msg/s"] + bursts.map { Self.format($0.receivedRate) })
            rows.append(["lost / publish errors"] + bursts.map { "\($0.lost) / \($0.publishErrors)" })
            rows.append(["publisher peak RSS (MB)"] + bursts.map { Self.format($0.publisherPeakRSSMegabytes) })
            rows.append(["broker CPU, % of one core"] + bursts.map { $0.brokerCPUPercent.map { Self.format($0, "%") } ?? "-" })
            out += Self.table(rows)
        }
        let checks = targets
        if !checks.isEmpty {
            out += "\nTargets\n"
            var rows = [["target", "goal", "Swift", "C floor", "C batched", "result"]]
            for check in checks {
                rows.append([check.name, check.goal, check.measured, check.floor ?? "-", check.batchedFloor ?? "-", check.pass ? "PASS" : "FAIL"])
            }
            out += Self.table(rows)
        }
        if let ratio = cpuRatioToBatchedFloor {
            out += "\nagent CPU / C batched floor CPU: \(String(format: "%.2f", ratio)) (goal <= 1.0)\n"
        }
        return out
    }

    /// The report as pretty-printed JSON (figures and target checks).
    func json() throws -> String {
        struct Document: Encodable {
            let report: BenchReport
            let targets: [TargetCheck]
            let cpuRatioToBatchedFloor: Double?
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(Document(report: self, targets: targets, cpuRatioToBatchedFloor: cpuRatioToBatchedFloor))
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// `value` with a precision that suits its size, and an optional unit.
    static func format(_ value: Double, _ unit: String = "") -> String {
        let magnitude = abs(value)
        let text =
            magnitude >= 1000
            ? String(Int(value.rounded()))
            : magnitude >= 10 ? String(format: "%.1f", value) : String(format: "%.2f", value)
        guard !unit.isEmpty else { return text }
        return unit.hasPrefix("/") || unit == "%" ? text + unit : text + " " + unit
    }

    /// Left-aligned columns separated by two spaces.
    static func table(_ rows: [[String]]) -> String {
        let columns = rows.map(\.count).max() ?? 0
        var widths = [Int](repeating: 0, count: columns)
        for row in rows { for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) } }
        return rows.map { row in
            row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }
}
