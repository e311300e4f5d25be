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
/// It runs before giflib on every frame, so it is written for speed: one
/// loop over raw pointers, no optionals and no bounds checks inside it, and
/// a table of string lengths that the caller allocates once and reuses.
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

    /// The number of entries an LZW table holds: the size of the `lengths`
    /// buffer ``init(frame:bytes:lengths:)`` needs.
    static let tableSize = 4096

    /// Pixels decodable before the stop, at most the frame's area.
    var pixels: Int
    /// Why the walk stopped.
    var stop: Stop
    /// Byte offset in the file where the walk stopped.
    var offset: Int

    /// Walks `frame`'s data in `bytes` (the whole file) until the frame's
    /// area is covered or the stream goes wrong, using `lengths`
    /// (``tableSize`` entries, any content) as scratch.
    init(frame: FrameInfo, bytes: UnsafeBufferPointer<UInt8>, lengths: UnsafeMutablePointer<UInt16>) {
        let total = frame.rect.area
        let codeSize = Int(frame.lzwMinimumCodeSize)
        guard codeSize <= 8 else {
            (pixels, stop, offset) = (0, .badCodeSize(codeSize), frame.dataOffset)
            return
        }
        var position = frame.dataOffset + 1
        guard let base = bytes.baseAddress else {
            (pixels, stop, offset) = (0, .dataEnded, position)
            return
        }
        let end = min(frame.dataEnd, bytes.count)
        let clear = 1 << codeSize, endCode = clear + 1
        // Literals have length 1; entries above the end code are written
        // before they are read, so only the literals need setting.
        lengths.update(repeating: 1, count: clear)
        var next = endCode + 1, width = codeSize + 1, mask = (1 << width) - 1
        var previous = -1
        var count = 0
        // Bytes left in the current sub-block, and the bit buffer.
        var left = 0
        var bits: UInt64 = 0, bitCount = 0
        while count < total {
            // Read one code of `width` bits, byte by byte as the data allows.
            while bitCount < width {
                if left == 0 {
                    guard position < end, base[position] != 0 else {
                        (pixels, stop, offset) = (count, .dataEnded, position)
                        return
                    }
                    left = Int(base[position])
                    position &+= 1
                }
                guard position < end else {
                    (pixels, stop, offset) = (count, .dataEnded, position)
                    return
                }
                bits |= UInt64(base[position]) &<< UInt64(bitCount)
                position &+= 1
                left &-= 1
                bitCount &+= 8
            }
            let code = Int(truncatingIfNeeded: bits) & mask
            bits &>>= UInt64(width)
            bitCount &-= width

            if code >= clear {
                if code == clear {
                    next = endCode + 1
                    width = codeSize + 1
                    mask = (1 << width) - 1
                    previous = -1
                    continue
                }
                if code == endCode {
                    (pixels, stop, offset) = (count, .endCode, position)
                    return
                }
            }
            if previous < 0 {
                guard code < clear else {
                    (pixels, stop, offset) = (count, .badCode(code), position)
                    return
                }
                count &+= 1
                previous = code
                continue
            }
            guard code <= next, code < Self.tableSize else {
                (pixels, stop, offset) = (count, .badCode(code), position)
                return
            }
            let previousLength = lengths[previous]
            let length = code < next ? Int(lengths[code]) : Int(previousLength) &+ 1
            if next < Self.tableSize {
                lengths[next] = previousLength &+ 1
                next &+= 1
                if next == 1 << width, width < 12 {
                    width &+= 1
                    mask = (1 << width) - 1
                }
            }
            count &+= length
            previous = code
        }
        (pixels, stop, offset) = (total, .complete, position)
    }
}
