extension Fixture {
    /// `transparency.gif`: a transparent index leaves the canvas as it was,
    /// and a GCE's transparency applies to its own frame only.
    ///
    /// 4×4. Frame 0: red, except gray (index 7, transparent) at (3,3), so
    /// that pixel stays transparent black. Frame 1: white (index 6,
    /// transparent) where x + y is even, blue where odd. Frame 2, without a
    /// GCE: gray (index 7) at (0,0), opaque this time.
    static func transparency() throws(EncoderError) -> Fixture {
        let i = Palettes.Index.self
        var first = [UInt8](repeating: i.red, count: 16)
        first[15] = i.gray
        let checker = (0..<16).map { (p: Int) -> UInt8 in (p % 4 + p / 4) % 2 == 0 ? i.white : i.blue }
        let bytes = try encode(width: 4, height: 4, frames: [
            FrameSpec(rect: Rect(0, 0, 4, 4), pixels: first, transparentIndex: i.gray),
            FrameSpec(rect: Rect(0, 0, 4, 4), pixels: checker, transparentIndex: i.white),
            .fill(Rect(0, 0, 1, 1), i.gray, disposal: nil),
        ])
        return Fixture(
            name: "transparency.gif",
            summary: "Transparent pixels leave the canvas as it was (transparent black at first); transparency is per frame. 4×4: red with transparent gray at (3,3); a blue/transparent-white checkerboard; opaque gray at (0,0) without a GCE.",
            bytes: bytes)
    }

    /// `gce-last-wins.gif`: of two GCEs before one image the last wins, and
    /// a GCE applies to the next image only.
    ///
    /// 2×2. Before frame 0: a GCE (disposal 2, delay 50 cs, no transparency),
    /// then a GCE (disposal 1, delay 7 cs, transparent index 1 green). Frame 0:
    /// red, green at (1,0). Frame 1, without a GCE: green at (1,0) 1×1.
    static func lastControlWins() throws(EncoderError) -> Fixture {
        let i = Palettes.Index.self
        let encoder = try GIFEncoder(width: 2, height: 2, palette: Palettes.standard)
        try encoder.putControl(disposal: 2, delay: 50)
        try encoder.put(FrameSpec(rect: Rect(0, 0, 2, 2), pixels: [i.red, i.green, i.red, i.red], disposal: 1, delay: 7, transparentIndex: i.green))
        try encoder.put(.fill(Rect(1, 0, 1, 1), i.green, disposal: nil))
        return Fixture(
            name: "gce-last-wins.gif",
            summary: "With two GCEs before one image the last wins (disposal 1, 7 cs, transparent green, not disposal 2, 50 cs); a GCE applies to the next image only. 2×2: red with transparent green at (1,0); then opaque green at (1,0) without a GCE.",
            bytes: try encoder.finish())
    }
}
