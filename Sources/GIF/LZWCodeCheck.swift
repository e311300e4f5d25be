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
struct LZWCodeCheck {
    /// Why the walk stopped.
    enum Stop: Equatable {
        /// Every pixel of the frame is there.
        case complete
        /// A code past the next free entry (or a non-literal first code).
        case badCode(Int)
        /// The end code came before the last pixel.
        case endCode
        /// The data ended before the last pixel.
        case dataEnded
        /// The minimum code size byte is above 8.
        case badCodeSize(Int)
    }

    /// Pixels decodable before the stop, at most the frame's area.
    var pixels: Int
    /// Why the walk stopped.
    var stop: Stop
    /// Byte offset in the file where the walk stopped.
    var offset: Int

    /// Walks `frame`'s data in `bytes` (the whole file) until the frame's
    /// area is covered or the stream goes wrong.
    init(frame: FrameInfo, bytes: UnsafeBufferPointer<UInt8>) {
        let total = frame.rect.area
        let codeSize = Int(frame.lzwMinimumCodeSize)
        guard codeSize <= 8 else {
            (pixels, stop, offset) = (0, .badCodeSize(codeSize), frame.dataOffset)
            return
        }
        var reader = SubBlockBitReader(bytes: bytes, start: frame.dataOffset + 1, end: frame.dataEnd)
        let clear = 1 << codeSize, end = clear + 1
        var lengths = [UInt16](repeating: 1, count: 4096)
        var next = end + 1, width = codeSize + 1
        var previous = -1
        var count = 0
        while count < total {
            guard let code = reader.read(width) else {
                (pixels, stop, offset) = (count, .dataEnded, reader.position)
                return
            }
            if code == clear {
                next = end + 1
                width = codeSize + 1
                previous = -1
                continue
            }
            if code == end {
                (pixels, stop, offset) = (count, .endCode, reader.position)
                return
            }
            if previous < 0 {
                guard code < clear else {
                    (pixels, stop, offset) = (count, .badCode(code), reader.position)
                    return
                }
                count += 1
                previous = code
                continue
            }
            guard code <= next, code < 4096 else {
                (pixels, stop, offset) = (count, .badCode(code), reader.position)
                return
            }
            let length = code < next ? Int(lengths[code]) : Int(lengths[previous]) + 1
            if next < 4096 {
                lengths[next] = lengths[previous] &+ 1
                next += 1
                if next == 1 << width, width < 12 { width += 1 }
            }
            count += length
            previous = code
        }
        (pixels, stop, offset) = (total, .complete, reader.position)
    }
}

/// Reads little-endian bit fields from a chain of GIF data sub-blocks.
struct SubBlockBitReader {
    private let bytes: UnsafeBufferPointer<UInt8>
    private let end: Int
    /// Offset of the next byte to read.
    private(set) var position: Int
    /// Bytes left in the current sub-block.
    private var left = 0
    private var bits: UInt64 = 0
    private var bitCount = 0

    /// Reads sub-blocks whose first length byte is at `start`, up to `end`.
    init(bytes: UnsafeBufferPointer<UInt8>, start: Int, end: Int) {
        self.bytes = bytes
        self.position = start
        self.end = min(end, bytes.count)
    }

    /// The next `width`-bit value, or `nil` when the data runs out.
    mutating func read(_ width: Int) -> Int? {
        while bitCount < width {
            if left == 0 {
                guard position < end, bytes[position] != 0 else { return nil }
                left = Int(bytes[position])
                position += 1
            }
            guard position < end else { return nil }
            bits |= UInt64(bytes[position]) << UInt64(bitCount)
            position += 1
            left -= 1
            bitCount += 8
        }
        let value = Int(bits & ((1 << UInt64(width)) - 1))
        bits >>= UInt64(width)
        bitCount -= width
        return value
    }
}
