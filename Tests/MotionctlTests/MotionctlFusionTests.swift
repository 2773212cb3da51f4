import AgentTestSupport
import MotionMath
import Foundation
import MotionTestSupport
import Testing

/// `motionctl fuse` and `motion-bench broad` on a real BROAD excerpt, and their errors.
@Suite struct MotionctlFusionTests {
    static let broadExcerpt = Repository.broadExcerpt.path

    private func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("motionctl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test(arguments: [("9", "xMagneticNorthZVertical"), ("6", "xArbitraryZVertical")])
    func fuseWritesOneUnitQuaternionPerSample(axes: String, frame: String) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("attitude.csv").path
        let run = try AgentProcess.run(
            "motionctl", arguments: ["fuse", "--input", Self.broadExcerpt, "--output", output, "--axes", axes, "--frame", frame])
        #expect(run.status == 0, "\(run.log)")
        let lines = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n")
        #expect(lines.first == "t,quat_w,quat_x,quat_y,quat_z")
        #expect(lines.count == 3430)
        for line in lines.dropFirst() {
            let values = line.split(separator: ",").compactMap { Double($0) }
            #expect(values.count == 5)
            let norm = values[1...].map { $0 * $0 }.reduce(0, +)
            #expect(abs(norm - 1) < 1e-6 && values[1] >= 0, "\(line)")
        }
        #expect(lines.last?.hasPrefix("11.998") == true || lines.last?.hasPrefix("11.99") == true, "\(lines.last ?? "")")
    }

    @Test func trueNorthFromALocationIsMagneticNorthTurnedByTheModelsDeclination() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        func fuse(_ extra: [String]) throws -> [Double] {
            let output = directory.appendingPathComponent("\(UUID().uuidString).csv").path
            let run = try AgentProcess.run(
                "motionctl", arguments: ["fuse", "--input", Self.broadExcerpt, "--output", output] + extra)
            #expect(run.status == 0, "\(run.log)")
            let last = try #require(try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n").last)
            return last.split(separator: ",").compactMap { Double($0) }
        }
        // Yaw of the last attitude, from its quaternion (w, x, y, z): device x projected on the horizontal.
        func yaw(_ row: [Double]) -> Double {
            let (w, x, y, z) = (row[1], row[2], row[3], row[4])
            return atan2(2 * (x * y + w * z), 1 - 2 * (y * y + z * z)) * 180 / .pi
        }
        let magnetic = try fuse(["--frame", "xMagneticNorthZVertical"])
        let trueNorth = try fuse(["--frame", "xTrueNorthZVertical", "--location", "52.52,13.40,34", "--year", "2026.9"])
        // WMM2025 in Berlin at 2026.9: 5.20° east; true-north yaw is that much less.
        let difference = remainder(yaw(trueNorth) - yaw(magnetic), 360)
        #expect(abs(difference + 5.2) < 0.05, "yaw difference \(difference)°")
        let missingYear = try AgentProcess.run(
            "motionctl", arguments: ["fuse", "--input", Self.broadExcerpt, "--output", "/tmp/unused.csv", "--frame",
                                     "xTrueNorthZVertical", "--location", "52.52,13.40"])
        #expect(missingYear.status == 64 && missingYear.log.contains("--year"))
    }

    @Test func fuseRefusesBadArgumentsWithDistinctStatuses() throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("unused-\(UUID().uuidString).csv").path
        let badFrame = try AgentProcess.run("motionctl", arguments: ["fuse", "--input", Self.broadExcerpt, "--output", output, "--frame", "xNorth"])
        #expect(badFrame.status == 64 && badFrame.log.contains("--frame: xNorth is not one of"))
        let mismatch = try AgentProcess.run(
            "motionctl", arguments: ["fuse", "--input", Self.broadExcerpt, "--output", output, "--axes", "6", "--frame", "xMagneticNorthZVertical"])
        #expect(mismatch.status == 64 && mismatch.log.contains("9-axis frame"))
        let trueNorth = try AgentProcess.run(
            "motionctl", arguments: ["fuse", "--input", Self.broadExcerpt, "--output", output, "--frame", "xTrueNorthZVertical"])
        #expect(trueNorth.status == 64 && trueNorth.log.contains("--declination"))
        let missing = try AgentProcess.run("motionctl", arguments: ["fuse", "--input", "/nonexistent.csv", "--output", output])
        #expect(missing.status == 66 && missing.log.contains("/nonexistent.csv"))
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test func benchBroadScoresEachTrialAndPlotsIt() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let trials = directory.appendingPathComponent("trials"), plots = directory.appendingPathComponent("plots")
        try FileManager.default.createDirectory(at: trials, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.broadExcerpt, toPath: trials.appendingPathComponent("excerpt.csv").path)
        let run = try AgentProcess.run("motion-bench", arguments: ["broad", trials.path, "--plots", plots.path, "--json"])
        #expect(run.status == 0, "\(run.log)")
        let report = try #require(JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        let trialScores = try #require(report["trials"] as? [[String: Any]])
        #expect(trialScores.count == 1 && trialScores.first?["trial"] as? String == "excerpt")
        let nine = try #require(report["meanNineAxis"] as? [String: Double])
        // The excerpt's figures are the filter's (OrientationErrorTests: 0.21° inclination, 2.14° total).
        #expect((nine["inclination"] ?? .nan) < 0.5 && (nine["total"] ?? .nan) < 2.5)
        #expect(((report["nineAxisNanosecondsPerSample"] as? Double) ?? 0) > 0)
        let svg = try String(contentsOfFile: plots.appendingPathComponent("excerpt.svg").path, encoding: .utf8)
        #expect(svg.hasPrefix("<svg") && svg.contains("<polyline") && svg.contains("9-axis total"))
    }

    @Test func benchBroadWritesNothingUnlessAskedTo() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.copyItem(atPath: Self.broadExcerpt, toPath: directory.appendingPathComponent("excerpt.csv").path)
        let before = Set(try FileManager.default.contentsOfDirectory(atPath: FileManager.default.currentDirectoryPath))
        let run = try AgentProcess.run("motion-bench", arguments: ["broad", directory.path])
        #expect(run.status == 0 && run.output.contains("mean over trials") && !run.output.contains("error plots"), "\(run.log)")
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: FileManager.default.currentDirectoryPath)) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["excerpt.csv"])
    }

    @Test func benchBroadScoresOtherSettingsAndRefusesBadOnesNamingThem() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.copyItem(atPath: Self.broadExcerpt, toPath: directory.appendingPathComponent("excerpt.csv").path)
        func nineAxisTotal(_ arguments: [String]) throws -> Double {
            let run = try AgentProcess.run("motion-bench", arguments: ["broad", directory.path, "--json"] + arguments)
            #expect(run.status == 0, "\(run.log)")
            let report = try #require(JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
            return try #require((report["meanNineAxis"] as? [String: Double])?["total"])
        }
        let defaults = try nineAxisTotal([])
        #expect(try nineAxisTotal(["--set", "magnetometerTimeConstant=15"]) == defaults, "the default, set explicitly")
        #expect(try nineAxisTotal(["--set", "magnetometerTimeConstant=0.5,estimatesGyroscopeBias=false"]) != defaults)
        for (set, message) in [
            ("magnetometerTimeConstant", "is not NAME=VALUE"), ("magnetometerTimeConstant=fast", "needs a finite number"),
            ("estimatesGyroscopeBias=1", "needs true or false"), ("tauMag=9", "unknown setting 'tauMag'"),
        ] {
            let run = try AgentProcess.run("motion-bench", arguments: ["broad", directory.path, "--set", set])
            #expect(run.status == 64 && run.log.contains(message), "\(set): \(run.log)")
        }
        let both = try AgentProcess.run("motion-bench", arguments: ["broad", directory.path, "--set", "gravity=9.8", "--cross-validate"])
        #expect(both.status == 64 && both.log.contains("exclude each other"))
    }

    @Test func benchBroadScoresTheReferenceVQFWithItsOwnParameters() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.copyItem(atPath: Self.broadExcerpt, toPath: directory.appendingPathComponent("excerpt.csv").path)
        func report(_ arguments: [String]) throws -> [String: Any] {
            let run = try AgentProcess.run("motion-bench", arguments: ["broad", directory.path, "--filter", "vqf", "--json"] + arguments)
            #expect(run.status == 0, "\(run.log)")
            return try #require(JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        }
        // VQF 2.1.2's own figure on the excerpt (VQFReferenceTests); no uncertainty and no time of its own.
        let published = try report([])
        let total = try #require((published["meanNineAxis"] as? [String: Double])?["total"])
        #expect(abs(total - 1.9445700226458047) < 1e-7)
        #expect(published["uncertainty"] == nil && published["nineAxisNanosecondsPerSample"] == nil)
        // --set takes VQF's parameter names, not MotionBridge's.
        let changed = try report(["--set", "magnetometerTimeConstant=1,rejectsMagneticDisturbances=false"])
        #expect((changed["meanNineAxis"] as? [String: Double])?["total"] != total)
        let foreign = try AgentProcess.run(
            "motion-bench", arguments: ["broad", directory.path, "--filter", "vqf", "--set", "gyroscopeScaleTimeConstant=0"])
        #expect(foreign.status == 64 && foreign.log.contains("unknown setting 'gyroscopeScaleTimeConstant'"), "\(foreign.log)")
        let unknown = try AgentProcess.run("motion-bench", arguments: ["broad", directory.path, "--filter", "madgwick"])
        #expect(unknown.status == 64 && unknown.log.contains("--filter takes motionbridge or vqf"), "\(unknown.log)")
    }
}
