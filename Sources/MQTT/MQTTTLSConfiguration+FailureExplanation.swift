// Explaining a failed TLS connection: OpenSSL's reasons reach only libmosquitto's log.
extension MQTTTLSConfiguration {
    /// What to add to a lost or failed connection's reason over TLS: OpenSSL's explanation, which appears
    /// only in libmosquitto's log (also when the code just says "lost"), and, for a connection lost before
    /// the broker answered while no client certificate is configured, that the broker may want one (it
    /// ends such a handshake with an alert, or the socket closes before the alert is read).
    /// - Parameters:
    ///   - libraryError: the last error line libmosquitto logged for this attempt, if any.
    ///   - beforeConnack: the connection ended before the broker's CONNACK.
    /// - Returns: text to append to the reason, starting with a space or `;` (empty when there is none).
    func failureExplanation(libraryError: String?, beforeConnack: Bool) -> String {
        var text = libraryError.map { " (\($0))" } ?? ""
        guard certificateFile == nil, beforeConnack else { return text }
        if libraryError?.contains("certificate required") == true {
            text += "; the broker requires a client certificate, and none is configured"
        } else if libraryError.map(Self.namesClosedSocket) ?? true {
            text += "; if the broker requires a client certificate: none is configured"
        }
        return text
    }

    /// Whether OpenSSL's error only says that the peer closed the socket (reset, or end of file in the
    /// handshake), which is how a broker's refusal looks when its alert was not read first (OpenSSL 3.5
    /// under load, measured on Debian 13).
    static func namesClosedSocket(_ libraryError: String) -> Bool {
        libraryError.contains("reset by peer") || libraryError.contains("unexpected eof")
    }
}
