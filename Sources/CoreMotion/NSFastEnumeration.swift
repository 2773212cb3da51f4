// Foundation's fast-enumeration protocol, which Apple's CoreMotion uses for `CMSensorDataList` and which
// swift-corelibs-foundation does not have. Apps make the list a `Sequence` themselves:
//
//     extension CMSensorDataList: Sequence {
//         public func makeIterator() -> NSFastEnumerationIterator { NSFastEnumerationIterator(self) }
//     }
//
// so the protocol, its state and the iterator are declared here with Apple's names and labels. The one
// difference is the pointer type: Objective-C's `AutoreleasingUnsafeMutablePointer` does not exist on
// Linux, so the object buffers are `UnsafeMutablePointer<AnyObject?>`. Should swift-corelibs-foundation
// gain these types, these declarations must go (two modules declaring one name make it ambiguous).

/// The state of one fast enumeration (Apple's `NSFastEnumerationState`): where the enumerated object
/// keeps its place between calls of ``NSFastEnumeration/countByEnumerating(with:objects:count:)``.
public struct NSFastEnumerationState {
    /// The enumerated object's own progress; 0 at the start of an enumeration.
    public var state: UInt
    /// The objects of the current call: the caller's buffer or the enumerated object's own storage.
    public var itemsPtr: UnsafeMutablePointer<AnyObject?>?
    /// A value that changes when the enumerated object is mutated; the enumerator stops with a fatal
    /// error when it changes during an enumeration, as Apple's raises an exception.
    public var mutationsPtr: UnsafeMutablePointer<UInt>?
    /// Five words the enumerated object may use as it likes.
    public var extra: (UInt, UInt, UInt, UInt, UInt)

    /// A state at the start of an enumeration: everything zero.
    public init() {
        self.init(state: 0, itemsPtr: nil, mutationsPtr: nil, extra: (0, 0, 0, 0, 0))
    }

    /// A state with the given fields.
    public init(
        state: UInt, itemsPtr: UnsafeMutablePointer<AnyObject?>?, mutationsPtr: UnsafeMutablePointer<UInt>?,
        extra: (UInt, UInt, UInt, UInt, UInt)
    ) {
        self.state = state
        self.itemsPtr = itemsPtr
        self.mutationsPtr = mutationsPtr
        self.extra = extra
    }
}

/// An object whose elements can be enumerated a buffer at a time (Apple's `NSFastEnumeration`).
public protocol NSFastEnumeration {
    /// Hands out the next objects of the enumeration.
    /// - Parameters:
    ///   - state: the enumeration's state (all zero at its start); the implementation sets `itemsPtr` to
    ///     the objects it hands out (in `buffer` or in storage of its own), and `mutationsPtr` to a value
    ///     that must not change while the enumeration runs.
    ///   - buffer: room for `len` objects the implementation may fill.
    ///   - len: the room in `buffer`.
    /// - Returns: how many objects `state.itemsPtr` holds; 0 when the enumeration is over.
    func countByEnumerating(
        with state: UnsafeMutablePointer<NSFastEnumerationState>, objects buffer: UnsafeMutablePointer<AnyObject?>, count len: Int
    ) -> Int
}

/// An iterator over any ``NSFastEnumeration`` (Apple's `NSFastEnumerationIterator`): the elements as
/// `Any`, fetched sixteen at a time. Use it from one thread.
public struct NSFastEnumerationIterator: IteratorProtocol {
    private let enumerable: any NSFastEnumeration
    private let storage = Storage()
    private var index = 0
    private var count = 0
    private var mutations: UInt?
    private var finished = false

    /// An iterator at the start of `enumerable`.
    public init(_ enumerable: any NSFastEnumeration) {
        self.enumerable = enumerable
    }

    /// The next element, or nil at the end.
    public mutating func next() -> Any? {
        if index == count {
            guard !finished else { return nil }
            count = enumerable.countByEnumerating(with: storage.state, objects: storage.buffer, count: Storage.capacity)
            index = 0
            guard count > 0 else {
                finished = true
                return nil
            }
        }
        checkMutations()
        guard let object = storage.state.pointee.itemsPtr?[index] else {
            preconditionFailure("a fast enumeration handed out no object")
        }
        index += 1
        return object
    }

    private mutating func checkMutations() {
        guard let pointer = storage.state.pointee.mutationsPtr else { return }
        if let mutations {
            precondition(pointer.pointee == mutations, "the collection was mutated while being enumerated")
        } else {
            mutations = pointer.pointee
        }
    }

    /// The state and the object buffer, owned by the iterator and freed with it.
    private final class Storage {
        static let capacity = 16
        let state = UnsafeMutablePointer<NSFastEnumerationState>.allocate(capacity: 1)
        let buffer = UnsafeMutablePointer<AnyObject?>.allocate(capacity: capacity)

        init() {
            state.initialize(to: NSFastEnumerationState())
            buffer.initialize(repeating: nil, count: Self.capacity)
        }

        deinit {
            state.deinitialize(count: 1)
            state.deallocate()
            buffer.deinitialize(count: Self.capacity)
            buffer.deallocate()
        }
    }
}
