extension JSONValue {
    /// This value changed by `patch` as a JSON Merge Patch (RFC 7386) says: an object patch sets each of
    /// its members recursively and removes those it gives as `null`; any other patch replaces the value.
    ///
    /// Used for remote configuration: a document sent to `{base}/config/set` is merged into the ones sent
    /// before, so that `{"services":{"gyro":{"rate_hz":10}}}` changes one setting and `null` hands a
    /// setting back to the configuration file.
    public func mergePatched(with patch: JSONValue) -> JSONValue {
        guard case .object(let changes) = patch else { return patch }
        var members: [String: JSONValue] = if case .object(let current) = self { current } else { [:] }
        for (key, change) in changes {
            if change == .null {
                members[key] = nil
            } else {
                members[key] = (members[key] ?? .null).mergePatched(with: change)
            }
        }
        return .object(members)
    }

    /// The members of an object; `nil` for any other value.
    public var objectMembers: [String: JSONValue]? {
        if case .object(let members) = self { members } else { nil }
    }
}
