extension Fixture {
    /// `truncated.gif`: `palette-256.gif` cut half-way through frame 1's
    /// image data. Frame 0 decodes whole; frame 1 shows the pixels decoded
    /// before the cut, then the decoder reports the truncation in frame 1.
    static func truncated() throws(EncoderError) -> Fixture {
        let bytes = try palette256Bytes()
        let frame = GIFLayout(bytes).images[1]
        let cut = frame.data + (frame.dataEnd - frame.data) / 2
        return Fixture(
            name: "truncated.gif",
            summary: "palette-256.gif cut at byte \(cut), half-way through frame 1's image data (\(frame.data)..<\(frame.dataEnd)): frame 0 intact, frame 1 partial, then a truncation error naming frame 1.",
            bytes: Array(bytes[..<cut]))
    }

    /// `no-trailer.gif`: a missing trailer is not an error.
    /// 2×2: red, green; the final `0x3B` removed.
    static func noTrailer() throws(EncoderError) -> Fixture {
        var bytes = try encode(width: 2, height: 2, frames: [
            .fill(Rect(0, 0, 2, 2), Palettes.Index.red),
            .fill(Rect(0, 0, 2, 2), Palettes.Index.green),
        ])
        bytes.removeSubrange(GIFLayout(bytes).trailer...)
        return Fixture(
            name: "no-trailer.gif",
            summary: "A missing trailer is not an error. 2×2: red, green, and no 0x3B at the end.",
            bytes: bytes)
    }

    /// `unknown-block.gif`: a byte other than `0x21`, `0x2C` or `0x3B` where a
    /// block should start ends the stream as the trailer would.
    /// 2×2: red frame, the byte `0x99`, then a green frame that must be ignored.
    static func unknownBlock() throws(EncoderError) -> Fixture {
        var bytes = try encode(width: 2, height: 2, frames: [
            .fill(Rect(0, 0, 2, 2), Palettes.Index.red),
            .fill(Rect(0, 0, 2, 2), Palettes.Index.green),
        ])
        let images = GIFLayout(bytes).images
        bytes.insert(0x99, at: images[0].dataEnd)
        return Fixture(
            name: "unknown-block.gif",
            summary: "An unknown block byte (0x99) ends the stream like a trailer: 2×2 red frame, 0x99, then a green frame nobody sees. One frame, no error.",
            bytes: bytes)
    }
}
