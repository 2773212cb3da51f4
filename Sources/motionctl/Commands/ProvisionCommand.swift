import Foundation
import MotionAgent
import MotionHAL

/// `motionctl provision`: what an operator needs to let a new device (or another operator account) onto the
/// fleet's broker: its credentials (a random password, or a client certificate signed by the fleet's CA
/// with the name as common name), the broker's password-file line, the ACL lines and, for a device, the
/// broker part of its configuration. Files go into the named directory only, each created new
/// (`O_CREAT|O_EXCL|O_NOFOLLOW`, mode 0600: never through a symbolic link, never over a file); no secret is
/// printed.
enum ProvisionCommand {
    static let usage = """
        usage: motionctl provision NAME --output DIR (--password | --ca-cert FILE --ca-key FILE [--days N]) [--operator]
                                   [--acl FILE] [--prefix motion] [--broker mqtt://HOST:PORT] [--ca-file PATH_ON_DEVICE]
          NAME              the device id (a-z, 0-9, _ and -, at most 64 characters: a certificate's common name)
          --password        a random password: DIR/NAME.password (the device's password_file) and DIR/NAME.passwd
                            (its line for the broker's password file, a PBKDF2 hash)
          --ca-cert/--ca-key  a client certificate (EC P-256, common name NAME, for use_identity_as_username)
                            signed by the fleet's CA: DIR/NAME.key and DIR/NAME.crt
          --days            the certificate's validity, days (default 825)
          --operator        an operator account (a fleet tool's login) instead of a device: its ACL block, and its
                            passwd line for the operators' listener (operators.passwd in Deploy/mosquitto/fleet.conf)
          --acl             the broker's ACL file: a device may not take a name it gives a `user` block (an operator's)
          --prefix          the topic prefix (default motion), for the ACL lines
          --broker          the broker URL for the configuration snippet (default mqtt://broker.example:8884 with
                            --password, :8883 with a certificate: the device listeners of Deploy/mosquitto/fleet.conf)
          --ca-file         where the broker's CA certificate will be on the device (default /etc/motion-agent/ca.crt)
        Always writes DIR/NAME.acl (the ACL lines; Deploy/mosquitto/motionbridge.acl's patterns already grant a
        device's) and, for a device, DIR/NAME.agent.json (the broker settings for its configuration).
        Device names `operator` and `operator-…` are reserved for operator accounts (the fleet ACL's).
        Every file is created new, mode 0600: an existing file or link is never written (exit 73).
        """

    /// The longest name: RFC 5280's upper bound for a certificate's common name (`ub-common-name`).
    static let maximumNameLength = 64

    /// Runs the command with the arguments after `provision`; exits 0, 64 (usage), 73 (cannot create a
    /// file) or 70 (openssl or libcrypto failed).
    static func run(_ arguments: [String]) -> Never {
        let options = CommandOptions(
            arguments, valued: ["--output", "--ca-cert", "--ca-key", "--days", "--prefix", "--broker", "--ca-file", "--acl"],
            switches: ["--password", "--operator"], usage: usage)
        guard options.positional.count == 1, let name = options.positional.first else {
            options.fail("provision needs one NAME")
        }
        guard DeviceIdentifier.isValid(name) else {
            options.fail("name \"\(name)\" must use only a-z, 0-9, _ and - (for example \"\(DeviceIdentifier.sanitized(name))\")")
        }
        guard name.utf8.count <= maximumNameLength else {
            options.fail("name \(name.prefix(16))… has \(name.utf8.count) characters; at most \(maximumNameLength) (a certificate's common name)")
        }
        let isOperator = options.flags.contains("--operator")
        if !isOperator, let reservation = reservation(of: name, acl: options["--acl"], options: options) {
            options.fail("\(name) is \(reservation): a device with that name would have an operator's rights (use --operator for an operator account)")
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
            _ = try BrokerSettings.address(broker, fieldPath: "--broker")
        } catch {
            options.fail("--broker: \(error.reason)")
        }
        let caOnDevice = options["--ca-file"] ?? "/etc/motion-agent/ca.crt"

        // Every file this command makes is the operator's alone until they hand it over.
        umask(0o077)
        makeDirectory(output)
        let base = URL(fileURLWithPath: output).appendingPathComponent(name).path
        let files = (usesPassword ? [".password", ".passwd"] : [".key", ".crt"]) + [".acl"] + (isOperator ? [] : [".agent.json"])
        var status = stat()
        if let existing = files.map({ base + $0 }).first(where: { lstat($0, &status) == 0 }) {
            CommandOptions.exit("\(existing) exists: provisioning never overwrites credentials", status: 73)
        }

        let writer = NewFiles()
        var settings: [String: Any] = ["url": broker, "username": name]
        var tls: [String: Any] = ["ca_file": caOnDevice]
        if usesPassword {
            do {
                let password = try MosquittoPasswordLine.randomPassword()
                writer.create(base + ".password", password + "\n")
                writer.create(base + ".passwd", try MosquittoPasswordLine.make(user: name, password: password) + "\n")
            } catch {
                writer.fail(error.description, status: 70)
            }
            settings["password_file"] = "/etc/motion-agent/\(name).password"
        } else {
            issueCertificate(name: name, key: base + ".key", certificate: base + ".crt",
                             caCertificate: certificateAuthority.0!, caKey: certificateAuthority.1!, days: days, writer: writer)
            tls["certificate_file"] = "/etc/motion-agent/\(name).crt"
            tls["key_file"] = "/etc/motion-agent/\(name).key"
        }
        settings["tls"] = tls
        writer.create(base + ".acl", isOperator ? operatorACL(name, prefix: prefix) : deviceACL(name, prefix: prefix))
        if !isOperator {
            do {
                let snippet = try JSONSerialization.data(
                    withJSONObject: ["device_id": name, "topic_prefix": prefix, "broker": settings],
                    options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
                writer.create(base + ".agent.json", String(decoding: snippet, as: UTF8.self) + "\n")
            } catch {
                writer.fail("cannot make the configuration snippet: \(error)", status: 70)
            }
        }
        print("provisioned \(isOperator ? "operator account" : "device") \(name):")
        for file in writer.written { print("  \(file)") }
        switch (usesPassword, isOperator) {
        case (true, false): print("append \(base).passwd to the broker's password_file, copy \(base).password to the device (mode 0600)")
        case (true, true): print("append \(base).passwd to the operators' password file (operators.passwd), and \(base).acl to the ACL")
        case (false, false): print("copy \(base).crt and \(base).key to the device (the key with mode 0600); the broker takes the common name as the user name")
        case (false, true): print("append \(base).acl to the ACL; the certificate logs in on a certificate listener (one connection at a time there)")
        }
        CommandOptions.exit(nil, status: 0)
    }

    /// Why `name` cannot be a device's: an operator's name by the fleet ACL's convention, or a `user` of
    /// the ACL file at `acl`; nil when it is free.
    static func reservation(of name: String, acl: String?, options: CommandOptions) -> String? {
        if name == "operator" || name.hasPrefix("operator-") { return "reserved for operator accounts (operator, operator-…)" }
        guard let acl else { return nil }
        let text: String
        do {
            text = String(decoding: try RegularFile.read(acl, maximumSize: 16 << 20), as: UTF8.self)
        } catch {
            options.fail("--acl: cannot read \(acl): \(error)")
        }
        // mosquitto: `user NAME` names one user, the whole rest of the line.
        let users = text.split(whereSeparator: \.isNewline).compactMap { line -> String? in
            let words = line.split { $0 == " " || $0 == "\t" }
            return words.first == "user" && words.count > 1 ? words.dropFirst().joined(separator: " ") : nil
        }
        return users.contains(name) ? "a user of \(acl)" : nil
    }

    /// The ACL lines of device `name` (what the fleet ACL's patterns grant every device).
    private static func deviceACL(_ name: String, prefix: String) -> String {
        """
        # motionctl provision: the ACL lines of device \(name) (Deploy/mosquitto/motionbridge.acl grants the same
        # to every device through its patterns; use these with a broker that has no pattern ACL)
        user \(name)
        topic write \(prefix)/\(name)/#
        topic read \(prefix)/\(name)/+/set
        topic read \(prefix)/\(name)/config/set
        topic write motionctl/+/replies/\(name)/#

        """
    }

    /// The ACL block of operator account `name` (the fleet ACL has one per operator).
    private static func operatorACL(_ name: String, prefix: String) -> String {
        """
        # motionctl provision: the ACL block of operator account \(name), for Deploy/mosquitto/motionbridge.acl
        user \(name)
        topic readwrite \(prefix)/#
        topic readwrite motionctl/\(name)/replies/#

        """
    }

    /// Creates `path` and its missing parents (mode 0700); exits 73 when it cannot, or when it is not a
    /// directory.
    private static func makeDirectory(_ path: String) {
        var status = stat()
        var partial = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            partial += "/" + component
            guard mkdir(partial, 0o700) == 0 || errno == EEXIST else {
                CommandOptions.exit("cannot create \(partial): \(String(cString: strerror(errno)))", status: 73)
            }
        }
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
            CommandOptions.exit("\(path) is not a directory", status: 73)
        }
    }

    /// A new EC key and a client certificate for it, signed by the CA, with `openssl`: the key and the
    /// certificate come back on openssl's standard output and are written as new files here, so that no
    /// program writes through a link in the output directory; the request goes through a pipe.
    private static func issueCertificate(
        name: String, key: String, certificate: String, caCertificate: String, caKey: String, days: Int, writer: NewFiles
    ) {
        let serial: String
        do {
            // A random 127-bit serial: no serial file is written next to the CA.
            serial = try MosquittoPasswordLine.randomBytes(16).enumerated().map { String(format: "%02x", $0 == 0 ? $1 & 0x7f : $1) }.joined()
        } catch {
            writer.fail(error.description, status: 70)
        }
        writer.create(key, openssl(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"], writer: writer))
        let request = openssl(
            ["req", "-new", "-key", key, "-subj", "/CN=\(name)", "-addext", "basicConstraints=CA:FALSE",
             "-addext", "keyUsage=digitalSignature", "-addext", "extendedKeyUsage=clientAuth"], writer: writer)
        writer.create(certificate, openssl(
            ["x509", "-req", "-in", "/dev/stdin", "-copy_extensions", "copyall", "-CA", caCertificate, "-CAkey", caKey,
             "-set_serial", "0x" + serial, "-days", "\(days)", "-sha256"], input: request, writer: writer))
    }

    /// Runs `openssl` with `arguments` and `input` on its standard input; its standard output. Exits 70 with
    /// its message (removing the files made so far) when it fails.
    private static func openssl(_ arguments: [String], input: String = "", writer: NewFiles) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = arguments
        let (standardInput, standardOutput, errors) = (Pipe(), Pipe(), Pipe())
        process.standardInput = standardInput
        process.standardOutput = standardOutput
        process.standardError = errors
        do {
            try process.run()
        } catch {
            writer.fail("cannot run /usr/bin/openssl: \(error.localizedDescription)", status: 70)
        }
        // Small both ways (a request, a key, a certificate): far below a pipe's buffer.
        standardInput.fileHandleForWriting.write(Data(input.utf8))
        try? standardInput.fileHandleForWriting.close()
        let output = String(decoding: standardOutput.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0, !output.isEmpty else {
            writer.fail("openssl \(arguments[0]) failed: \(message.trimmingCharacters(in: .whitespacesAndNewlines))", status: 70)
        }
        return output
    }
}

/// The files one provisioning makes, each created new; a failure removes them all, so that a half-made
/// set of credentials is never left behind.
private final class NewFiles {
    private(set) var written: [String] = []

    /// Creates `path` with `text` (mode 0600); exits 73 when it cannot.
    func create(_ path: String, _ text: String) {
        do {
            try RegularFile.create(path, with: Array(text.utf8))
        } catch {
            fail(error.description, status: 73)
        }
        written.append(path)
    }

    /// Removes what was made and exits with `message`.
    func fail(_ message: String, status: Int32) -> Never {
        for path in written { unlink(path) }
        CommandOptions.exit(message, status: status)
    }
}
