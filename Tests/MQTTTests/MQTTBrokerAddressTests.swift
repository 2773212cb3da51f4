import MQTT
import Testing

@Suite("MQTTBrokerAddress parsing")
struct MQTTBrokerAddressTests {
    @Test(
        "accepted forms",
        arguments: [
            ("mqtt://127.0.0.1:1884", "127.0.0.1", 1884),
            ("127.0.0.1:1885", "127.0.0.1", 1885),
            ("mqtt://broker.local", "broker.local", 1883),
            ("broker-01", "broker-01", 1883),
            ("tcp://localhost:8883", "localhost", 8883),
            ("mqtt://[::1]:1883", "::1", 1883),
            ("[::1]:2000", "::1", 2000),
            ("[::1]", "::1", 1883),
            ("  MQTT://host:1/ ", "host", 1),
            ("mqtt://h:65535", "h", 65_535),
        ])
    func accepted(input: String, host: String, port: Int) throws {
        let address = try MQTTBrokerAddress(url: input)
        #expect(address == MQTTBrokerAddress(host: host, port: port))
    }

    @Test(
        "rejected forms name what is wrong",
        arguments: [
            ("", "empty"),
            ("http://host:1883", "unsupported scheme \"http\""),
            ("mqtt://", "host is missing"),
            ("mqtt://:1883", "host is missing"),
            ("host:", "port is missing"),
            ("host:abc", "port \"abc\" is not a number"),
            ("host:0", "outside 1...65535"),
            ("host:65536", "outside 1...65535"),
            ("host:-1", "is not a number"),
            ("::1", "IPv6 address must be written in brackets"),
            ("[::1", "without a closing"),
            ("[::1]x", "after \"]\""),
            ("[host]:1883", "only for IPv6"),
            ("user:pw@host", "user names and passwords"),
            ("mqtt://host:1883/path", "path is not allowed"),
            ("ho st:1883", "characters a host name cannot have"),
        ])
    func rejected(input: String, expectedFragment: String) {
        #expect {
            _ = try MQTTBrokerAddress(url: input)
        } throws: { error in
            guard let parseError = error as? MQTTBrokerAddress.ParseError else { return false }
            return parseError.input == input && parseError.description.contains(expectedFragment)
                && parseError.description.contains("invalid broker address")
        }
    }

    @Test("description round-trips through the parser")
    func descriptionRoundTrip() throws {
        for address in [MQTTBrokerAddress(host: "::1", port: 1999), MQTTBrokerAddress(host: "10.0.0.2", port: 1883)] {
            #expect(try MQTTBrokerAddress(url: address.description) == address)
        }
        #expect(MQTTBrokerAddress(host: "::1", port: 1999).description == "mqtt://[::1]:1999")
    }
}
