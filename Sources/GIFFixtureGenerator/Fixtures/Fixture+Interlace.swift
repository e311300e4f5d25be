extension Fixture {
    /// `interlace.gif`: interlaced rows are stored in four passes.
    ///
    /// 4×10 with the 16-entry ramp palette. Frame 0, interlaced, full canvas:
    /// pixel (x, y) = index (y + 2x) mod 16, so every row differs and ten rows
    /// need all four passes. Frame 1, interlaced, at (1,1) 2×9: pixel (x, y)
    /// of the frame = index (x + y + 8) mod 16, so pass rows are offset by
    /// the frame's top.
    static func interlace() throws(EncoderError) -> Fixture {
        let first = (0..<40).map { (p: Int) -> UInt8 in UInt8((p / 4 + 2 * (p % 4)) % 16) }
        let second = (0..<18).map { (p: Int) -> UInt8 in UInt8((p % 2 + p / 2 + 8) % 16) }
        let bytes = try encode(width: 4, height: 10, palette: Palettes.ramp16, frames: [
            FrameSpec(rect: Rect(0, 0, 4, 10), pixels: first, interlaced: true),
            FrameSpec(rect: Rect(1, 1, 2, 9), pixels: second, interlaced: true),
        ])
        return Fixture(
            name: "interlace.gif",
            summary: "Interlaced frames: rows 0,8; 4; 2,6; 1,3,5,7,9. 4×10: a full interlaced frame with index (y + 2x) mod 16 per pixel, then an interlaced 2×9 frame at (1,1) with index (x + y + 8) mod 16 (frame coordinates). Palette: entry i = (16i, 128, 255 − 16i).",
            bytes: bytes)
    }
}
