import GIFKernels

/// Walks a frame's LZW code stream without producing pixels, to find how
/// many pixels a browser decodes from it before it goes wrong.
///
/// giflib does not reject a code past the next free table entry: it makes up
/// pixels and carries on. Browsers (Chromium's and Wuffs's decoders) stop
/// there with "bad LZW code" and show the pixels before it. This check finds
/// that point, and also an early end code or the end of the data, so that
/// giflib is asked for exactly the pixels a browser shows. It follows
/// giflib's code-width rules (and the GIF specification's): the width grows
/// after entry `2^width - 1` is added, up to 12 bits, and a full table defers
/// the clear.
///
/// It runs before giflib on every frame, so it is written for speed: the
/// sub-blocks are first copied end to end into a reused buffer, then each
/// code is one unaligned 64-bit load and a shift, in a loop over raw
/// pointers with no optionals and no bounds checks, keeping a table of string
/// lengths in a reused buffer. The quick walk (``isSound(codes:bits:codeSize:vector:)``)
/// tests 32 codes per vector first on processors with AVX-512 VBMI.
struct LZWCodeCheck {
    /// Why the walk stopped.
    enum Stop: Equatable, Sendable {
        /// Every pixel of the frame is there.
        case complete
        /// A code past the next free entry (or a non-literal first code).
        case badCode(code: Int, nextFree: Int)
        /// The end code came before the last pixel.
        case endCode
        /// The data ended before the last pixel.
        case dataEnded
        /// The minimum code size byte is above 8.
        case badCodeSize(Int)
    }

    /// Buffers a check reuses from frame to frame: one per thread.
    final class Scratch {
        /// The number of entries an LZW table holds.
        static let tableSize = 4096
        /// String length per table entry.
        let lengths: UnsafeMutablePointer<UInt16>
        /// The frame's data bytes without the sub-block lengths, then 8 zero bytes.
        private(set) var data: UnsafeMutableBufferPointer<UInt8>

        init() {
            lengths = .allocate(capacity: Self.tableSize)
            data = .allocate(capacity: 0)
        }

        /// The bytes held: the length table and the data buffer.
        var byteCount: Int { Self.tableSize * MemoryLayout<UInt16>.stride + data.count }

        deinit {
            lengths.deallocate()
            data.deallocate()
        }

        /// Makes ``data`` hold at least `count` bytes.
        func reserve(_ count: Int) {
            guard data.count < count else { return }
            data.deallocate()
            data = .allocate(capacity: max(count, 2 * data.count))
        }
    }

    /// Pixels decodable before the stop, at most the frame's area.
    var pixels: Int
    /// Why the walk stopped.
    var stop: Stop
    /// Byte offset in the file where the walk stopped: just past the last
    /// byte a code was read from, or where the data ended.
    var offset: Int

    /// Walks `frame`'s data in `bytes` (the whole file) until the frame's
    /// area is covered or the stream goes wrong.
    init(frame: FrameInfo, bytes: UnsafeBufferPointer<UInt8>, scratch: Scratch) {
        let codeSize = Int(frame.lzwMinimumCodeSize)
        guard codeSize <= 8 else {
            (pixels, stop, offset) = (0, .badCodeSize(codeSize), frame.dataOffset)
            return
        }
        let start = frame.dataOffset + 1
        guard let base = bytes.baseAddress else {
            (pixels, stop, offset) = (0, .dataEnded, start)
            return
        }
        let end = min(frame.dataEnd, bytes.count)
        let (data, count, chainEnd) = Self.gather(base: base, start: start, end: end, scratch: scratch)
        let (pixels, stop, bitsRead) = Self.walk(
            data: data, bits: count * 8, total: frame.rect.area, codeSize: codeSize, lengths: scratch.lengths)
        self.pixels = pixels
        self.stop = stop
        offset = stop == .dataEnded
            ? chainEnd : Self.fileOffset(afterDataBytes: (bitsRead + 7) / 8, start: start, end: end, bytes: base)
    }

    /// Whether `frame`'s code stream, up to its end code or the end of its
    /// data, holds no code a browser stops at: no code past the next free
    /// entry, no non-literal code after a clear. A quicker walk than the
    /// full check, as it keeps no string lengths and so counts no pixels:
    /// when it says yes, giflib decoding the whole frame without error means
    /// the frame is whole (an early end code or missing data make giflib
    /// fail); when it says no, or giflib fails, the full check tells how many
    /// pixels a browser shows. Codes after the last pixel count too, so a
    /// stream with junk past its end takes the full check.
    static func isSound(frame: FrameInfo, bytes: UnsafeBufferPointer<UInt8>, scratch: Scratch) -> Bool {
        let codeSize = Int(frame.lzwMinimumCodeSize)
        guard codeSize <= 8, let base = bytes.baseAddress else { return false }
        let start = frame.dataOffset + 1
        let end = min(frame.dataEnd, bytes.count)
        let (data, count, _) = gather(base: base, start: start, end: end, scratch: scratch)
        return isSound(codes: data, bits: count * 8, codeSize: codeSize)
    }

    /// ``isSound(frame:bytes:scratch:)`` on the code stream of `bits` bits at
    /// `data` (readable 8 bytes past them), for a minimum code size of at
    /// most 8. Where no code can change the code width, a group of codes is
    /// read with one load and tested at once (``CodeGroups``); one code at a
    /// time elsewhere: around clear and end codes, a code past the next free
    /// entry, the codes just before the width grows, and the end of the data.
    /// With `vector` (on processors with AVX-512 VBMI), groups of 32 codes
    /// are tested first, in one vector each, and ``CodeGroups`` takes over
    /// where one of those stops.
    static func isSound(
        codes data: UnsafePointer<UInt8>, bits: Int, codeSize: Int, vector: Bool = ProcessorFeatures.hasAVX512VBMI
    ) -> Bool {
        let clear = 1 << codeSize, endCode = clear + 1
        let raw = UnsafeRawPointer(data)
        let firstWidth = codeSize + 1
        // `next` keeps counting past a full table (4096 entries): every
        // 12-bit code is then at most `next`, as the check wants, and the
        // width stays 12 (`limit` is out of reach from width 12 on).
        var next = endCode + 1, width = firstWidth, mask = (1 &<< width) &- 1, limit = 1 &<< width
        var afterClear = true
        var bit = 0
        // Group tests need a clear code with its low bit 0 (a minimum code
        // size of at least 1, as every encoder writes).
        var groups = codeSize >= 1 ? CodeGroups(width: width, clear: clear) : nil
        while true {
            if !afterClear, let lanes = groups {
                #if arch(x86_64)
                if vector && ProcessorFeatures.hasAVX512VBMI {
                    // Past a full table every code is at most `next`: no bound.
                    let bounded = !(width == 12 && next >= 4095)
                    bit = gif_lzw_walk_groups_avx512_vbmi(
                        data, bits / 8 + 8, bits, bit, Int32(width), Int32(clear), &next, bounded ? 1 : 0,
                        min(limit, 4096))
                }
                #endif
                (bit, next) = lanes.walk(raw, bits: bits, from: bit, next: next, limit: limit)
            }
            guard bit &+ width <= bits else { return true }
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: bit &>> 3, as: UInt64.self))
            let code = Int(truncatingIfNeeded: word &>> UInt64(bit & 7)) & mask
            bit &+= width
            if UInt(bitPattern: code &- clear) < 2 {
                if code == endCode { return true }
                if width != firstWidth, groups != nil { groups = CodeGroups(width: firstWidth, clear: clear) }
                next = endCode + 1
                width = firstWidth
                mask = (1 &<< width) &- 1
                limit = 1 &<< width
                afterClear = true
                continue
            }
            if afterClear {
                guard code < clear else { return false }
                afterClear = false
                continue
            }
            guard code <= next else { return false }
            next &+= 1
            if next == limit {
                width &+= 1
                mask = mask &<< 1 | 1
                limit = width < 12 ? limit &<< 1 : Int.max
                if groups != nil { groups = CodeGroups(width: width, clear: clear) }
            }
        }
    }

    /// The quick walk's common stretch, for one code width: as many codes as
    /// one unaligned 64-bit load holds whatever its bit offset (⌊57 ÷
    /// width⌋: 4 at 12 bits, 6 at 9), tested together with a few word
    /// operations and one branch, while none of them can change the width.
    ///
    /// The codes are tested in place, as fields of the loaded word; the even
    /// fields and the odd ones separately, so that each field has the next
    /// field's bits free above it to carry into. A field carries out when
    /// adding `2^width − 1 − (next + k)` to it (the `k`-th code of the group
    /// is checked against `next + k`) exactly when the code lies past its
    /// next free entry; and with the clear code XORed out (leaving 0 for the
    /// clear code, 1 for the end code), it fails to carry out on adding
    /// `2^width − 2` exactly when it is one of them.
    struct CodeGroups {
        let width: Int
        /// Codes a group reads.
        let count: Int
        /// Each field's bits, for the even fields and the odd ones.
        let even: UInt64, odd: UInt64
        /// The bit just above each field: where it carries to.
        let evenCarry: UInt64, oddCarry: UInt64
        /// The clear code in every field.
        let clears: UInt64
        /// `2^width − 2` in every field.
        let evenSpecial: UInt64, oddSpecial: UInt64
        /// `2^width − 1 − k` in field `k`: the bound addends for `next` = 0.
        let evenBound: UInt64, oddBound: UInt64
        /// 1 in every field.
        let evenOnes: UInt64, oddOnes: UInt64

        init(width: Int, clear: Int) {
            self.width = width
            count = 57 / width
            // 1 in each field, and k in field k, for each parity; every other
            // constant is a multiple of the ones.
            var ones = (even: UInt64(0), odd: UInt64(0)), indices = ones
            for k in 0..<count {
                let one = UInt64(1) << UInt64(k * width)
                if k % 2 == 0 {
                    ones.even |= one
                    indices.even |= UInt64(k) &* one
                } else {
                    ones.odd |= one
                    indices.odd |= UInt64(k) &* one
                }
            }
            let top = UInt64(1) << UInt64(width) - 1
            (evenOnes, oddOnes) = ones
            (even, odd) = (ones.even &* top, ones.odd &* top)
            (evenCarry, oddCarry) = (ones.even << UInt64(width), ones.odd << UInt64(width))
            (evenSpecial, oddSpecial) = (ones.even &* (top - 1), ones.odd &* (top - 1))
            // Wraps at narrow widths where k passes 2^width − 1, for which no
            // group runs (see `walk`).
            (evenBound, oddBound) = (ones.even &* top &- indices.even, ones.odd &* top &- indices.odd)
            clears = (ones.even | ones.odd) &* UInt64(clear)
        }

        /// Walks whole groups from bit `start` while each lies within `bits`
        /// and ends before the table reaches `limit` entries (or, at 12 bits,
        /// 4096). Stops, leaving the group unread, at the first one holding a
        /// clear or end code or a code past its next free entry, for the
        /// one-code step; returns the bit position and the next free entry.
        @inline(__always)
        func walk(
            _ raw: UnsafeRawPointer, bits: Int, from start: Int, next first: Int, limit: Int
        ) -> (bit: Int, next: Int) {
            let step = width &* count
            let lastBit = bits &- step
            var bit = start, next = first
            // Past a full table every code is at most `next`: no bound.
            let full = width == 12 && next >= 4095
            let lastNext = full ? Int.max : min(limit, 4096) &- count
            let n = UInt64(truncatingIfNeeded: full ? 0 : next)
            var evenAdd = full ? 0 : evenBound &- n &* evenOnes
            var oddAdd = full ? 0 : oddBound &- n &* oddOnes
            let evenStep = full ? 0 : UInt64(truncatingIfNeeded: count) &* evenOnes
            let oddStep = full ? 0 : UInt64(truncatingIfNeeded: count) &* oddOnes
            while bit <= lastBit && next < lastNext {
                let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: bit &>> 3, as: UInt64.self))
                    &>> UInt64(bit & 7)
                let x = word ^ clears
                // A carry bit missing: a clear or end code; one present: a
                // code past its next free entry.
                let evenSpecials = ~((x & even) &+ evenSpecial)
                let oddSpecials = ~((x & odd) &+ oddSpecial)
                let evenPast = (word & even) &+ evenAdd
                let oddPast = (word & odd) &+ oddAdd
                if (evenSpecials | evenPast) & evenCarry | (oddSpecials | oddPast) & oddCarry != 0 { break }
                bit &+= step
                next &+= count
                evenAdd &-= evenStep
                oddAdd &-= oddStep
            }
            return (bit, next)
        }
    }

    /// Copies the payloads of the sub-block chain at `start` (up to `end`)
    /// end to end into the scratch buffer, followed by 8 zero bytes: the
    /// data, its byte count, and where the chain ends.
    private static func gather(
        base: UnsafePointer<UInt8>, start: Int, end: Int, scratch: Scratch
    ) -> (data: UnsafeMutablePointer<UInt8>, count: Int, chainEnd: Int) {
        scratch.reserve(max(0, end - start) + 8)
        let data = scratch.data.baseAddress!
        var count = 0
        var position = start
        while position < end, base[position] != 0 {
            let length = min(Int(base[position]), end - position - 1)
            (data + count).update(from: base + position + 1, count: length)
            count += length
            position += 1 + Int(base[position])
        }
        (data + count).update(repeating: 0, count: 8)
        return (data, count, min(position, end))
    }

    /// The LZW walk over `bits` bits at `data` (readable 8 bytes past them):
    /// the pixels covered, why it stopped, and the bits read.
    private static func walk(
        data: UnsafePointer<UInt8>, bits: Int, total: Int, codeSize: Int, lengths: UnsafeMutablePointer<UInt16>
    ) -> (Int, Stop, Int) {
        let clear = 1 << codeSize, endCode = clear + 1
        let tableSize = Scratch.tableSize
        // Literals have length 1; entries above the end code are written
        // before they are read, so only the literals need setting.
        lengths.update(repeating: 1, count: clear)
        let raw = UnsafeRawPointer(data)
        let firstWidth = codeSize + 1
        // `limit` is the table size at which the width grows (never, at 12).
        var next = endCode + 1, width = firstWidth, mask = (1 &<< width) &- 1, limit = 1 &<< width
        var previous = -1
        var count = 0
        var bit = 0
        while count < total {
            guard bit &+ width <= bits else { return (count, .dataEnded, bit) }
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: bit &>> 3, as: UInt64.self))
            let code = Int(truncatingIfNeeded: word &>> UInt64(bit & 7)) & mask
            bit &+= width
            // Clear and end codes in one unsigned comparison.
            if UInt(bitPattern: code &- clear) < 2 {
                if code == endCode { return (count, .endCode, bit) }
                next = endCode + 1
                width = firstWidth
                mask = (1 &<< width) &- 1
                limit = 1 &<< width
                previous = -1
                continue
            }
            if previous < 0 {
                guard code < clear else { return (count, .badCode(code: code, nextFree: next), bit) }
                count &+= 1
                previous = code
                continue
            }
            // `code` < 4096 always: a code has at most 12 bits.
            guard code <= next else { return (count, .badCode(code: code, nextFree: next), bit) }
            let previousLength = lengths[previous]
            count &+= code < next ? Int(lengths[code]) : Int(previousLength) &+ 1
            if next < tableSize {
                lengths[next] = previousLength &+ 1
                next &+= 1
                if next == limit {
                    width &+= 1
                    mask = mask &<< 1 | 1
                    limit = width < 12 ? limit &<< 1 : Int.max
                }
            }
            previous = code
        }
        return (total, .complete, bit)
    }

    /// The file offset just past the `dataBytes`-th payload byte of the
    /// sub-block chain starting at `start` (`start` itself for none).
    private static func fileOffset(afterDataBytes dataBytes: Int, start: Int, end: Int, bytes: UnsafePointer<UInt8>) -> Int {
        var left = dataBytes
        var position = start
        while left > 0, position < end {
            let length = Int(bytes[position])
            if left <= length { return position + 1 + left }
            left -= length
            position += 1 + length
        }
        return min(position, end)
    }
}
