import MotionContract
import MotionFleet
import Testing

/// `motionctl config set`'s KEY=VALUE arguments as a document, and `config get`'s table.
@Suite struct ConfigurationPatchTests {
    @Test func assignmentsBecomeOneNestedDocument() throws {
        let document = try ConfigurationPatch.document(from: [
            "services.gyro.rate_hz=10", "services.gyro.mode=mean", "services.magnetometer.enabled=false",
            "mount_matrix=0, 1, 0; -1, 0, 0; 0, 0, 1", "services.accelerometer=null", #"services.device-motion.frame="xArbitraryZVertical""#,
        ])
        #expect(document == [
            "services": .object([
                "gyro": .object(["rate_hz": .integer(10), "mode": .string("mean")]),
                "magnetometer": .object(["enabled": .bool(false)]),
                "accelerometer": .null,
                "device-motion": .object(["frame": .string("xArbitraryZVertical")]),
            ]),
            "mount_matrix": .string("0, 1, 0; -1, 0, 0; 0, 0, 1"),
        ])
    }

    @Test(arguments: ["services.gyro.rate_hz", "services..gyro=1", "=1"])
    func aMalformedAssignmentIsRefused(argument: String) {
        #expect(throws: ConfigurationPatchError.self) { try ConfigurationPatch.document(from: [argument]) }
    }

    /// Issue 29, F14: `health_interval=2 health_interval.x=1` was refused as "given twice".
    @Test func aKeyGivenTwiceOrInsideAValueIsRefusedSayingWhich() {
        for (arguments, reason) in [
            (["health_interval=1", "health_interval=2"], "health_interval=2: health_interval is given twice"),
            (["services.gyro=null", "services.gyro.qos=1"], "services.gyro.qos=1: services.gyro is given a value, which cannot hold services.gyro.qos"),
            (["health_interval=2", "health_interval.x=1"], "health_interval.x=1: health_interval is given a value, which cannot hold health_interval.x"),
            (["services.gyro.qos=1", "services.gyro=null"], "services.gyro=null: services.gyro already has keys inside it (services.gyro.…): give the value or its keys, not both"),
        ] {
            #expect { try ConfigurationPatch.document(from: arguments) } throws: { ($0 as? ConfigurationPatchError)?.description == reason }
        }
    }

    @Test func theTableShowsEverySettingWithItsSource() {
        let report = ConfigurationReport(
            version: 2, hash: String(repeating: "0", count: 64),
            settings: [
                "health_interval": .real(10),
                "services": .object([
                    "gyro": .object(["interval": .real(0.1), "enabled": .bool(true)]),
                    "accelerometer": .object(["interval": .real(0.02)]),
                ]),
            ],
            sources: ["services.gyro": .remote, "services.accelerometer": .file, "health_interval": .file], ts: 0)
        let lines = ConfigurationTable.render(report, deviceID: "board-7").split(separator: "\n").map(String.init)
        #expect(lines[0] == "device board-7  version 2  hash 000000000000  since 1970-01-01T00:00:00Z")
        #expect(lines[1].hasPrefix("SETTING"))
        let rows = lines.dropFirst(2).map { $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init) }
        #expect(rows == [
            ["services.accelerometer.interval", "0.02", "file"], ["services.gyro.enabled", "true", "remote"],
            ["services.gyro.interval", "0.1", "remote"], ["health_interval", "10", "file"],
        ])
    }
}
