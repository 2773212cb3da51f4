import AgentTestSupport
import Foundation
import Testing

/// The example programs build from unchanged iPhone-style code and run on the simulated IMU.
@Suite struct ExampleProgramTests {
    @Test func tiltMonitorPrintsDeviceMotionFromTheMainRunLoop() throws {
        let run = try AgentProcess.run("tilt-monitor", arguments: ["5"], environment: ["MOTION_DEVICE": "sim:motion=stationary"])
        #expect(run.status == 0, "log: \(run.log)")
        let lines = run.output.split(separator: "\n")
        #expect(lines.count == 5, "\(run.output)")
        for line in lines {
            // The handler ran on the main thread, serviced by RunLoop.main; a resting face-up device reads
            // gravity straight down.
            #expect(line.hasSuffix("main=yes"), "\(line)")
            let gravity = try #require(Self.vector(named: "gravity", in: line), "\(line)")
            #expect(abs(gravity.x) < 0.02 && abs(gravity.y) < 0.02 && abs(gravity.z + 1) < 0.002, "\(line)")
        }
        // Updates 0.1 s apart.
        let times = lines.compactMap { line in line.split(separator: " ").first.flatMap { Double($0.dropFirst(2)) } }
        #expect(times.count == 5)
        for (earlier, later) in zip(times, times.dropFirst()) {
            #expect(abs(later - earlier - 0.1) < 0.011, "\(times)")
        }
    }

    @Test("tilt-monitor --remote reads a board across a broker with the same iPhone code")
    func tiltMonitorReadsARemoteBoard() throws {
        let running = try RunningAgent.start(device: "sim:motion=stationary")
        defer { running.cleanUp() }
        #expect(running.subscriber.waitForMessage(on: running.topics.status(.deviceMotion)) != nil)
        let run = try AgentProcess.run("tilt-monitor", arguments: ["3", "--remote", running.deviceID, "--broker", running.broker.url])
        #expect(run.status == 0, "log: \(run.log)")
        let lines = run.output.split(separator: "\n")
        #expect(lines.count == 3, "\(run.output)")
        for line in lines {
            #expect(line.hasSuffix("main=yes"), "\(line)")
            let gravity = try #require(Self.vector(named: "gravity", in: line), "\(line)")
            #expect(abs(gravity.z + 1) < 0.01, "\(line)")
        }
        let missing = try AgentProcess.run("tilt-monitor", arguments: ["1", "--remote", "no-such-board", "--broker", running.broker.url])
        #expect(missing.status == 1 && missing.output.contains("not available on no-such-board"), "\(missing.output)")
    }

    /// The `(x,y,z)` printed after `name=` in a line of tilt-monitor's output.
    private static func vector(named name: String, in line: Substring) -> SIMD3<Double>? {
        guard let start = line.range(of: "\(name)=(")?.upperBound, let end = line[start...].firstIndex(of: ")") else {
            return nil
        }
        let components = line[start..<end].split(separator: ",").compactMap { Double($0) }
        return components.count == 3 ? SIMD3(components[0], components[1], components[2]) : nil
    }

    @Test func tiltMonitorWithoutADeviceSaysHowToChooseOne() throws {
        let child = try AgentProcess("tilt-monitor", arguments: ["1"], environment: ["MOTION_DEVICE": ""])
        let output = String(decoding: child.standardOutput.readDataToEndOfFile(), as: UTF8.self)
        #expect(child.waitForExit(timeout: .seconds(10)) == 1)
        #expect(output.contains("MOTION_DEVICE"))
    }
}
