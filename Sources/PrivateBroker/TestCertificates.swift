import Foundation

/// X.509 material for TLS tests, generated with `/usr/bin/openssl` into a directory: a CA, a server
/// certificate for `127.0.0.1` (CN and subjectAltName IP:127.0.0.1) and a client certificate, both signed
/// by the CA, plus an unrelated second CA that must not be trusted. EC P-256 keys, valid for 2 days.
public struct TestCertificates: Sendable {
    /// Why generation failed, with openssl's output.
    public struct GenerationError: Error, Sendable, CustomStringConvertible {
        /// The failing command and its output.
        public let description: String
    }

    /// The CA certificate (PEM) that signed the server and client certificates.
    public let caCertificatePath: String
    /// The CA's private key (PEM), to sign more certificates (`motionctl provision`).
    public let caKeyPath: String
    /// An unrelated CA certificate (PEM): trusting only it must make verification fail.
    public let otherCACertificatePath: String
    /// The server certificate (PEM) for 127.0.0.1.
    public let serverCertificatePath: String
    /// The server's private key (PEM).
    public let serverKeyPath: String
    /// The client certificate (PEM), CN `motion-test-client`.
    public let clientCertificatePath: String
    /// The client's private key (PEM).
    public let clientKeyPath: String

    /// The openssl executable.
    public static let opensslPath = "/usr/bin/openssl"

    /// Generates everything into `directory` (which must exist).
    /// - Throws: ``GenerationError`` when openssl is missing or fails.
    public init(directory: String) throws {
        func path(_ name: String) -> String { "\(directory)/\(name)" }
        let newKey = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try Self.openssl(["req", "-x509"] + newKey + ["-keyout", path("ca.key"), "-out", path("ca.crt"), "-days", "2", "-subj", "/CN=MotionBridge Test CA"])
        try Self.openssl(["req", "-x509"] + newKey + ["-keyout", path("other-ca.key"), "-out", path("other-ca.crt"), "-days", "2", "-subj", "/CN=Some Other CA"])
        for (name, subject, extensions) in [
            ("server", "/CN=127.0.0.1", "subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n"),
            ("client", "/CN=motion-test-client", "extendedKeyUsage=clientAuth\n"),
        ] {
            try extensions.write(toFile: path("\(name).ext"), atomically: true, encoding: .utf8)
            try Self.openssl(["req"] + newKey + ["-keyout", path("\(name).key"), "-out", path("\(name).csr"), "-subj", subject])
            try Self.openssl([
                "x509", "-req", "-in", path("\(name).csr"), "-CA", path("ca.crt"), "-CAkey", path("ca.key"),
                "-CAcreateserial", "-out", path("\(name).crt"), "-days", "2", "-extfile", path("\(name).ext"),
            ])
        }
        caCertificatePath = path("ca.crt")
        caKeyPath = path("ca.key")
        otherCACertificatePath = path("other-ca.crt")
        serverCertificatePath = path("server.crt")
        serverKeyPath = path("server.key")
        clientCertificatePath = path("client.crt")
        clientKeyPath = path("client.key")
    }

    private static func openssl(_ arguments: [String]) throws {
        let result: CommandLineTool.Result
        do {
            result = try CommandLineTool.run(opensslPath, arguments)
        } catch {
            throw GenerationError(description: "\(error)")
        }
        guard result.status == 0 else {
            throw GenerationError(description: "openssl \(arguments.joined(separator: " ")) failed: \(result.output)")
        }
    }
}
