import Foundation
import MotionAgent

/// `motionctl provision`: what an operator needs to let a new device onto the fleet's broker: its
/// credentials (a random password, or a client certificate signed by the fleet's CA with the device id
/// as common name), the broker's password-file line, the device's ACL lines and the broker part of its
/// configuration. Files go into the named directory only; no secret is printed.
enum ProvisionCommand {
    static let usage = """
        usage: motionctl provision DEVICE_ID --output DIR (--password | --ca-cert FILE --ca-key FILE [--days N])
                                   [--prefix motion] [--broker mqtt://HOST:PORT] [--ca-file PATH_ON_DEVICE]
          --password        a random password: DIR/DEVICE_ID.password (mode 0600, the device's password_file) and
                            DIR/DEVICE_ID.passwd (its line for the broker's password_file, a PBKDF2 hash)
          --ca-cert/--ca-key  a client certificate (EC P-256, common name DEVICE_ID, for use_identity_as_username)
                            signed by the fleet's CA: DIR/DEVICE_ID.key (mode 0600) and DIR/DEVICE_ID.crt
          --days            the certificate's validity, days (default 825)
          --prefix          the topic prefix (default motion), for the ACL lines
          --broker          the broker URL for the configuration snippet (default mqtt://broker.example:8884 with
                            --password, :8883 with a certificate: the two listeners of Deploy/mosquitto/fleet.conf)
          --ca-file         where the broker's CA certificate will be on the device (default /etc/motion-agent/ca.crt)
        Always writes DIR/DEVICE_ID.acl (the device's ACL lines, which Deploy/mosquitto/motionbridge.acl's
        patterns already grant) and DIR/DEVICE_ID.agent.json (the broker settings for the device's configuration).
        Existing files are never overwritten (exit 73).
        """

    /// Runs the command with the arguments after `provision`; exits 0, 64 (usage), 73 (cannot create a
    /// file) or 70 (openssl or libcrypto failed).
    static func run(_ arguments: [String]) -> Never {
        let options = CommandOptions(
            arguments, valued: ["--output", "--ca-cert", "--ca-key", "--days", "--prefix", "--broker", "--ca-file"],
            switches: ["--password"], usage: usage)
        guard options.positional.count == 1, let deviceID = options.positional.first else {
            options.fail("provision needs one DEVICE_ID")
        }
        guard DeviceIdentifier.isValid(deviceID) else {
            options.fail("device id \"\(deviceID)\" must use only a-z, 0-9, _ and - (for example \"\(DeviceIdentifier.sanitized(deviceID))\")")
        }
        guard let output = options["--output"] else { options.fail("--output DIR is required") }
        let usesPassword = options.flags.contains("--password")
        let certificateAuthority = (options["--ca-cert"], options["--ca-key"])
        guard usesPassword != (certificateAuthority.0 != nil || certificateAuthority.1 != nil) else {
            options.fail("give --password or --ca-cert and --ca-key")
        }
        guard usesPassword || (certificateAuthority.0 != nil && certificateAuthority.1 != nil) else {
            options.fail("--ca-cert and --ca-key go together")
        }
        let days = options["--days"].map { Int($0) ?? 0 } ?? 825
        guard (1...3_650).contains(days) else { options.fail("--days must be 1…3650") }
        let prefix = options["--prefix"] ?? "motion"
        let broker = options["--broker"] ?? (usesPassword ? "mqtt://broker.example:8884" : "mqtt://broker.example:8883")
        do {
            _ = try AgentConfiguration.brokerAddress(broker, fieldPath: "--broker")
        } catch {
            options.fail("--broker: \(error.reason)")
        }
        let caOnDevice = options["--ca-file"] ?? "/etc/motion-agent/ca.crt"

        // Every file this command makes is the operator's alone until they hand it over.
        umask(0o077)
        var directory = ObjCBool(false)
        if !FileManager.default.fileExists(atPath: output, isDirectory: &directory) {
            do {
                try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                CommandOptions.exit("cannot create \(output): \(error.localizedDescription)", status: 73)
            }
        } else if !directory.boolValue {
            CommandOptions.exit("\(output) is not a directory", status: 73)
        }
        let base = URL(fileURLWithPath: output).appendingPathComponent(deviceID).path
        let files = (usesPassword ? [".password", ".passwd"] : [".key", ".crt"]) + [".acl", ".agent.json"]
        if let existing = files.map({ base + $0 }).first(where: { FileManager.default.fileExists(atPath: $0) }) {
            CommandOptions.exit("\(existing) exists: provisioning never overwrites a device's credentials", status: 73)
        }

        var written: [String] = []
        var settings: [String: Any] = ["url": broker, "username": deviceID]
        var tls: [String: Any] = ["ca_file": caOnDevice]
        if usesPassword {
            do {
                let password = try MosquittoPasswordLine.randomPassword()
                try write(password + "\n", to: base + ".password")
                try write(try MosquittoPasswordLine.make(user: deviceID, password: password) + "\n", to: base + ".passwd")
            } catch let failure as MosquittoPasswordLine.Failure {
                CommandOptions.exit(failure.description, status: 70)
            } catch {
                CommandOptions.exit("\(error)", status: 73)
            }
            settings["password_file"] = "/etc/motion-agent/\(deviceID).password"
            written += [base + ".password", base + ".passwd"]
        } else {
            let (caCertificate, caKey) = (certificateAuthority.0!, certificateAuthority.1!)
            issueCertificate(deviceID: deviceID, key: base + ".key", certificate: base + ".crt", caCertificate: caCertificate, caKey: caKey, days: days)
            tls["certificate_file"] = "/etc/motion-agent/\(deviceID).crt"
            tls["key_file"] = "/etc/motion-agent/\(deviceID).key"
            written += [base + ".key", base + ".crt"]
        }
        settings["tls"] = tls
        let acl = """
            # motionctl provision: the ACL lines of device \(deviceID) (Deploy/mosquitto/motionbridge.acl grants the same
            # to every device through its patterns; use these with a broker that has no pattern ACL)
            user \(deviceID)
            topic write \(prefix)/\(deviceID)/#
            topic read \(prefix)/\(deviceID)/+/set
            topic read \(prefix)/\(deviceID)/config/set
            topic write motionctl/+/replies/#

            """
        do {
            try write(acl, to: base + ".acl")
            let snippet = try JSONSerialization.data(
                withJSONObject: ["device_id": deviceID, "topic_prefix": prefix, "broker": settings],
                options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
            try write(String(decoding: snippet, as: UTF8.self) + "\n", to: base + ".agent.json")
        } catch {
            CommandOptions.exit("\(error)", status: 73)
        }
        written += [base + ".acl", base + ".agent.json"]
        print("provisioned \(deviceID):")
        for file in written { print("  \(file)") }
        print(usesPassword
            ? "append \(base).passwd to the broker's password_file, copy \(base).password to the device (mode 0600)"
            : "copy \(base).crt and \(base).key to the device (the key with mode 0600); the broker takes the common name as the user name")
        CommandOptions.exit(nil, status: 0)
    }

    /// Writes `text` to a new file (mode 0600 under the umask set in `run`); fails if it exists.
    private static func write(_ text: String, to path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
    }

    /// A new EC key and a client certificate for it, signed by the CA, with `openssl`.
    private static func issueCertificate(deviceID: String, key: String, certificate: String, caCertificate: String, caKey: String, days: Int) {
        let request = key + ".csr"
        let extensions = key + ".ext"
        defer {
            try? FileManager.default.removeItem(atPath: request)
            try? FileManager.default.removeItem(atPath: extensions)
        }
        do {
            try write("basicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=clientAuth\n", to: extensions)
        } catch {
            CommandOptions.exit("cannot write \(extensions): \(error)", status: 73)
        }
        var serial = ""
        do {
            // A random 127-bit serial: no serial file is written next to the CA.
            serial = try MosquittoPasswordLine.randomBytes(16).enumerated().map { String(format: "%02x", $0 == 0 ? $1 & 0x7f : $1) }.joined()
        } catch {
            CommandOptions.exit(error.description, status: 70)
        }
        openssl(["req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", key,
                 "-subj", "/CN=\(deviceID)", "-out", request])
        openssl(["x509", "-req", "-in", request, "-CA", caCertificate, "-CAkey", caKey, "-set_serial", "0x" + serial,
                 "-days", "\(days)", "-sha256", "-extfile", extensions, "-out", certificate])
    }

    /// Runs `openssl` with `arguments`; exits 70 with its message when it fails.
    private static func openssl(_ arguments: [String]) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            CommandOptions.exit("cannot run /usr/bin/openssl: \(error.localizedDescription)", status: 70)
        }
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            CommandOptions.exit("openssl \(arguments[0]) failed: \(message.trimmingCharacters(in: .whitespacesAndNewlines))", status: 70)
        }
    }
}
