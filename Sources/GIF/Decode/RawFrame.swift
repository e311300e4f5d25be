/// One frame as stored: the palette indices of its own rectangle, not
/// composited, for callers who do their own colour handling.
public struct RawFrame: Sendable, Hashable {
    /// What the scanner knows about the frame.
    public var info: FrameInfo
    /// `rect.width × rect.height` palette indices, row-major in display order
    /// (interlaced rows are already put in place). Pixels the data did not
    /// reach are 0.
    public var indices: [UInt8]
    /// The palette in force: the local table, else the global one; `nil`
    /// when the file has neither (every index is then opaque black).
    public var palette: Palette?
    /// How many pixels were decoded, in stream order; less than the area when
    /// the data failed part-way.
    public var decodedPixelCount: Int

    /// Whether every pixel was decoded.
    public var isComplete: Bool { decodedPixelCount == info.rect.area }

    /// The rectangle as RGBA8 with the browsers' rules for a lone
    /// frame: the transparent index gives alpha 0 and keeps the palette's RGB;
    /// an index past the palette, or any index without one, is opaque black.
    public func rgba() -> [UInt8] {
        let words = ColorTable(palette).words
        var out = [UInt8](repeating: 0, count: indices.count * 4)
        let transparent = info.transparentIndex.map(Int.init) ?? -1
        for (i, index) in indices.enumerated() {
            var word = UInt32(littleEndian: words[Int(index)])
            if Int(index) == transparent { word &= 0x00FF_FFFF }
            out[i * 4] = UInt8(truncatingIfNeeded: word)
            out[i * 4 + 1] = UInt8(truncatingIfNeeded: word >> 8)
            out[i * 4 + 2] = UInt8(truncatingIfNeeded: word >> 16)
            out[i * 4 + 3] = UInt8(truncatingIfNeeded: word >> 24)
        }
        return out
    }
}
