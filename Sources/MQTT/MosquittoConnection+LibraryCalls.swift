import CMosquitto
import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension MosquittoConnection {
    // MARK: Calling into libmosquitto safely

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
}
