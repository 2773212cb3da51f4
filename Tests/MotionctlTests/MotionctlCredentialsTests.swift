import AgentTestSupport
import Foundation
import MotionTestSupport
import Testing

/// motionctl against brokers that refuse anonymous clients, as a fleet broker does (fleet.conf): a user
/// name with a password from a file or `MOTIONCTL_PASSWORD`, TLS with a client certificate; the real
/// motionctl and agent against real mosquittos.
@Suite(.serialized) struct MotionctlCredentialsTests {
    /// A file holding `secret` as its first line, with `mode`.
    static func passwordFile(_ secret: String, mode: mode_t = 0o600) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("operator-\(UUID().uuidString).password").path
        try Data("\(secret)\n".utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, mode)
        return path
    }

    @Test func aPasswordFromAFileOrTheEnvironmentOpensAPasswordBroker() throws {
        let broker = try MosquittoBroker(options: .init(allowAnonymous: false, users: ["operator": "fleet-pass", "cred-dev": "dev-pass"]))
        let operatorPassword = try Self.passwordFile("fleet-pass")
        let devicePassword = try Self.passwordFile("dev-pass")
        defer { unlink(operatorPassword); unlink(devicePassword) }
        // A device on the same broker, with its own credentials.
        let configuration = FileManager.default.temporaryDirectory.appendingPathComponent("cred-\(UUID().uuidString).json")
        try Data(#"{"broker": {"username": "cred-dev", "password_file": "\#(devicePassword)"}, "health_interval": 1}"#.utf8).write(to: configuration)
        defer { try? FileManager.default.removeItem(at: configuration) }
        let agent = try AgentProcess(arguments: ["--config", configuration.path, "--broker", broker.url, "--id", "cred-dev", "--device", "sim"])
        defer { agent.send(SIGTERM) }

        let anonymous = try AgentProcess.run("motionctl", arguments: ["devices", "--broker", broker.url, "--wait", "1"])
        #expect(anonymous.status == 69, "refused without credentials: \(anonymous.log)")
        #expect(anonymous.log.lowercased().contains("not authori"), "the refusal is named: \(anonymous.log)")

        let withFile = try AgentProcess.run(
            "motionctl", arguments: ["devices", "cred-*", "--broker", broker.url, "--username", "operator", "--password-file", operatorPassword, "--wait", "2"])
        #expect(withFile.status == 0 && withFile.output.contains("cred-dev  online"), "\(withFile.output) \(withFile.log)\nagent: \(agent.log)")
        #expect(!withFile.output.contains("fleet-pass") && !withFile.log.contains("fleet-pass"), "the password is never printed")

        let fromEnvironment = try AgentProcess.run(
            "motionctl", arguments: ["devices", "cred-*", "--broker", broker.url, "--username", "operator", "--wait", "2"],
            environment: ["MOTIONCTL_PASSWORD": "fleet-pass"])
        #expect(fromEnvironment.status == 0, "\(fromEnvironment.log)")

        // The fleet simulator's agents take the same credentials.
        let simulated = try AgentProcess("motionctl", arguments: [
            "simulate", "--devices", "2", "--id-prefix", "credsim", "--seconds", "20", "--broker", broker.url,
            "--username", "operator", "--password-file", operatorPassword,
        ])
        defer { simulated.send(SIGTERM) }
        var listed = ""
        _ = eventually(within: .seconds(15)) {
            let run = try? AgentProcess.run(
                "motionctl", arguments: ["devices", "credsim-*", "--broker", broker.url, "--username", "operator", "--password-file", operatorPassword, "--wait", "1"])
            listed = run?.output ?? ""
            return run?.status == 0 && listed.contains("credsim-0002  online")
        }
        #expect(listed.contains("credsim-0001  online") && listed.contains("credsim-0002  online"), "\(listed)\nsimulate: \(simulated.log)")

        let wrong = try AgentProcess.run(
            "motionctl", arguments: ["devices", "--broker", broker.url, "--username", "operator", "--wait", "1"],
            environment: ["MOTIONCTL_PASSWORD": "not-it"])
        #expect(wrong.status == 69, "a wrong password is refused: \(wrong.log)")
    }

    @Test func aClientCertificateOpensATLSBroker() throws {
        let broker = try MosquittoBroker(options: .init(tls: .requireClientCertificate))
        let certificates = try #require(broker.certificates)
        let withCertificate = try AgentProcess.run("motionctl", arguments: [
            "devices", "--broker", broker.url, "--ca-file", certificates.caCertificatePath,
            "--cert", certificates.clientCertificatePath, "--key", certificates.clientKeyPath, "--wait", "1",
        ])
        #expect(withCertificate.status == 2 && withCertificate.log.contains("no device under motion/"), "connected, no device yet: \(withCertificate.log)")
        let plain = try AgentProcess.run("motionctl", arguments: ["devices", "--broker", broker.url, "--wait", "1"])
        #expect(plain.status == 69, "plain TCP to a TLS listener: \(plain.log)")
    }

    @Test func credentialsThatCannotBeUsedAreUsageErrors() throws {
        let readable = try Self.passwordFile("fleet-pass", mode: 0o644)
        defer { unlink(readable) }
        let cases: [([String], String)] = [
            (["--password-file", readable], "--password-file needs --username"),
            (["--username", "operator", "--password-file", readable], "readable by every user"),
            (["--username", "operator", "--password-file", "/nonexistent/operator.password"], "/nonexistent/operator.password"),
            (["--ca-file", "/tmp/ca.crt", "--cert", "/tmp/c.crt"], "--cert and --key go together"),
            (["--cert", "/tmp/c.crt", "--key", "/tmp/c.key"], "--cert needs --ca-file"),
        ]
        for (arguments, message) in cases {
            let run = try AgentProcess.run("motionctl", arguments: ["devices", "--broker", "mqtt://127.0.0.1:1"] + arguments)
            #expect(run.status == 64 && run.log.contains(message), "\(arguments): \(run.status.map(String.init) ?? "-") \(run.log)")
        }
    }
}
