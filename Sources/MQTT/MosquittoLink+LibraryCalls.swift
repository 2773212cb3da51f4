import CMosquitto
import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Entering libmosquitto safely: who may write to the socket, who may close it, when the handle may go.
extension MosquittoLink {

    /// Runs a libmosquitto call that may write to the socket from this thread: over plain TCP holding
    /// ``socketLock`` for reading, unless this is the network thread (the only one that closes it).
    func usingSocket<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        guard wakeSignal != nil, loopThread.load(ordering: .relaxed) != Self.currentThread() else { return try body() }
        return try socketLock.withReadLock(body)
    }

    /// Runs a network-thread call that can close or replace the socket: over plain TCP holding
    /// ``socketLock`` for writing, so no other thread is inside libmosquitto with the descriptor.
    func closingSocket<Result>(_ body: () -> Result) -> Result {
        guard wakeSignal != nil else { return body() }
        return socketLock.withWriteLock(body)
    }

    /// Runs `body` with the handle after checking the client is usable, counting it as a call in progress.
    func callLibrary(_ operation: @autoclosure () -> String, _ body: (OpaquePointer) -> Int32)
        throws(MQTTError) -> (code: Int32, errno: Int32)
    {
        try enterLibrary(operation()) { _ in }
        defer { leaveLibrary() }
        let code = body(handle)
        return (code, errno)
    }

    /// Refuses the call after shutdown began, otherwise runs `body` under the lock and counts the call.
    func enterLibrary<Result>(_ operation: @autoclosure () -> String, _ body: (inout State) -> Result)
        throws(MQTTError) -> Result
    {
        let result: Result? = state.withLock { state in
            guard state.lifecycle == .created || state.lifecycle == .running else { return nil }
            state.callsInProgress += 1
            return body(&state)
        }
        guard let result else { throw Self.shutDownError(operation()) }
        return result
    }

    func leaveLibrary() {
        // Plain TCP: the call wrote its packet itself unless the socket was full or the network thread
        // was inside a callback; then the network thread must write it.
        if let wakeSignal, mosquitto_want_write(handle) { wakeSignal.raise() }
        state.withLockBroadcasting { $0.callsInProgress -= 1 }
    }

    static func shutDownError(_ operation: String) -> MQTTError {
        MQTTError(code: MosquittoResult.noConnection.code, operation: operation, detail: "the client has been shut down")
    }

    static func currentThread() -> UInt {
        #if canImport(Glibc)
        UInt(pthread_self())
        #else
        UInt(bitPattern: pthread_self())
        #endif
    }

    /// SUBSCRIBE; the options go only to an MQTT 5 broker (3.1.1 has no bits for them).
    func send(_ subscription: Subscription, protocolVersion: MQTTProtocolVersion) -> MosquittoResult {
        MosquittoResult(mosquitto_subscribe_v5(
            handle, nil, subscription.filter, subscription.qos.rawValue,
            protocolVersion == .v5 ? subscription.options : 0, nil))
    }

    /// Hands `message` to libmosquitto with its MQTT 5 properties (none on a 3.1.1 connection).
    /// - Returns: libmosquitto's result code.
    /// - Parameter reusingProperties: take the property list from the cache of recurring ones (`false`
    ///   for a one-off, such as a buffered message's shortened expiry).
    func send(
        _ message: MQTTMessage, protocolVersion: MQTTProtocolVersion, messageID: inout Int32, reusingProperties: Bool = true
    ) throws(MQTTError) -> MosquittoResult {
        guard message.payload.count <= Int(Int32.max) else { return .payloadTooLarge }
        func publish(properties: OpaquePointer?) -> MosquittoResult {
            MosquittoResult(message.topic.withCString { topic in
                message.payload.withUnsafeBytes { payload in
                    mosquitto_publish_v5(
                        handle, &messageID, topic, Int32(payload.count), payload.baseAddress, message.qos.rawValue,
                        message.retain, properties)
                }
            })
        }
        guard protocolVersion == .v5 else { return publish(properties: nil) }
        guard reusingProperties else {
            var list = try MosquittoProperties.make(for: message)
            defer { mosquitto_property_free_all(&list) }
            return publish(properties: list)
        }
        return try propertyCache.withProperties(for: message, publish)
    }

    /// Hands `event` to the handler unless shutdown has begun. The lock is not held while the handler
    /// runs, so the handler may publish or subscribe.
    func deliver(_ event: MQTTClientEvent) {
        guard state.withLock({ $0.lifecycle == .running }) else { return }
        events(event)
    }

    /// The end of a shutdown, once the network thread has exited or is exiting: destroys the handle and
    /// drops the self-reference. On the shutting-down thread, or on the network thread after a handover.
    func destroy() {
        _ = state.wait(timeout: .seconds(1)) { $0.callsInProgress == 0 }
        // What the broker has not acknowledged stays in the file for the next run.
        journal?.close()
        let retained = state.withLockBroadcasting { state in
            state.lifecycle = .destroyed
            state.sessionUp = false
            state.connected = false
            state.networkThread = nil
            defer { state.retainedWhileLoopRuns = nil }
            return state.retainedWhileLoopRuns
        }
        mosquitto_destroy(handle)
        withExtendedLifetime(retained) {}  // the last strong reference may go only after destroy
    }
}
