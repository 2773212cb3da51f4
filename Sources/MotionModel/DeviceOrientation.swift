/// Which way a device faces, as Apple's `UIDeviceOrientation` names it (device axes as Apple's: x right,
/// y top, z out of the screen). The raw values are the names the contract writes
/// (`{base}/state/orientation`), and the case order is part of CoreMotion's archive format: append, never
/// reorder.
public enum DeviceOrientation: String, Sendable, Hashable, CaseIterable {
    /// Screen up (gravity along −z).
    case faceUp = "face_up"
    /// Screen down (gravity along +z).
    case faceDown = "face_down"
    /// Top edge up (gravity along −y).
    case portrait
    /// Top edge down (gravity along +y).
    case portraitUpsideDown = "portrait_upside_down"
    /// Top edge to the left, right edge up (gravity along −x): Apple's landscape left.
    case landscapeLeft = "landscape_left"
    /// Top edge to the right, left edge up (gravity along +x): Apple's landscape right.
    case landscapeRight = "landscape_right"
}
