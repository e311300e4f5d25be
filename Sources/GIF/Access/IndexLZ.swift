/// A frame's palette indices compressed with a byte-oriented LZ77 codec (the
/// LZ4 block format's sequences), a band of rows at a time: how the index
/// tier keeps frames that do not shrink to ``IndexRuns`` when the raw
/// indices of the whole GIF would not fit its budget. Reading a band back
/// is copies of literals and of earlier bytes of the same band, several
/// times cheaper than giflib's LZW decode of the same pixels, and a
/// dithered or photographic frame, which has few runs, still repeats
/// itself: its patterns recur along and between rows.
///
/// The encoding is one block per band of ``rowsPerBand(width:)`` rows
/// (the last band may hold fewer), each a four-byte length (least
/// significant byte first) and then sequences. A sequence is a token byte
/// (its high four bits the literal count, its low four bits the match
/// length − 4; 15 in either continues with bytes added to it up to one
/// that is not 255), the literals, then, except in a block's last
/// sequence, the match's distance back (two bytes, least significant
/// first, 1…65,535) and the rest of its length. A match never reaches
/// before its band: each band decodes alone, so that a band buffer of
/// 64 KiB is all a reader holds.
enum IndexLZ {
    /// The most bytes of indices one band holds: distances fit two bytes.
    static let bandBytes = 1 << 16

    /// The shortest match.
    static let minimumMatch = 4

    /// The rows of a frame `width` pixels wide one band holds: at least one.
    static func rowsPerBand(width: Int) -> Int { max(1, bandBytes / max(1, width)) }

    /// The encoding is kept only when it takes at most this many eighths
    /// of the indices: a frame that saves less is kept raw, read at no cost.
    static let keptEighths = 7

    /// `indices` (a frame `width` pixels wide, whole rows) encoded, or
    /// `nil` when the encoding would take more than ``keptEighths`` eighths
    /// of their bytes. Stops as soon as it passes that.
    static func encode(_ indices: UnsafeBufferPointer<UInt8>, width: Int) -> [UInt8]? {
        encode(indices, width: width, limit: indices.count / 8 * keptEighths)
    }

    /// `indices` encoded if that takes at most `limit` bytes, else `nil`.
    static func encode(_ indices: UnsafeBufferPointer<UInt8>, width: Int, limit: Int) -> [UInt8]? {
        guard let source = indices.baseAddress, width > 0, indices.count > 0, limit > 0 else { return nil }
        let bandCount = rowsPerBand(width: width) * width
        // A band's block never takes more than this: its literals, one
        // length byte per 255 of them, a token and its four-byte length.
        let worst = bandCount + bandCount / 255 + 16
        let capacity = min(limit, indices.count + (indices.count / bandCount + 1) * (worst - bandCount)) + worst
        return withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 1 << hashBits) { table in
            let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
            defer { scratch.deallocate() }
            var written = 0, start = 0
            while start < indices.count {
                let count = min(bandCount, indices.count - start)
                table.initialize(repeating: 0)
                let block = compress(source + start, count: count, into: scratch + written + 4, table: table)
                for shift in 0..<4 { scratch[written + shift] = UInt8(truncatingIfNeeded: block >> (8 * shift)) }
                written += 4 + block
                if written > limit { return nil }
                start += count
            }
            return [UInt8](UnsafeBufferPointer(start: scratch, count: written))
        }
    }

    /// Bits of the hash of four bytes that finds earlier matches.
    private static let hashBits = 12

    @inline(__always)
    private static func load32(_ pointer: UnsafePointer<UInt8>) -> UInt32 {
        UnsafeRawPointer(pointer).loadUnaligned(as: UInt32.self)
    }

    @inline(__always)
    private static func hash(_ value: UInt32) -> Int { Int((value &* 2_654_435_761) >> (32 - UInt32(hashBits))) }

    /// Compresses `count` bytes (at most ``bandBytes``) at `source` into
    /// `out`, which has room for the worst case; returns the bytes
    /// written. `table` holds each hash's last position + 1 (0: none).
    private static func compress(
        _ source: UnsafePointer<UInt8>, count: Int, into out: UnsafeMutablePointer<UInt8>, table: UnsafeMutableBufferPointer<UInt32>
    ) -> Int {
        var written = 0, anchor = 0, position = 0, misses = 0
        let last = count - minimumMatch
        while position <= last {
            let value = load32(source + position)
            let slot = hash(value)
            let candidate = Int(table[slot]) - 1
            table[slot] = UInt32(position + 1)
            guard candidate >= 0, load32(source + candidate) == value else {
                // Incompressible stretches are skipped faster the longer
                // they run, so noise costs little to find out about.
                misses += 1
                position += 1 + misses >> 5
                continue
            }
            misses = 0
            var start = position, from = candidate
            while start > anchor, from > 0, source[start - 1] == source[from - 1] {
                start -= 1
                from -= 1
            }
            let length = position + minimumMatch - start
                + matchLength(source, position + minimumMatch, candidate + minimumMatch, count)
            written += sequence(source + anchor, literals: start - anchor, distance: start - from,
                                match: length, into: out + written)
            position = start + length
            anchor = position
            if position - 2 > 0, position - 2 <= last {
                table[hash(load32(source + position - 2))] = UInt32(position - 2 + 1)
            }
        }
        written += sequence(source + anchor, literals: count - anchor, distance: 0, match: 0, into: out + written)
        return written
    }

    /// How many bytes from `a` on equal those from `b` on (`b < a`), up to
    /// `count`: eight compared at a time.
    @inline(__always)
    private static func matchLength(_ source: UnsafePointer<UInt8>, _ a: Int, _ b: Int, _ count: Int) -> Int {
        var length = 0
        while a + length + 8 <= count {
            let x = UnsafeRawPointer(source + a + length).loadUnaligned(as: UInt64.self)
            let y = UnsafeRawPointer(source + b + length).loadUnaligned(as: UInt64.self)
            let differences = UInt64(littleEndian: x ^ y)
            if differences != 0 { return length + differences.trailingZeroBitCount / 8 }
            length += 8
        }
        while a + length < count, source[a + length] == source[b + length] { length += 1 }
        return length
    }

    /// Writes one sequence (`match` 0: the block's last, literals only);
    /// returns its bytes.
    @inline(__always)
    private static func sequence(
        _ literals: UnsafePointer<UInt8>, literals count: Int, distance: Int, match: Int, into out: UnsafeMutablePointer<UInt8>
    ) -> Int {
        let matchCode = match == 0 ? 0 : match - minimumMatch
        out[0] = UInt8(min(count, 15) << 4 | min(matchCode, 15))
        var written = 1
        func extend(_ value: Int) {
            guard value >= 15 else { return }
            var rest = value - 15
            while rest >= 255 {
                out[written] = 255
                written += 1
                rest -= 255
            }
            out[written] = UInt8(rest)
            written += 1
        }
        extend(count)
        (out + written).update(from: literals, count: count)
        written += count
        guard match > 0 else { return written }
        out[written] = UInt8(truncatingIfNeeded: distance)
        out[written + 1] = UInt8(truncatingIfNeeded: distance >> 8)
        written += 2
        extend(matchCode)
        return written
    }

    /// Reads encoded indices back one band at a time, in order.
    struct Reader {
        private let encoded: UnsafeBufferPointer<UInt8>
        private var position = 0

        /// A reader of `encoded`, which must outlive it.
        init(_ encoded: UnsafeBufferPointer<UInt8>) { self.encoded = encoded }

        /// Decodes the next band into `band`; returns the bytes written (0
        /// after the last band), or `nil` when the encoding is malformed or
        /// the band would not fit: it never reads or writes out of bounds.
        mutating func read(into band: UnsafeMutableBufferPointer<UInt8>) -> Int? {
            guard position + 4 <= encoded.count, let base = encoded.baseAddress else {
                return position == encoded.count ? 0 : nil
            }
            let length = (0..<4).reduce(0) { $0 | Int(base[position + $1]) << (8 * $1) }
            guard length <= encoded.count - position - 4 else { return nil }
            let block = UnsafeBufferPointer(start: base + position + 4, count: length)
            position += 4 + length
            return IndexLZ.decode(block, into: band)
        }
    }

    /// Decodes one block into `out`; returns the bytes written, or `nil`
    /// when the block is malformed or does not fit.
    ///
    /// Most sequences of an image's indices are short (a few literals, a
    /// match of a few bytes), so copies of up to 16 bytes are made with
    /// 8-byte loads and stores rather than a call to `memmove` each.
    static func decode(_ block: UnsafeBufferPointer<UInt8>, into out: UnsafeMutableBufferPointer<UInt8>) -> Int? {
        guard let source = block.baseAddress else { return 0 }
        guard let target = out.baseAddress else { return block.isEmpty ? 0 : nil }
        let end = block.count, capacity = out.count
        var position = 0, written = 0
        while position < end {
            let token = Int(source[position])
            position += 1
            guard let literals = extended(token >> 4, source, &position, end) else { return nil }
            guard literals <= end - position, literals <= capacity - written else { return nil }
            if literals <= 8, end - position >= 8, capacity - written >= 8 {
                // Room past them in both: eight bytes, the rest written over.
                UnsafeMutableRawPointer(target + written).storeBytes(
                    of: UnsafeRawPointer(source + position).loadUnaligned(as: UInt64.self), as: UInt64.self)
            } else {
                copy(target + written, from: source + position, count: literals)
            }
            position += literals
            written += literals
            if position == end { break }
            guard position + 2 <= end else { return nil }
            let distance = Int(source[position]) | Int(source[position + 1]) << 8
            position += 2
            guard var match = extended(token & 15, source, &position, end) else { return nil }
            match += minimumMatch
            guard distance > 0, distance <= written, match <= capacity - written else { return nil }
            let to = target + written, from = UnsafePointer(to - distance)
            if distance >= 8, match <= 8, capacity - written >= 8 {
                UnsafeMutableRawPointer(to).storeBytes(
                    of: UnsafeRawPointer(from).loadUnaligned(as: UInt64.self), as: UInt64.self)
            } else if distance >= 8 || distance >= match {
                // Eight bytes at a time read only what is written by then.
                copy(to, from: from, count: match)
            } else if match <= 16 {
                // Short and overlapping: byte by byte, each read written by then.
                for i in 0..<match { to[i] = from[i] }
            } else if distance == 1 {
                to.update(repeating: from.pointee, count: match)
            } else {
                // Overlapping: the bytes repeat every `distance`, so each
                // copy may take twice what the one before did.
                var copied = 0
                while copied < match {
                    let n = min(match - copied, copied + distance)
                    (to + copied).update(from: from, count: n)
                    copied += n
                }
            }
            written += match
        }
        return written
    }

    /// A count of 15 continued by the bytes at `position` (each added, up to
    /// one below 255), `position` moved past them; `nil` past `end`.
    @inline(__always)
    private static func extended(
        _ count: Int, _ source: UnsafePointer<UInt8>, _ position: inout Int, _ end: Int
    ) -> Int? {
        guard count == 15 else { return count }
        var total = count, byte = 255
        while byte == 255 {
            guard position < end else { return nil }
            byte = Int(source[position])
            position += 1
            total += byte
        }
        return total
    }

    /// Copies `count` bytes forward, 8 at a time up to 16, by `memmove`
    /// past that: `from` may lie before `to` by 8 bytes or more, the
    /// chunks read after the ones before them are written.
    @inline(__always)
    private static func copy(_ to: UnsafeMutablePointer<UInt8>, from: UnsafePointer<UInt8>, count: Int) {
        let target = UnsafeMutableRawPointer(to), source = UnsafeRawPointer(from)
        switch count {
        case 0: return
        case 1..<8:
            for i in 0..<count { to[i] = from[i] }
        case 8...16:
            target.storeBytes(of: source.loadUnaligned(as: UInt64.self), as: UInt64.self)
            target.storeBytes(of: (source + count - 8).loadUnaligned(as: UInt64.self), toByteOffset: count - 8, as: UInt64.self)
        default:
            if UnsafeRawPointer(to) - source >= count {
                target.copyMemory(from: source, byteCount: count)
            } else {
                var copied = 0
                while copied + 8 <= count {
                    (target + copied).storeBytes(of: (source + copied).loadUnaligned(as: UInt64.self), as: UInt64.self)
                    copied += 8
                }
                for i in copied..<count { to[i] = from[i] }
            }
        }
    }
}
