import AgentTestSupport
import Foundation
import PrivateBroker
import Testing

/// `motionctl provision` against what an attacker with write access to the output directory could have put
/// there, and names a device must not take (issue 29: F4, F5 and F14's long name).
@Suite struct MotionctlProvisionTests {
    static func directory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("provision-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func provision(_ arguments: [String]) throws -> (status: Int32?, output: String, log: String) {
        try AgentProcess.run("motionctl", arguments: ["provision"] + arguments)
    }

    @Test("a dangling symbolic link where a key or password would go is refused; nothing is written through it")
    func secretsAreNeverWrittenThroughALink() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let certificates = try TestCertificates(directory: directory)
        let output = "\(directory)/out"
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        for (name, file, method) in [
            ("dev-a", "dev-a.key", ["--ca-cert", certificates.caCertificatePath, "--ca-key", certificates.caKeyPath]),
            ("dev-b", "dev-b.password", ["--password"]),
            ("dev-c", "dev-c.crt", ["--ca-cert", certificates.caCertificatePath, "--ca-key", certificates.caKeyPath]),
        ] {
            let target = "\(directory)/stolen-\(name)"
            try FileManager.default.createSymbolicLink(atPath: "\(output)/\(file)", withDestinationPath: target)
            let run = try Self.provision([name, "--output", output] + method)
            #expect(run.status == 73 && run.log.contains("\(file) exists"), "\(name): \(run.log)")
            #expect(!FileManager.default.fileExists(atPath: target), "\(name): a secret was written through the link")
            let made = try FileManager.default.contentsOfDirectory(atPath: output).filter { $0.hasPrefix(name) && $0 != file }
            #expect(made.isEmpty, "\(name): nothing else is left: \(made)")
        }
    }

    @Test("every file is new and 0600; the certificate names the device; a device's ACL lines write only its own replies")
    func aDeviceIsProvisionedWithPrivateFiles() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let certificates = try TestCertificates(directory: directory)
        let run = try Self.provision(["dev-a", "--ca-cert", certificates.caCertificatePath, "--ca-key", certificates.caKeyPath, "--output", "\(directory)/new/dir"])
        #expect(run.status == 0, "\(run.log)")
        for file in ["dev-a.key", "dev-a.crt", "dev-a.acl", "dev-a.agent.json"] {
            let attributes = try FileManager.default.attributesOfItem(atPath: "\(directory)/new/dir/\(file)")
            #expect((attributes[.posixPermissions] as? Int) == 0o600, "\(file)")
        }
        let subject = try CommandLineTool.run(TestCertificates.opensslPath, ["x509", "-in", "\(directory)/new/dir/dev-a.crt", "-noout", "-subject", "-ext", "extendedKeyUsage"])
        // OpenSSL 3.0 prints "CN = dev-a", 3.5 "CN=dev-a".
        #expect(subject.output.replacingOccurrences(of: " = ", with: "=").contains("CN=dev-a") && subject.output.contains("TLS Web Client Authentication"),
                "\(subject.output)")
        let verified = try CommandLineTool.run(TestCertificates.opensslPath, ["verify", "-CAfile", certificates.caCertificatePath, "\(directory)/new/dir/dev-a.crt"])
        #expect(verified.status == 0, "\(verified.output)")
        let acl = try String(contentsOfFile: "\(directory)/new/dir/dev-a.acl", encoding: .utf8)
        #expect(acl.contains("topic write motionctl/+/replies/dev-a/#") && !acl.contains("replies/#\n"), "\(acl)")
        let again = try Self.provision(["dev-a", "--password", "--output", "\(directory)/new/dir"])
        #expect(again.status == 73, "existing credentials are never overwritten: \(again.log)")
    }

    @Test("names the fleet ACL gives operators are refused for devices; --operator makes an operator account")
    func operatorNamesAreReserved() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for name in ["operator", "operator-ci"] {
            let run = try Self.provision([name, "--password", "--output", directory])
            #expect(run.status == 64 && run.log.contains("reserved for operator accounts"), "\(name): \(run.log)")
        }
        let acl = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Deploy/mosquitto/motionbridge.acl").standardizedFileURL.path
        try (String(contentsOfFile: acl, encoding: .utf8) + "\nuser alice\ntopic readwrite motion/#\n").write(toFile: "\(directory)/fleet.acl", atomically: true, encoding: .utf8)
        let alice = try Self.provision(["alice", "--password", "--acl", "\(directory)/fleet.acl", "--output", directory])
        #expect(alice.status == 64 && alice.log.contains("alice is a user of"), "\(alice.log)")
        #expect(try Self.provision(["bob", "--password", "--acl", "\(directory)/fleet.acl", "--output", directory]).status == 0)

        let operatorRun = try Self.provision(["operator", "--operator", "--password", "--output", directory])
        #expect(operatorRun.status == 0, "\(operatorRun.log)")
        let block = try String(contentsOfFile: "\(directory)/operator.acl", encoding: .utf8)
        #expect(block.contains("user operator\ntopic readwrite motion/#\ntopic readwrite motionctl/operator/replies/#"), "\(block)")
        #expect(!FileManager.default.fileExists(atPath: "\(directory)/operator.agent.json"), "an operator is not a device")
        #expect(try String(contentsOfFile: "\(directory)/operator.passwd", encoding: .utf8).hasPrefix("operator:$7$101$"))
    }

    @Test("a name too long for a certificate or a file is refused in words")
    func aLongNameIsRefusedClearly() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = try Self.provision([String(repeating: "a", count: 300), "--password", "--output", directory])
        #expect(run.status == 64 && run.log.contains("has 300 characters; at most 64"), "\(run.log)")
        #expect(!run.log.contains("NSCocoaErrorDomain"))
    }
}
