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
/// The buffer is address space reserved for the stream's whole input limit,
/// made usable a part at a time as bytes arrive: it never moves, so it grows
/// in place while images hold it, and the bytes are held once, never copied
/// into a larger buffer beside the one readers hold (only pages written to
/// take memory). Where the reservation is refused (a limit past 1 TiB, or
/// the system's), the buffer is heap memory that grows with `realloc` when
/// nothing else holds it, and is copied when something does.
/// A value whose end is behind the buffer's (a copy that another copy has
/// appended to) copies its bytes first, so values stay independent.
struct ArrivedBytes: @unchecked Sendable {
    /// Memory for `capacity` bytes, the first `written` of them set.
    final class Buffer: @unchecked Sendable {
        private(set) var base: UnsafeMutablePointer<UInt8>
        /// The bytes usable from `base`; changed only by the value that
        /// holds the buffer alone or has claimed its end (`written`).
        private let usable = Atomic<Int>(0)
        /// The address space reserved from `base` for the buffer to grow
        /// into without moving, or 0 for heap memory.
        let reserved: Int
        /// The end of the bytes written by the value that wrote last.
        let written = Atomic<Int>(0)

        var capacity: Int { usable.load(ordering: .relaxed) }

        /// Heap memory for `capacity` bytes.
        init(capacity: Int) {
            reserved = 0
            guard let memory = malloc(max(1, capacity)) else { Self.outOfMemory(capacity) }
            base = memory.assumingMemoryBound(to: UInt8.self)
            usable.store(capacity, ordering: .relaxed)
        }

        /// Address space for `bytes` bytes, none of it usable yet; `nil` when
        /// the system refuses it or `bytes` is past 1 TiB.
        init?(reserving bytes: Int) {
            let page = Int(getpagesize())
            guard bytes > 0, bytes <= 1 << 40 else { return nil }
            let size = (bytes + page - 1) / page * page
            #if canImport(Darwin)
            let anonymous = MAP_ANON
            #else
            let anonymous = MAP_ANONYMOUS
            #endif
            // No access yet: the reservation takes address space, not memory
            // (nor, where the system counts it, commit charge).
            guard let memory = mmap(nil, size, PROT_NONE, MAP_PRIVATE | anonymous, -1, 0),
                  memory != UnsafeMutableRawPointer(bitPattern: -1) else { return nil }
            base = memory.assumingMemoryBound(to: UInt8.self)
            reserved = size
        }

        deinit {
            if reserved > 0 { munmap(base, reserved) } else { free(base) }
        }

        /// Whether the buffer can be made to hold `needed` bytes without
        /// moving (`alone`: nothing else reads it, so heap memory may move).
        func canHold(_ needed: Int, alone: Bool) -> Bool {
            needed <= capacity || (reserved > 0 ? needed <= reserved : alone)
        }

        /// Makes at least `needed` bytes usable, `wanted` when they fit;
        /// only when ``canHold(_:alone:)`` says so.
        func grow(toHold needed: Int, wanted: Int) {
            let current = capacity
            guard needed > current else { return }
            if reserved > 0 {
                let page = Int(getpagesize())
                let target = min(reserved, (max(needed, wanted) + page - 1) / page * page)
                // `current` is a multiple of the page size: the pages past it.
                guard mprotect(base + current, target - current, PROT_READ | PROT_WRITE) == 0 else {
                    Self.outOfMemory(target)
                }
                usable.store(target, ordering: .relaxed)
            } else {
                let target = max(needed, wanted)
                guard let moved = realloc(base, max(1, target)) else { Self.outOfMemory(target) }
                base = moved.assumingMemoryBound(to: UInt8.self)
                usable.store(target, ordering: .relaxed)
            }
        }

        /// A buffer of its own for a stream of at most `limit` bytes that
        /// holds `needed` now: reserved when the system allows, else heap.
        static func make(limit: Int, holding needed: Int, wanted: Int) -> Buffer {
            let buffer = Buffer(reserving: max(limit, needed)) ?? Buffer(capacity: 0)
            buffer.grow(toHold: needed, wanted: wanted)
            return buffer
        }

        private static func outOfMemory(_ capacity: Int) -> Never {
            fatalError("out of memory for \(capacity) bytes of input")
        }
    }

    private var buffer = Buffer(capacity: 0)
    /// The bytes this value holds: the first `count` of the buffer.
    private(set) var count = 0

    /// Appends `chunk`. `limit` is the stream's input limit: the address
    /// space reserved for it, and in heap memory the most the buffer grows
    /// to (at least twice its size, until `limit` bytes suffice).
    mutating func append(_ chunk: some Collection<UInt8>, limit: Int) {
        let added = chunk.count
        guard added > 0 else { return }
        let needed = count + added
        let doubled = buffer.capacity > Int.max / 2 ? Int.max : 2 * buffer.capacity
        let wanted = needed <= limit ? min(max(needed, doubled), limit) : needed
        if count == 0, buffer.capacity == 0, buffer.reserved == 0 {
            buffer = Buffer.make(limit: limit, holding: needed, wanted: wanted)
        }
        let alone = isKnownUniquelyReferenced(&buffer)
        if alone, buffer.canHold(needed, alone: true) {
            buffer.written.store(needed, ordering: .relaxed)
        } else if !buffer.canHold(needed, alone: false)
            || !buffer.written.compareExchange(expected: count, desired: needed, ordering: .relaxed).exchanged {
            // Held elsewhere and unable to grow in place, or another value
            // has written past this one's end: a buffer of its own.
            let own = Buffer.make(limit: limit, holding: needed, wanted: wanted)
            own.base.update(from: buffer.base, count: count)
            own.written.store(needed, ordering: .relaxed)
            buffer = own
        }
        buffer.grow(toHold: needed, wanted: wanted)
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
