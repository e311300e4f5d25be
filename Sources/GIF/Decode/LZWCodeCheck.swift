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
/// lengths in a reused buffer.
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
    /// stream with junk past its end takes the full check. Four codes are
    /// read and tested at a time where they cannot change the code width.
    static func isSound(frame: FrameInfo, bytes: UnsafeBufferPointer<UInt8>, scratch: Scratch) -> Bool {
        let codeSize = Int(frame.lzwMinimumCodeSize)
        guard codeSize <= 8, let base = bytes.baseAddress else { return false }
        let start = frame.dataOffset + 1
        let end = min(frame.dataEnd, bytes.count)
        let (data, count, _) = gather(base: base, start: start, end: end, scratch: scratch)
        let bits = count * 8
        let clear = 1 << codeSize, endCode = clear + 1
        let raw = UnsafeRawPointer(data)
        let firstWidth = codeSize + 1
        // `next` keeps counting past a full table (4096 entries): every
        // 12-bit code is then at most `next`, as the check wants, and the
        // width stays 12 (`limit` is out of reach from width 12 on).
        var next = endCode + 1, width = firstWidth, mask = (1 &<< width) &- 1, limit = 1 &<< width
        var afterClear = true
        var bit = 0
        while true {
            if !afterClear {
                (bit, next) = walkFourAtATime(
                    raw, bits: bits, from: bit, next: next, width: width, limit: limit, clear: clear)
            }
            guard bit &+ width <= bits else { return true }
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: bit &>> 3, as: UInt64.self))
            let code = Int(truncatingIfNeeded: word &>> UInt64(bit & 7)) & mask
            bit &+= width
            if UInt(bitPattern: code &- clear) < 2 {
                if code == endCode { return true }
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
            }
        }
    }

    /// The quick walk's common stretch: four codes from one load (4 × 12
    /// bits + 7 fit in 64), tested together without a branch per code, while
    /// none of them can change the width. Stops, leaving the codes unread,
    /// at the first group holding a clear or end code or a code past the next
    /// free entry (`next`, then one more per code), for the one-code step to
    /// handle; returns the bit position and the next free entry.
    @inline(__always)
    private static func walkFourAtATime(
        _ raw: UnsafeRawPointer, bits: Int, from start: Int, next first: Int, width: Int, limit: Int, clear: Int
    ) -> (bit: Int, next: Int) {
        let w = UInt64(truncatingIfNeeded: width), mask = (UInt64(1) &<< w) &- 1
        let w2 = w &* 2, w3 = w &* 3, step = width &<< 2
        let lastBit = bits &- step, lastNext = limit &- 4
        var bit = start, next = first
        while bit <= lastBit && next < lastNext {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: bit &>> 3, as: UInt64.self))
                &>> UInt64(bit & 7)
            let c0 = Int(truncatingIfNeeded: word & mask), c1 = Int(truncatingIfNeeded: word &>> w & mask)
            let c2 = Int(truncatingIfNeeded: word &>> w2 & mask), c3 = Int(truncatingIfNeeded: word &>> w3 & mask)
            // Negative when a code lies past its next free entry.
            let past = (next &- c0) | (next &+ 1 &- c1) | (next &+ 2 &- c2) | (next &+ 3 &- c3)
            // (code − clear) >> 1 is 0 exactly for the clear and end codes:
            // the product is 0 when any of the four is one (at most 2^44).
            let special = ((c0 &- clear) &>> 1) &* ((c1 &- clear) &>> 1) &* ((c2 &- clear) &>> 1)
                &* ((c3 &- clear) &>> 1)
            if past < 0 || special == 0 { break }
            bit &+= step
            next &+= 4
        }
        return (bit, next)
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
