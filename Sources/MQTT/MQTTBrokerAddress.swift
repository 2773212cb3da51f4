/// Where the broker listens: a host name or IP literal and a TCP port.
public struct MQTTBrokerAddress: Sendable, Equatable, CustomStringConvertible {
    /// The port MQTT brokers listen on without TLS.
    public static let defaultPort = 1883

    /// Host name, IPv4 literal, or IPv6 literal without brackets (for example `::1`).
    public var host: String
    /// TCP port, 1...65535.
    public var port: Int

    /// Why a broker URL could not be understood; the text names the offending part.
    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The text that was parsed.
        public let input: String
        /// What is wrong with it.
        public let reason: String
        /// `invalid broker address "…": reason`.
        public var description: String { "invalid broker address \"\(input)\": \(reason)" }
    }

    /// An address from its parts, without validation.
    /// - Parameters:
    ///   - host: host name or IP literal (IPv6 without brackets).
    ///   - port: TCP port, 1883 by default.
    public init(host: String, port: Int = MQTTBrokerAddress.defaultPort) {
        self.host = host
        self.port = port
    }

    /// Parses `mqtt://HOST:PORT`, `HOST:PORT`, `HOST`, `mqtt://[::1]:1883` or `[::1]`.
    ///
    /// The port defaults to 1883. Only the `mqtt` and `tcp` schemes are accepted (for TLS set
    /// ``MQTTClientConfiguration/tls`` and the broker's TLS port);
    /// user names, passwords and paths are rejected rather than silently ignored.
    /// - Throws: ``ParseError`` naming what is wrong.
    public init(url: String) throws(ParseError) {
        func fail(_ reason: String) -> ParseError { ParseError(input: url, reason: reason) }
        var rest = Substring(url.trimmingWhitespace())
        guard !rest.isEmpty else { throw fail("it is empty") }
        // A scheme has no colon, so its "://" is at the first colon.
        if let colon = rest.firstIndex(of: ":"), rest[colon...].hasPrefix("://") {
            let scheme = rest[..<colon].lowercased()
            guard scheme == "mqtt" || scheme == "tcp" else {
                throw fail("unsupported scheme \"\(scheme)\" (expected mqtt://)")
            }
            rest = rest[rest.index(colon, offsetBy: 3)...]
        }
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        guard !rest.contains("@") else { throw fail("user names and passwords are not accepted in the URL") }
        guard !rest.contains("/") else { throw fail("a path is not allowed after the port") }
        guard !rest.isEmpty else { throw fail("the host is missing") }

        let host: Substring
        let portText: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { throw fail("\"[\" without a closing \"]\"") }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let afterBracket = rest[rest.index(after: close)...]
            if afterBracket.isEmpty {
                portText = nil
            } else if afterBracket.hasPrefix(":") {
                portText = afterBracket.dropFirst()
            } else {
                throw fail("unexpected \"\(afterBracket)\" after \"]\" (expected :PORT)")
            }
            guard host.contains(":") else { throw fail("brackets are only for IPv6 literals") }
        } else {
            let colons = rest.filter { $0 == ":" }.count
            if colons > 1 {
                throw fail("an IPv6 address must be written in brackets, e.g. mqtt://[::1]:1883")
            } else if let colon = rest.firstIndex(of: ":") {
                host = rest[..<colon]
                portText = rest[rest.index(after: colon)...]
            } else {
                host = rest
                portText = nil
            }
        }
        guard !host.isEmpty else { throw fail("the host is missing") }
        guard host.allSatisfy({ $0.isLetter || $0.isNumber || "-._:%".contains($0) }) else {
            throw fail("the host \"\(host)\" contains characters a host name cannot have")
        }
        var port = MQTTBrokerAddress.defaultPort
        if let portText {
            guard !portText.isEmpty else { throw fail("the port is missing after \":\"") }
            guard portText.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(portText) else {
                throw fail("the port \"\(portText)\" is not a number")
            }
            guard (1...65_535).contains(value) else { throw fail("the port \(value) is outside 1...65535") }
            port = value
        }
        self.init(host: String(host), port: port)
    }

    /// `mqtt://host:port`, with brackets around an IPv6 literal.
    public var description: String {
        host.contains(":") ? "mqtt://[\(host)]:\(port)" : "mqtt://\(host):\(port)"
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces, tabs and newlines (no Foundation needed).
    fileprivate func trimmingWhitespace() -> SubSequence {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }) else { return self[endIndex...] }
        let last = lastIndex(where: { !isSpace($0) })!
        return self[first...last]
    }
}
