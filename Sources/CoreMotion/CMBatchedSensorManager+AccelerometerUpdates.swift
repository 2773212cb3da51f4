extension CMBatchedSensorManager {
    /// The asynchronous sequence of accelerometer batches returned by
    /// ``CMBatchedSensorManager/accelerometerUpdates()``: each element is one batch, oldest sample first.
    public struct AccelerometerUpdates: AsyncSequence {
        /// One batch of accelerometer samples.
        public typealias Element = [CMAccelerometerData]
        /// The error a fault ends the sequence with (an `NSError` in ``CMErrorDomain``).
        public typealias Failure = any Error

        let stream: AsyncThrowingStream<SampleBatch<CMAccelerometerData>, any Error>
        /// Stops the updates (idempotent).
        let stopUpdates: @Sendable () -> Void

        /// Returns the iterator; iterate the sequence once. Releasing the iterator (leaving the loop) stops
        /// the updates.
        public func makeAsyncIterator() -> Iterator {
            Iterator(base: stream.makeAsyncIterator(), lease: UpdateLease(stopUpdates))
        }

        /// Produces the batches of ``CMBatchedSensorManager/AccelerometerUpdates``.
        public struct Iterator: AsyncIteratorProtocol {
            var base: AsyncThrowingStream<SampleBatch<CMAccelerometerData>, any Error>.Iterator
            /// Stops the updates when the last copy of the iterator is gone.
            let lease: UpdateLease

            /// The next batch; nil once the updates stopped.
            /// - Throws: the `NSError` in ``CMErrorDomain`` of a device fault.
            public mutating func next() async throws -> [CMAccelerometerData]? {
                try await base.next()?.samples
            }

            /// The next batch, on the caller's actor; nil once the updates stopped.
            /// - Throws: the `NSError` in ``CMErrorDomain`` of a device fault.
            public mutating func next(isolation actor: isolated (any Actor)?) async throws -> [CMAccelerometerData]? {
                try await base.next(isolation: actor)?.samples
            }
        }
    }
}
