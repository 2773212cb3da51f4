import Foundation
@testable import MQTT
import Testing

/// ``MQTTPassword``: never printed, loaded from a file or an environment variable with clear errors.
@Suite("MQTTPassword")
struct MQTTPasswordTests {
    private let secret = "s3cr3t-Pa55"

    @Test("no way of printing a password or a configuration shows the secret")
    func neverPrinted() {
        let password = MQTTPassword(secret)
        var dumped = ""
        dump(password, to: &dumped)
        let configuration = MQTTClientConfiguration(
            broker: MQTTBrokerAddress(host: "127.0.0.1"), clientID: "c", username: "u", password: password)
        var dumpedConfiguration = ""
        dump(configuration, to: &dumpedConfiguration)
        for text in [
            "\(password)", String(describing: password), String(reflecting: password), dumped,
            String(describing: configuration), String(reflecting: configuration), dumpedConfiguration,
        ] {
            #expect(!text.contains(secret), "\(text)")
        }
        #expect("\(password)" == "<redacted>")
    }

    @Test("a password file's first line is the password; \\n or \\r\\n and later lines are not part of it")
    func loadsFromFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pw-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for (name, content) in [("lf", "\(secret)\n"), ("crlf", "\(secret)\r\nsecond line\n"), ("bare", secret)] {
            let path = "\(directory)/\(name)"
            try content.write(toFile: path, atomically: true, encoding: .utf8)
            chmod(path, 0o640)  // owner and group only
            let password = try MQTTPassword(contentsOfFile: path)
            #expect(password.description == "<redacted>")
            #expect(password.secret == secret, "\(name)")
        }
        // A secret every user of the machine can read is refused, with the command that fixes it.
        try "\(secret)\n".write(toFile: "\(directory)/shared", atomically: true, encoding: .utf8)
        chmod("\(directory)/shared", 0o644)
        #expect { try MQTTPassword(contentsOfFile: "\(directory)/shared") } throws: { error in
            "\(error)".contains("readable by every user (mode 0644): chmod o-rwx \(directory)/shared")
                && !"\(error)".contains(secret)
        }
        // A first line longer than MQTT allows (here a file without any line break) is not read without end.
        try String(repeating: "x", count: MQTTPassword.maximumLength + 10).write(toFile: "\(directory)/long", atomically: true, encoding: .utf8)
        chmod("\(directory)/long", 0o600)
        #expect { try MQTTPassword(contentsOfFile: "\(directory)/long") } throws: { error in
            "\(error)".contains("longer than 65535 bytes")
        }
        try "\n".write(toFile: "\(directory)/empty", atomically: true, encoding: .utf8)
        #expect { try MQTTPassword(contentsOfFile: "\(directory)/empty") } throws: { error in
            "\(error)".contains("\(directory)/empty") && "\(error)".contains("empty")
        }
        #expect { try MQTTPassword(contentsOfFile: "\(directory)/missing") } throws: { error in
            "\(error)".contains("\(directory)/missing") && "\(error)".contains("No such file")
        }
    }

    @Test("an environment variable gives the password; unset or empty ones are named in the error")
    func loadsFromEnvironment() throws {
        let name = "MOTIONBRIDGE_TEST_PW_\(getpid())"
        setenv(name, "\(secret)\n", 1)
        defer { unsetenv(name) }
        #expect(try MQTTPassword(environmentVariable: name).secret == secret)
        #expect { try MQTTPassword(environmentVariable: name + "_UNSET") } throws: { error in
            "\(error)" == "environment variable \(name)_UNSET (MQTT password) is not set"
        }
        setenv(name, "", 1)
        #expect { try MQTTPassword(environmentVariable: name) } throws: { error in "\(error)".contains("\(name) (MQTT password) is empty") }
    }
}
