/// GIF image data that a decoder must work through in full: each pixel a
/// 9-bit literal code, with a clear code every 250 so that the code width
/// never grows, for the large and many-frame GIFs the benchmarks build.
public enum LiteralLZW {
    /// Appends the image data of `count` pixels, pixel `i` the colour index
    /// `index(i)`: the minimum code size (8), the codes in sub-blocks of up
    /// to 255 bytes, and the terminator.
    @inlinable
    public static func append(pixels count: Int, _ index: (Int) -> Int, to out: inout [UInt8]) {
        out.append(8)
        // Where the open sub-block's length goes; filled in when it closes.
        var lengthAt = out.count
        out.append(0)
        var bits = 0, held = 0
        func emit(_ code: Int) {
            bits |= code << held
            held += 9
            while held >= 8 {
                put(UInt8(bits & 0xFF))
                bits >>= 8
                held -= 8
            }
        }
        func put(_ byte: UInt8) {
            if out.count - lengthAt - 1 == 255 {
                out[lengthAt] = 255
                lengthAt = out.count
                out.append(0)
            }
            out.append(byte)
        }
        emit(256)
        var run = 0
        for pixel in 0..<count {
            if run == 250 {
                emit(256)
                run = 0
            }
            emit(index(pixel))
            run += 1
        }
        emit(257)
        if held > 0 { put(UInt8(bits & 0xFF)) }
        // The open sub-block closes; an empty one is the terminator itself.
        let last = out.count - lengthAt - 1
        out[lengthAt] = UInt8(last)
        if last > 0 { out.append(0) }
    }
}
