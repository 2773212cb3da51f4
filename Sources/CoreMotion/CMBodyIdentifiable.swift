/// A body a device can report motion for (Apple's `CMBodyIdentifiable`, iOS 27): a protocol with no
/// requirement of its own beyond `NSObjectProtocol`, adopted by the objects that identify a body.
public protocol CMBodyIdentifiable: NSObjectProtocol {}
