#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes of a JSON text being written (``JSONWriter``'s storage): a zero-filled array written in
/// place up to ``count``, which becomes the payload itself when the text is finished.
///
/// An `Array.append` checks that the array is uniquely referenced and has room, and a field of a sample
/// payload was seven of them (comma, quote, key, quote, colon, the number's digits through a stream):
/// a quarter of the encoder's time. Here a field reserves its largest possible size once and writes
/// through a pointer; the array's `count` is set once, when the text is finished.
///
/// Value semantics; not for concurrent use (each writer has its own).
struct JSONOutputBuffer {
    /// Written bytes, then zeros to the end of the array.
    private var storage: [UInt8]
    /// How many bytes of `storage` are written.
    private(set) var count: Int

    /// An empty buffer with room for `capacity` bytes before it grows.
    init(capacity: Int) {
        storage = [UInt8](repeating: 0, count: max(capacity, 16))
        count = 0
    }

    /// A buffer without storage (what a nested writer swaps in and out: no allocation).
    static var empty: JSONOutputBuffer { JSONOutputBuffer() }

    private init() {
        storage = []
        count = 0
    }

    /// Runs `body` with room for `maximum` bytes after the written ones; `body` writes at most that many,
    /// from the pointer it is given, and returns how many it wrote.
    @inline(__always)
    mutating func write(atMost maximum: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        if storage.count - count < maximum { grow(toFit: maximum) }
        let start = count
        let written = storage.withUnsafeMutableBufferPointer { body($0.baseAddress! + start) }
        precondition(written >= 0 && written <= maximum, "JSONOutputBuffer: wrote \(written) bytes of at most \(maximum)")
        count = start + written
    }

    /// Appends one byte.
    @inline(__always)
    mutating func append(_ byte: UInt8) {
        write(atMost: 1) { $0.pointee = byte; return 1 }
    }

    /// Appends the UTF-8 bytes of a literal.
    @inline(__always)
    mutating func append(_ literal: StaticString) {
        let length = literal.utf8CodeUnitCount
        write(atMost: length) { JSONOutputBuffer.copy(literal, to: $0) }
    }

    /// Copies a literal's UTF-8 bytes to `destination`; returns how many.
    @inline(__always)
    static func copy(_ literal: StaticString, to destination: UnsafeMutablePointer<UInt8>) -> Int {
        let length = literal.utf8CodeUnitCount
        memcpy(destination, literal.utf8Start, length)
        return length
    }

    /// Copies `bytes` to `destination`; returns how many.
    @inline(__always)
    static func copy(_ bytes: UnsafeBufferPointer<UInt8>, to destination: UnsafeMutablePointer<UInt8>) -> Int {
        if let source = bytes.baseAddress { memcpy(destination, source, bytes.count) }
        return bytes.count
    }

    /// The written bytes as an array: the storage itself, cut to ``count`` (no copy).
    consuming func finished() -> [UInt8] {
        storage.removeLast(storage.count - count)
        return storage
    }

    /// Makes room for `maximum` more bytes: at least doubles the array, so appends stay amortized O(1).
    private mutating func grow(toFit maximum: Int) {
        let added = max(storage.count, count + maximum - storage.count)
        storage.append(contentsOf: repeatElement(0, count: added))
    }
}
