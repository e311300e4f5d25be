/// One generated GIF: its file name, what it pins down, and its bytes.
struct Fixture {
    /// The file name inside the output directory, e.g. `disposal-2.gif`.
    var name: String
    /// One line for `Fixtures/README.md`: the construction and the rule it pins.
    var summary: String
    /// The file's bytes.
    var bytes: [UInt8]
}

/// A frame of a small fixture: a rectangle of palette indices and its
/// graphic control extension.
struct FrameSpec {
    var rect: Rect
    /// `rect.area` palette indices, display order.
    var pixels: [UInt8]
    /// The GCE's disposal field, 0–7; `nil` writes no GCE at all.
    var disposal: Int? = 1
    /// Centiseconds.
    var delay: Int = 10
    var transparentIndex: UInt8? = nil
    var interlaced = false
    /// A local colour table.
    var palette: [Color]? = nil

    /// A frame filling `rect` with one index.
    static func fill(_ rect: Rect, _ index: UInt8, disposal: Int? = 1, delay: Int = 10) -> FrameSpec {
        FrameSpec(rect: rect, pixels: [UInt8](repeating: index, count: rect.area), disposal: disposal, delay: delay)
    }
}

extension Fixture {
    /// Encodes a small animation: screen, global table, optional loop
    /// extension and comment, then each frame with its GCE.
    static func encode(
        width: Int, height: Int, palette: [Color]? = Palettes.standard, loop: Int? = nil, comment: String? = nil,
        frames: [FrameSpec]
    ) throws(EncoderError) -> [UInt8] {
        let encoder = try GIFEncoder(width: width, height: height, palette: palette)
        if let loop { try encoder.putLoop(loop) }
        if let comment { try encoder.putComment(comment) }
        for frame in frames {
            try encoder.put(frame)
        }
        return try encoder.finish()
    }
}

extension GIFEncoder {
    /// Writes `frame`'s GCE (if any) and image.
    func put(_ frame: FrameSpec) throws(EncoderError) {
        if let disposal = frame.disposal {
            try putControl(disposal: disposal, delay: frame.delay, transparentIndex: frame.transparentIndex)
        }
        try putImage(frame.rect, interlaced: frame.interlaced, palette: frame.palette, pixels: frame.pixels)
    }
}
