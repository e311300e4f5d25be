#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// The bytes of a stream received so far, as a value: one buffer that grows
/// at its end, which the images made from the stream share.
///
/// Bytes once written never change, and an image reads only the bytes that
/// had arrived when it was made. So an append writes past every reader in
/// place: appending costs the bytes appended, whatever images are held.
/// A value whose end is behind the buffer's (a copy that another copy has
/// appended to) copies its bytes first, so values stay independent. When
/// nothing else holds the buffer, it grows with `realloc`, which for large
/// buffers moves pages instead of copying them: the bytes are held once,
/// not twice, while the buffer grows.
struct ArrivedBytes: @unchecked Sendable {
    /// Memory for `capacity` bytes, the first `written` of them set.
    final class Buffer: @unchecked Sendable {
        private(set) var base: UnsafeMutablePointer<UInt8>
        private(set) var capacity: Int
        /// The end of the bytes written by the value that wrote last.
        let written = Atomic<Int>(0)

        init(capacity: Int) {
            self.capacity = capacity
            base = Self.allocate(capacity)
        }

        deinit { free(base) }

        /// Grows the memory to `capacity` bytes, keeping its contents; only
        /// while nothing else reads it.
        func grow(to capacity: Int) {
            guard let moved = realloc(base, max(1, capacity)) else { Self.outOfMemory(capacity) }
            base = moved.assumingMemoryBound(to: UInt8.self)
            self.capacity = capacity
        }

        private static func allocate(_ capacity: Int) -> UnsafeMutablePointer<UInt8> {
            guard let memory = malloc(max(1, capacity)) else { outOfMemory(capacity) }
            return memory.assumingMemoryBound(to: UInt8.self)
        }

        private static func outOfMemory(_ capacity: Int) -> Never {
            fatalError("out of memory for \(capacity) bytes of input")
        }
    }

    private var buffer = Buffer(capacity: 0)
    /// The bytes this value holds: the first `count` of the buffer.
    private(set) var count = 0

    /// Appends `chunk`, growing the buffer to at least twice its size but,
    /// once `limit` bytes suffice, to no more than `limit` (a stream's input
    /// limit: the buffer never reserves more than the stream may hold).
    mutating func append(_ chunk: some Collection<UInt8>, limit: Int) {
        let added = chunk.count
        guard added > 0 else { return }
        let needed = count + added
        let doubled = buffer.capacity > Int.max / 2 ? Int.max : 2 * buffer.capacity
        let capacity = needed <= limit ? min(max(needed, doubled), limit) : needed
        if isKnownUniquelyReferenced(&buffer) {
            if needed > buffer.capacity { buffer.grow(to: capacity) }
            buffer.written.store(needed, ordering: .relaxed)
        } else if needed > buffer.capacity
            || !buffer.written.compareExchange(expected: count, desired: needed, ordering: .relaxed).exchanged {
            // Held elsewhere and too small, or another value has written
            // past this one's end: a buffer of its own.
            let own = Buffer(capacity: capacity)
            own.base.update(from: buffer.base, count: count)
            own.written.store(needed, ordering: .relaxed)
            buffer = own
        }
        let target = UnsafeMutableBufferPointer(start: buffer.base + count, count: added)
        if chunk.withContiguousStorageIfAvailable({ _ = target.update(fromContentsOf: $0) }) == nil {
            _ = target.update(fromContentsOf: chunk)
        }
        count = needed
    }

    /// Runs `body` on the bytes.
    func withUnsafeBufferPointer<Result, Failure: Error>(
        _ body: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        defer { withExtendedLifetime(buffer) {} }
        return try body(UnsafeBufferPointer(start: buffer.base, count: count))
    }

    /// The first `length` bytes (or all, when fewer), copied.
    func prefix(_ length: Int) -> [UInt8] {
        withUnsafeBufferPointer { Array($0.prefix(length)) }
    }

    /// The bytes, copied.
    var array: [UInt8] { prefix(count) }
}
