/// The error domain of every `NSError` Core Motion reports.
public let CMErrorDomain: String = "CMErrorDomain"

/// A Core Motion error code, the `code` of an `NSError` in ``CMErrorDomain``.
///
/// As in Apple's Swift interface this is a struct over the C enum's `UInt32` value with the codes as global
/// constants (``CMErrorTrueNorthNotAvailable`` …); compare `Int(CMErrorTrueNorthNotAvailable.rawValue)`
/// with `(error as NSError).code`.
public struct CMError: RawRepresentable, Equatable, Hashable, Sendable {
    /// The numeric code.
    public var rawValue: UInt32

    /// Creates a code from its numeric value.
    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// Creates a code from its numeric value (unlabelled form).
    public init(_ rawValue: UInt32) {
        self.rawValue = rawValue
    }
}

/// No error (code 100).
public let CMErrorNULL = CMError(100)
/// The device must move for a sampling of motion data to occur (101).
public let CMErrorDeviceRequiresMovement = CMError(101)
/// True north isn't available on this device (102); usually the location (here: the magnetic declination)
/// isn't available.
public let CMErrorTrueNorthNotAvailable = CMError(102)
/// An unknown error (103); on Linux, a device read failure.
public let CMErrorUnknown = CMError(103)
/// Motion activity support isn't available on the current device (104).
public let CMErrorMotionActivityNotAvailable = CMError(104)
/// The app isn't currently authorized to use motion activity support (105).
public let CMErrorMotionActivityNotAuthorized = CMError(105)
/// The app is missing an entitlement for the requested activity (106).
public let CMErrorMotionActivityNotEntitled = CMError(106)
/// The specified parameter is invalid (107).
public let CMErrorInvalidParameter = CMError(107)
/// The specified action is invalid (108).
public let CMErrorInvalidAction = CMError(108)
/// The requested service isn't available on this device (109).
public let CMErrorNotAvailable = CMError(109)
/// The app is missing a required entitlement (110).
public let CMErrorNotEntitled = CMError(110)
/// The app isn't currently authorized to use the requested service (111).
public let CMErrorNotAuthorized = CMError(111)
/// The data is nil (112).
public let CMErrorNilData = CMError(112)
/// The size is invalid (113).
public let CMErrorSize = CMError(113)

extension CMError {
    /// An `NSError` in ``CMErrorDomain`` with this code and `description` as its localized description.
    func nsError(_ description: String) -> NSError {
        NSError(
            domain: CMErrorDomain, code: Int(rawValue),
            userInfo: [NSLocalizedDescriptionKey: description])
    }
}
