import Testing

@testable import MotionAgent

/// `sparkplug` in the configuration: the documented defaults, and every refusal naming its field.
@Suite struct SparkplugSettingsTests {
    @Test func theDefaultsAreTheDocumentedOnes() throws {
        let configuration = try AgentConfiguration.parse(Array(#"{"device_id": "press-7", "sparkplug": {"group_id": "plant-1"}}"#.utf8))
        let settings = try #require(configuration.sparkplug)
        #expect(settings.nativeContract && settings.storeLimit == 10_000 && settings.stateFile == nil && settings.storeFile == nil
            && settings.primaryHostID == nil)
        #expect(settings.identity(deviceID: configuration.resolvedDeviceID) == SparkplugIdentity(group: "plant-1", edgeNode: "press-7"))
        #expect(try AgentConfiguration.parse(Array("{}".utf8)).sparkplug == nil)
    }

    @Test(arguments: [
        (#"{"sparkplug": {}}"#, "sparkplug.group_id"),
        (#"{"sparkplug": {"group_id": "plant/1"}}"#, "sparkplug.group_id"),
        (#"{"sparkplug": {"group_id": "STATE"}}"#, "sparkplug.group_id"),
        (#"{"sparkplug": {"group_id": "g", "edge_node_id": "a+b"}}"#, "sparkplug.edge_node_id"),
        (##"{"sparkplug": {"group_id": "g", "primary_host_id": "#"}}"##, "sparkplug.primary_host_id"),
        (#"{"sparkplug": {"group_id": "g", "store_limit": -1}}"#, "sparkplug.store_limit"),
        (#"{"sparkplug": {"group_id": "g", "state_file": ""}}"#, "sparkplug.state_file"),
        (#"{"sparkplug": {"group_id": "g", "store_file": ""}}"#, "sparkplug.store_file"),
        // Two files the agent writes on one path would damage each other.
        (#"{"sparkplug": {"group_id": "g", "state_file": "/tmp/sp.db", "store_file": "/tmp/sp.db"}}"#, "sparkplug.store_file"),
        (#"{"sparkplug": {"group_id": "g", "store_file": "/tmp/sp.db"}, "broker": {"offline_buffer": {"path": "/tmp/sp.db"}}}"#,
         "sparkplug.store_file"),
        (#"{"sparkplug": {"group_id": "g", "client_id": ""}}"#, "sparkplug.client_id"),
        (#"{"sparkplug": {"group_id": "g", "bd_seq": 1}}"#, "sparkplug.bd_seq"),
        // The vibration service's summaries are the native contract's alone: with it off, nobody would read them.
        (#"{"sparkplug": {"group_id": "g", "native_contract": false}, "services": {"vibration": {"enabled": true}}}"#,
         "services.vibration.enabled"),
    ])
    func refusedSettingsNameTheirField(document: String, field: String) {
        do {
            _ = try AgentConfiguration.parse(Array(document.utf8))
            Issue.record("\(document) was accepted")
        } catch {
            #expect(error.fieldPath == field, "\(error)")
        }
    }
}
