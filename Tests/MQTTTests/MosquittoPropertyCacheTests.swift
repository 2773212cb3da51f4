import Testing

@testable import MQTT

/// The connection's kept MQTT 5 property lists: one list per kind of recurring message, a bounded number
/// of kinds, and none kept for answers (their response topic and correlation data differ every time).
@Suite struct MosquittoPropertyCacheTests {
    private func list(_ cache: MosquittoPropertyCache, _ message: MQTTMessage) throws -> OpaquePointer? {
        try cache.withProperties(for: message) { $0 }
    }

    private func data(expiry: UInt32?, contentType: String? = "application/json") -> MQTTMessage {
        MQTTMessage(topic: "t", string: "x", contentType: contentType, messageExpiryInterval: expiry)
    }

    @Test func theSameFieldsShareOneListAndOtherFieldsGetTheirOwn() throws {
        let cache = MosquittoPropertyCache()
        let first = try #require(try list(cache, data(expiry: 60)))
        #expect(try list(cache, data(expiry: 60)) == first)
        #expect(try list(cache, data(expiry: 61)) != first)
        #expect(try list(cache, data(expiry: 60, contentType: "text/plain")) != first)
        #expect(try list(cache, data(expiry: nil, contentType: nil)) == nil)  // nothing to send
    }

    @Test func atMostCapacityKindsAreKept() throws {
        let cache = MosquittoPropertyCache()
        let kept = try (0..<MosquittoPropertyCache.capacity).map { try list(cache, data(expiry: UInt32($0))) }
        #expect(Set(kept.compactMap { $0 }).count == MosquittoPropertyCache.capacity)
        for (index, pointer) in kept.enumerated() {
            #expect(try list(cache, data(expiry: UInt32(index))) == pointer)
        }
        // One more kind still gets its properties (a list built for the call), and the kept ones stay.
        #expect(try list(cache, data(expiry: 999)) != nil)
        #expect(try list(cache, data(expiry: 0)) == kept[0])
    }

    @Test func answersAreNotKept() throws {
        let cache = MosquittoPropertyCache()
        let answer = MQTTMessage(
            topic: "t", string: "x", contentType: "application/json", responseTopic: "r/1", correlationData: [1])
        // The list handed to the call holds the answer's own fields (a kept one would be shared).
        let kept = try list(cache, data(expiry: nil))
        let ownList = try list(cache, answer)
        #expect(ownList != nil && ownList != kept)
    }
}
