/// TLS settings for the connection to the broker (libmosquitto's `mosquitto_tls_set`).
///
/// The broker's certificate is verified against ``caFile`` or ``caDirectory``, and its host name (or IP
/// address, matched against the certificate's subjectAltName) against the configured broker host unless
/// ``insecureSkipHostnameCheck`` is set. A client certificate is sent when both ``certificateFile`` and
/// ``keyFile`` are given.
public struct MQTTTLSConfiguration: Sendable, Equatable {
    /// PEM file with the certificate authorities to trust.
    public var caFile: String?
    /// Directory of trusted CA certificates prepared with `openssl rehash`.
    public var caDirectory: String?
    /// PEM client certificate, for brokers with `require_certificate true`.
    public var certificateFile: String?
    /// PEM private key of ``certificateFile`` (unencrypted).
    public var keyFile: String?
    /// Accept a broker certificate issued for another host name (`mosquitto_tls_insecure_set`).
    /// Only for testing: it allows a man-in-the-middle. `false` by default.
    public var insecureSkipHostnameCheck: Bool
    /// The TLS version to use, `"tlsv1.3"` or `"tlsv1.2"`; `nil` lets libmosquitto choose.
    public var tlsVersion: String?

    /// TLS settings; give `caFile` or `caDirectory`.
    /// - Parameters:
    ///   - caFile: PEM file of trusted CAs.
    ///   - caDirectory: directory of trusted CAs.
    ///   - certificateFile: client certificate (PEM), with `keyFile`.
    ///   - keyFile: client private key (PEM), with `certificateFile`.
    ///   - insecureSkipHostnameCheck: skip the host name check, `false` by default.
    ///   - tlsVersion: `"tlsv1.3"`, `"tlsv1.2"` or `nil` for the library's default.
    public init(
        caFile: String? = nil, caDirectory: String? = nil, certificateFile: String? = nil, keyFile: String? = nil,
        insecureSkipHostnameCheck: Bool = false, tlsVersion: String? = nil
    ) {
        self.caFile = caFile
        self.caDirectory = caDirectory
        self.certificateFile = certificateFile
        self.keyFile = keyFile
        self.insecureSkipHostnameCheck = insecureSkipHostnameCheck
        self.tlsVersion = tlsVersion
    }

    /// Checks the combinations libmosquitto would refuse with a vaguer message.
    /// - Throws: ``MQTTError`` of kind ``MQTTError/Kind/invalidConfiguration`` naming the field.
    func validate() throws(MQTTError) {
        guard caFile != nil || caDirectory != nil else {
            throw MQTTError(invalidConfiguration: "tls: give caFile or caDirectory (the CAs that signed the broker's certificate)")
        }
        guard (certificateFile == nil) == (keyFile == nil) else {
            throw MQTTError(invalidConfiguration: "tls: certificateFile and keyFile must be given together")
        }
        if let keyFile, let problem = SecretFilePermissions.problem(with: keyFile) {
            throw MQTTError(invalidConfiguration: "tls.keyFile: \(problem)")
        }
        if let tlsVersion, !["tlsv1.3", "tlsv1.2", "tlsv1.1"].contains(tlsVersion) {
            throw MQTTError(invalidConfiguration: "tls.tlsVersion: \"\(tlsVersion)\" is not tlsv1.3, tlsv1.2 or tlsv1.1")
        }
    }
}
