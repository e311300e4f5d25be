extension Fixture {
    /// `first-frame-growth.gif`: a first frame beyond the logical screen
    /// grows the canvas; later frames are clipped to it.
    ///
    /// Screen 4×4. Frame 0: red at (2,2) 4×4, so the canvas is 6×6. Frame 1:
    /// blue at (4,4) 4×4 with disposal 2: only (4..5, 4..5) shows, and only
    /// that is cleared. Frame 2: green at (0,0) 1×1. Frame 3: yellow at
    /// (10,10) 2×2, wholly outside: nothing changes.
    static func firstFrameGrowth() throws(EncoderError) -> Fixture {
        let i = Palettes.Index.self
        let bytes = try encode(width: 4, height: 4, frames: [
            .fill(Rect(2, 2, 4, 4), i.red),
            .fill(Rect(4, 4, 4, 4), i.blue, disposal: 2),
            .fill(Rect(0, 0, 1, 1), i.green),
            .fill(Rect(10, 10, 2, 2), i.yellow),
        ])
        return Fixture(
            name: "first-frame-growth.gif",
            summary: "The first frame grows the canvas past the 4×4 screen to 6×6; later frames, and disposal 2, are clipped. Red 4×4 at (2,2); blue 4×4 at (4,4) with disposal 2; green at (0,0); yellow 2×2 at (10,10), off the canvas.",
            bytes: bytes)
    }

    /// `zero-size-frame.gif`: a zero-width or zero-height frame paints
    /// nothing but is still a frame with its delay.
    ///
    /// 4×4. Frame 0: red fill, 10 cs. Frame 1: (1,1) 0×2, 20 cs, disposal 2.
    /// Frame 2: (2,2) 3×0, 30 cs, disposal 2. Frame 3: green at (0,0), 40 cs.
    /// giflib will not encode an empty frame, so frames 1 and 2 are encoded as
    /// blue 1×2 and 3×1 frames whose descriptors are then patched to width 0
    /// and height 0; their LZW data stays in the file and must be skipped.
    static func zeroSizeFrame() throws(EncoderError) -> Fixture {
        let i = Palettes.Index.self
        var bytes = try encode(width: 4, height: 4, frames: [
            .fill(Rect(0, 0, 4, 4), i.red, delay: 10),
            .fill(Rect(1, 1, 1, 2), i.blue, disposal: 2, delay: 20),
            .fill(Rect(2, 2, 3, 1), i.blue, disposal: 2, delay: 30),
            .fill(Rect(0, 0, 1, 1), i.green, delay: 40),
        ])
        let images = GIFLayout(bytes).images
        bytes.storeLE16(0, at: images[1].descriptor + 5)  // width
        bytes.storeLE16(0, at: images[2].descriptor + 7)  // height
        return Fixture(
            name: "zero-size-frame.gif",
            summary: "Zero-size frames paint nothing but count, with their delays. 4×4: red (10 cs); 0×2 at (1,1) (20 cs, disposal 2); 3×0 at (2,2) (30 cs, disposal 2); green at (0,0) (40 cs). The empty frames keep 1- and 3-pixel LZW data.",
            bytes: bytes)
    }

    /// `extra-pixel-data.gif`: pixel data beyond width × height is ignored.
    ///
    /// 4×4. Frame 0 is encoded as rows red, green, blue, yellow at (0,0) 4×4,
    /// then its descriptor is patched to 4×2: only red and green rows show.
    /// Frame 1: white at (0,0) 1×1, to show that decoding carries on.
    static func extraPixelData() throws(EncoderError) -> Fixture {
        let i = Palettes.Index.self
        let rows = [i.red, i.green, i.blue, i.yellow].flatMap { [UInt8](repeating: $0, count: 4) }
        var bytes = try encode(width: 4, height: 4, frames: [
            FrameSpec(rect: Rect(0, 0, 4, 4), pixels: rows),
            .fill(Rect(0, 0, 1, 1), i.white),
        ])
        bytes.storeLE16(2, at: GIFLayout(bytes).images[0].descriptor + 7)
        return Fixture(
            name: "extra-pixel-data.gif",
            summary: "Pixel data past width × height is ignored. 4×4 screen: a 4×2 frame whose data holds 4 rows (red, green, blue, yellow); then white at (0,0).",
            bytes: bytes)
    }
}
