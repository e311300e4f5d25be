import EngineSupport

/// A frame's palette indices as runs of one value and stretches of literal
/// values: how the index tier keeps frames that are mostly one index (the
/// transparent index around what changed, a flat background), often a
/// hundredth of their size, so that a long animation's indices fit where
/// its raw indices would not.
///
/// Each token is one byte:
/// - `0x00…0x7F`: `t + 1` literal values follow (1 to 128);
/// - `0x80…0xFE`: a run of `t − 0x80 + 3` copies (3 to 129) of the value
///   that follows;
/// - `0xFF`: a run whose length follows as four bytes, least significant
///   first, then its value.
enum IndexRuns {
    /// The longest run a one-byte token holds.
    static let shortRunLimit = 129

    /// The encoding is kept only when it takes at most this fraction of the
    /// indices: then its runs are long, and drawing from them costs about
    /// what drawing the indices does (short runs and stretches, a token
    /// every few pixels, would make every loop slower to save memory).
    static let keptFraction = 8

    /// `indices` encoded, or `nil` when the encoding would take more than
    /// an eighth of their bytes (``keptFraction``: then they are kept as
    /// they are).
    static func encode(_ indices: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        let limit = indices.count / keptFraction
        guard limit > 0 else { return nil }
        var encoded: [UInt8] = []
        encoded.reserveCapacity(min(limit, 4096))
        guard write(indices, into: &encoded, limit: limit) else { return nil }
        // Exactly its size: the reserve above may be far larger.
        return [UInt8](uninitializedCapacity: encoded.count) { buffer, initialized in
            initialized = buffer.initialize(fromContentsOf: encoded)
        }
    }

    /// The bytes `indices` encoded take, whatever their share of them:
    /// how well a frame keeps as runs, counted without building them.
    static func encodedCount(_ indices: UnsafeBufferPointer<UInt8>) -> Int {
        var counter = Counter()
        _ = write(indices, into: &counter, limit: .max)
        return counter.count
    }

    /// Where ``write(_:into:limit:)`` puts the encoding: an array of its
    /// bytes, or a ``Counter`` of them.
    protocol Sink {
        var count: Int { get }
        mutating func append(_ byte: UInt8)
        mutating func append(contentsOf bytes: Slice<UnsafeBufferPointer<UInt8>>)
    }

    /// Counts the bytes appended.
    struct Counter: Sink {
        private(set) var count = 0
        mutating func append(_ byte: UInt8) { count += 1 }
        mutating func append(contentsOf bytes: Slice<UnsafeBufferPointer<UInt8>>) { count += bytes.count }
    }

    /// Appends `indices` encoded to `sink`; returns `false`, stopping
    /// early, once it passes `limit` bytes.
    private static func write<S: Sink>(_ indices: UnsafeBufferPointer<UInt8>, into encoded: inout S, limit: Int) -> Bool {
        let count = indices.count
        var literalStart = 0, index = 0
        func appendLiterals(upTo end: Int) {
            var start = literalStart
            while start < end {
                let n = min(128, end - start)
                encoded.append(UInt8(n - 1))
                encoded.append(contentsOf: indices[start..<start + n])
                start += n
            }
        }
        while index < count {
            let value = indices[index]
            let end = runEnd(indices, from: index + 1, of: value)
            let run = end - index
            if run >= 3 {
                appendLiterals(upTo: index)
                if run <= shortRunLimit {
                    encoded.append(UInt8(0x80 + run - 3))
                } else {
                    encoded.append(0xFF)
                    for shift in stride(from: 0, to: 32, by: 8) { encoded.append(UInt8(truncatingIfNeeded: run >> shift)) }
                }
                encoded.append(value)
                literalStart = end
                if encoded.count > limit { return false }
            }
            index = end
        }
        appendLiterals(upTo: count)
        return encoded.count <= limit
    }

    /// The first index from `start` on that is not `value` (the count when
    /// none is): eight bytes compared at a time, as a whole frame's runs
    /// (a background hundreds of pixels long) are most of what is scanned.
    @inline(__always)
    private static func runEnd(_ indices: UnsafeBufferPointer<UInt8>, from start: Int, of value: UInt8) -> Int {
        guard let base = indices.baseAddress else { return start }
        let count = indices.count, pattern = UInt64(value) &* 0x0101_0101_0101_0101
        var end = start
        while end + 8 <= count {
            let differences = UInt64(littleEndian: UnsafeRawPointer(base + end).loadUnaligned(as: UInt64.self)) ^ pattern
            if differences != 0 { return end + differences.trailingZeroBitCount / 8 }
            end += 8
        }
        while end < count, base[end] == value { end += 1 }
        return end
    }

    /// Reads encoded indices in order into buffers of any size, a band of
    /// rows at a time: a run or stretch may span two reads.
    struct Reader {
        private let encoded: [UInt8]
        private var position = 0
        /// Copies of `value` still owed from a run.
        private var run = 0
        private var value: UInt8 = 0
        /// Literal values still owed from a stretch, at `position`.
        private var literals = 0

        init(_ encoded: [UInt8]) { self.encoded = encoded }

        /// Fills `buffer` from where the last read stopped; returns how many
        /// values it wrote, fewer than the buffer holds only where the
        /// encoding ends (or is malformed: it never reads past its end).
        mutating func read(into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
            guard let target = buffer.baseAddress else { return 0 }
            var written = 0
            encoded.withUnsafeBufferPointer { source in
                while written < buffer.count {
                    if run > 0 {
                        let n = min(run, buffer.count - written)
                        (target + written).initialize(repeating: value, count: n)
                        written += n
                        run -= n
                    } else if literals > 0 {
                        let n = min(literals, buffer.count - written, source.count - position)
                        guard n > 0 else { return }
                        (target + written).initialize(from: source.baseAddress! + position, count: n)
                        written += n
                        position += n
                        literals -= n
                    } else {
                        guard position < source.count else { return }
                        let token = source[position]
                        position += 1
                        switch token {
                        case 0x00...0x7F:
                            literals = Int(token) + 1
                        case 0x80...0xFE:
                            guard position < source.count else { return }
                            run = Int(token) - 0x80 + 3
                            value = source[position]
                            position += 1
                        default:
                            guard position + 5 <= source.count else { return }
                            run = (0..<4).reduce(0) { $0 | Int(source[position + $1]) << (8 * $1) }
                            value = source[position + 4]
                            position += 5
                        }
                    }
                }
            }
            return written
        }
    }
}

extension [UInt8]: IndexRuns.Sink {}
