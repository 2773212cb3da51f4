extension CMBatchedSensorManager {
    /// The asynchronous sequence of device-motion batches returned by
    /// ``CMBatchedSensorManager/deviceMotionUpdates()``: each element is one batch, oldest sample first.
    public struct DeviceMotionUpdates: AsyncSequence {
        /// One batch of device-motion samples.
        public typealias Element = [CMDeviceMotion]
        /// The error a fault ends the sequence with (an `NSError` in ``CMErrorDomain``).
        public typealias Failure = any Error

        let stream: AsyncThrowingStream<SampleBatch<CMDeviceMotion>, any Error>
        /// Stops the updates (idempotent).
        let stopUpdates: @Sendable () -> Void

        /// Returns the iterator; iterate the sequence once. Releasing the iterator (leaving the loop) stops
        /// the updates.
        public func makeAsyncIterator() -> Iterator {
            Iterator(base: stream.makeAsyncIterator(), lease: UpdateLease(stopUpdates))
        }

        /// Produces the batches of ``CMBatchedSensorManager/DeviceMotionUpdates``.
        public struct Iterator: AsyncIteratorProtocol {
            var base: AsyncThrowingStream<SampleBatch<CMDeviceMotion>, any Error>.Iterator
            /// Stops the updates when the last copy of the iterator is gone.
            let lease: UpdateLease

            /// The next batch; nil once the updates stopped.
            /// - Throws: the `NSError` in ``CMErrorDomain`` of a device fault.
            public mutating func next() async throws -> [CMDeviceMotion]? {
                try await base.next()?.samples
            }

            /// The next batch, on the caller's actor; nil once the updates stopped.
            /// - Throws: the `NSError` in ``CMErrorDomain`` of a device fault.
            public mutating func next(isolation actor: isolated (any Actor)?) async throws -> [CMDeviceMotion]? {
                try await base.next(isolation: actor)?.samples
            }
        }
    }
}
