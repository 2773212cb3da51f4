import MotionEngine

extension ManagerStorage {
    /// Starts device motion in `frame` on `source`: a frame that is not one of Apple's single frames, or not
    /// in `available`, makes the service active without data, its handler told the reason once
    /// (``CMErrorInvalidParameter``, ``CMErrorTrueNorthNotAvailable`` or ``CMErrorNotAvailable``).
    func startDeviceMotion(
        _ frame: CMAttitudeReferenceFrame, available: CMAttitudeReferenceFrame, queue: OperationQueue?,
        handler: QueuedHandler<CMDeviceMotion>?, on source: any MotionSource
    ) {
        state.withLock { $0.attitudeReferenceFrame = frame }
        let isSingleFrame = frame.rawValue != 0 && frame.rawValue & (frame.rawValue - 1) == 0
        guard isSingleFrame, available.contains(frame) else {
            let code: CMError =
                if !isSingleFrame {
                    CMErrorInvalidParameter
                } else if frame == .xTrueNorthZVertical {
                    CMErrorTrueNorthNotAvailable
                } else {
                    CMErrorNotAvailable
                }
            // Active without data: a subscription the engine never sees, carrying the one error.
            let subscription = makeSubscription(.deviceMotion(frame.engineFrame), slot: .deviceMotion, queue: queue, handler: handler)
            let previous = state.withLock { state in state.replace(.deviceMotion, with: subscription) }
            if let previous { source.unsubscribe(previous) }
            let description =
                code == CMErrorTrueNorthNotAvailable
                ? "True north is not available: the magnetic declination is unknown (set it with CMLinuxMotionDevice.useMagneticDeclination(_:) or MOTION_DECLINATION)."
                : "The attitude reference frame \(frame.rawValue) is not available on this device."
            if let queue, let handler {
                handler.enqueue(on: queue, sample: nil, error: code.nsError(description), subscription: subscription)
            }
            return
        }
        start(.deviceMotion(frame.engineFrame), slot: .deviceMotion, queue: queue, handler: handler, on: source)
    }
}
