import Foundation
import MotionHAL
import Testing

@testable import MotionAgent

/// `senml` in the configuration and the base name made from the board's hardware address (RFC 9039's
/// `urn:dev:mac:`), and the formats each service may take.
@Suite struct SenMLSettingsTests {
    @Test func theBaseNameIsTheBoardsAddressAndTheDeviceUnlessOneIsGiven() {
        let address: [UInt8] = [0x00, 0x24, 0xBE, 0x80, 0x4F, 0xF1]
        #expect(NetworkHardwareAddress.eui64Text(address) == "0024beffff804ff1", "RFC 9039's example")
        #expect(SenMLSettings().resolvedBaseName(deviceID: "pump-7", hardwareAddress: address) == "urn:dev:mac:0024beffff804ff1_pump-7:")
        #expect(SenMLSettings(baseName: "urn:dev:ow:10e2073a0108006:").resolvedBaseName(deviceID: "x", hardwareAddress: address)
            == "urn:dev:ow:10e2073a0108006:")
        #expect(SenMLSettings().resolvedBaseName(deviceID: "pump-7", hardwareAddress: nil) == nil)
        #expect(NetworkHardwareAddress.parse("02:42:ac:11:00:02\n") == [0x02, 0x42, 0xAC, 0x11, 0x00, 0x02])
        #expect(NetworkHardwareAddress.parse("02:42:ac:11:00") == nil && NetworkHardwareAddress.parse("zz:42:ac:11:00:02") == nil)
    }

    @Test func thePrimaryAddressIsTheFirstPhysicalInterfacesOwn() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("net-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        // A Pi Zero in USB gadget mode: usb0 sorts first with a random, locally administered address.
        let interfaces: [(String, String, String?, Bool)] = [
            ("lo", "00:00:00:00:00:00", "0", false), ("br0", "02:00:00:00:00:01", "3", false),
            ("eth0", "dc:a6:32:01:02:03", "0", true), ("usb0", "3e:1a:9c:44:55:66", "1", true), ("veth1", "b8:27:eb:0a:0b:0c", nil, false),
            ("wlan0", "dc:a6:32:0a:0b:0c", "0", true),
        ]
        for (name, address, assignment, physical) in interfaces {
            try FileManager.default.createDirectory(atPath: "\(root)/\(name)", withIntermediateDirectories: true)
            try "\(address)\n".write(toFile: "\(root)/\(name)/address", atomically: false, encoding: .utf8)
            if let assignment { try "\(assignment)\n".write(toFile: "\(root)/\(name)/addr_assign_type", atomically: false, encoding: .utf8) }
            if physical { try FileManager.default.createDirectory(atPath: "\(root)/\(name)/device", withIntermediateDirectories: true) }
        }
        #expect(NetworkHardwareAddress.primary(sysfsRoot: root) == [0xDC, 0xA6, 0x32, 0x01, 0x02, 0x03])
        try FileManager.default.removeItem(atPath: "\(root)/eth0")
        try FileManager.default.removeItem(atPath: "\(root)/wlan0")
        #expect(NetworkHardwareAddress.primary(sysfsRoot: root) == [0xB8, 0x27, 0xEB, 0x0A, 0x0B, 0x0C], "no NIC's own: a universal one")
        try FileManager.default.removeItem(atPath: "\(root)/veth1")
        #expect(NetworkHardwareAddress.primary(sysfsRoot: root) == nil, "random and local addresses do not name the board")
        #expect(NetworkHardwareAddress.primary(sysfsRoot: root + "/none") == nil)
    }

    @Test(arguments: [
        (#"{"senml": {"base_name": "urn dev"}}"#, "senml.base_name"),
        (#"{"senml": {"base_name": ":urn"}}"#, "senml.base_name"),
        (#"{"senml": {"prefix": "x"}}"#, "senml.prefix"),
        (#"{"services": {"vibration": {"format": "senml+json"}}}"#, "services.vibration.format"),
        (#"{"detectors": {"format": "senml+cbor"}}"#, "detectors.format"),
        (#"{"services": {"gyro": {"format": "senml"}}}"#, "services.gyro.format"),
    ])
    func refusedSettingsNameTheirField(document: String, field: String) {
        #expect(throws: ConfigurationError.self) { _ = try AgentConfiguration.parse(Array(document.utf8)) }
        do {
            _ = try AgentConfiguration.parse(Array(document.utf8))
        } catch {
            #expect(error.fieldPath == field, "\(error)")
        }
    }

    @Test func everySampleServiceTakesSenML() throws {
        let configuration = try AgentConfiguration.parse(Array(#"""
            {"senml": {"base_name": "urn:dev:mac:0024beffff804ff1_t:"},
             "services": {"gyro": {"format": "senml+cbor"}, "steps": {"format": "senml+json"}, "altitude": {"format": "senml+json"}}}
            """#.utf8))
        #expect(configuration.settings(for: .gyro).format == .senmlCBOR && configuration.settings(for: .steps).format == .senmlJSON)
        #expect(configuration.senmlBaseName == "urn:dev:mac:0024beffff804ff1_t:")
    }
}
