import EngineSupport

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
    package var decodedPixelCount: Int

    /// Whether every pixel was decoded.
    public var isComplete: Bool { decodedPixelCount == info.rect.area }

    /// The rectangle as RGBA8 with the browsers' rules for a lone
    /// frame: the transparent index gives alpha 0 and keeps the palette's RGB;
    /// an index past the palette, or any index without one, is opaque black.
    public func rgba() -> [UInt8] {
        var words = ColorTable(palette).words
        if let transparent = info.transparentIndex {
            words[Int(transparent)] &= UInt32(littleEndian: 0x00FF_FFFF)
        }
        // The table's words are already in memory order (R, G, B, A), so each
        // pixel is one 4-byte store; pointers keep unoptimised builds fast too.
        return [UInt8](uninitializedCapacity: indices.count * 4) { out, initialized in
            words.withUnsafeBufferPointer { words in
                indices.withUnsafeBufferPointer { indices in
                    guard let base = out.baseAddress else { return }
                    let pixels = UnsafeMutableRawPointer(base)
                    for i in 0..<indices.count {
                        pixels.storeBytes(of: words[Int(indices[i])], toByteOffset: i * 4, as: UInt32.self)
                    }
                }
            }
            initialized = indices.count * 4
        }
    }
}
