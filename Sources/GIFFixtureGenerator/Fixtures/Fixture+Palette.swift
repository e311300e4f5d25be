extension Fixture {
    /// `local-palette.gif`: a local table replaces the global one for its
    /// frame only.
    ///
    /// 4×4, standard global table. Frame 0: column x = index x (red, green,
    /// blue, yellow). Frame 1 at (0,2) 4×2 with a 4-entry local table
    /// (10,20,30), (40,50,60), (70,80,90), (100,110,120): column x = index x.
    /// Frame 2 at (3,0) 1×1, no local table: index 4 (global cyan).
    static func localPalette() throws(EncoderError) -> Fixture {
        let columns = (0..<8).map { (p: Int) -> UInt8 in UInt8(p % 4) }
        let local = [Color(10, 20, 30), Color(40, 50, 60), Color(70, 80, 90), Color(100, 110, 120)]
        let bytes = try encode(width: 4, height: 4, frames: [
            FrameSpec(rect: Rect(0, 0, 4, 4), pixels: columns + columns),
            FrameSpec(rect: Rect(0, 2, 4, 2), pixels: columns, palette: local),
            .fill(Rect(3, 0, 1, 1), Palettes.Index.cyan),
        ])
        return Fixture(
            name: "local-palette.gif",
            summary: "A local colour table wins over the global one, for its frame only. 4×4: columns red/green/blue/yellow (global); a 4×2 frame at (0,2) with a local table (10,20,30)…(100,110,120); global cyan at (3,0).",
            bytes: bytes)
    }

    /// `no-palette.gif`: with neither a global nor a local table every index
    /// is opaque black (transparency still applies).
    ///
    /// 4×2, one frame, GCE with transparent index 3. Rows: 0 1 2 3 / 3 2 1 0.
    /// giflib refuses to write an image without any colour table
    /// (`E_GIF_ERR_NO_COLOR_MAP`), so it is encoded with a 4-entry global table
    /// that is then cut out of the file.
    static func noPalette() throws(EncoderError) -> Fixture {
        var bytes = try encode(width: 4, height: 2, palette: Array(Palettes.standard.prefix(4)), frames: [
            FrameSpec(rect: Rect(0, 0, 4, 2), pixels: [0, 1, 2, 3, 3, 2, 1, 0], transparentIndex: 3),
        ])
        let layout = GIFLayout(bytes)
        bytes[10] &= 0x70  // No global table flag, size bits 0; colour resolution kept.
        bytes.removeSubrange(layout.globalTable)
        return Fixture(
            name: "no-palette.gif",
            summary: "No colour table at all: every index is opaque black; the transparent index (3) still leaves the canvas. 4×2, rows 0 1 2 3 / 3 2 1 0 (global table removed after encoding).",
            bytes: bytes)
    }

    /// `index-past-palette.gif`: an index past the table's end is opaque black.
    ///
    /// 4×2, a 2-entry global table (red, green), LZW code size 2, rows
    /// 0 1 2 3 / 3 2 1 0. giflib masks indices to the table's size, so it is
    /// encoded with a 4-entry table whose last two entries are then cut out.
    static func indexPastPalette() throws(EncoderError) -> Fixture {
        var bytes = try encode(width: 4, height: 2, palette: Array(Palettes.standard.prefix(4)), frames: [
            FrameSpec(rect: Rect(0, 0, 4, 2), pixels: [0, 1, 2, 3, 3, 2, 1, 0], disposal: nil),
        ])
        let layout = GIFLayout(bytes)
        bytes[10] = bytes[10] & 0xF8  // Table size 2^(0+1) = 2 entries.
        bytes.removeSubrange(layout.globalTable.lowerBound + 6..<layout.globalTable.upperBound)
        return Fixture(
            name: "index-past-palette.gif",
            summary: "An index past the colour table's end is opaque black. 4×2, global table red, green only; rows 0 1 2 3 / 3 2 1 0.",
            bytes: bytes)
    }

    /// `palette-256.gif`: a full 8-bit table and LZW codes up to 10 bits.
    ///
    /// 16×16, 256-entry table (entry i = (i, 255 − i, 7i mod 256)). Frame 0:
    /// pixel (x, y) = index 16y + x. Frame 1: pixel (x, y) = index 16x + y
    /// (the transpose). Both keep, 10 cs. ``truncated()`` cuts a copy of it.
    static func palette256() throws(EncoderError) -> Fixture {
        Fixture(
            name: "palette-256.gif",
            summary: "A full 256-entry table, every index once per frame (codes up to 10 bits). 16×16: index 16y + x, then its transpose 16x + y. Entry i = (i, 255 − i, 7i mod 256).",
            bytes: try palette256Bytes())
    }

    static func palette256Bytes() throws(EncoderError) -> [UInt8] {
        try encode(width: 16, height: 16, palette: Palettes.full256, frames: [
            FrameSpec(rect: Rect(0, 0, 16, 16), pixels: (0..<256).map { (p: Int) -> UInt8 in UInt8(p) }),
            FrameSpec(rect: Rect(0, 0, 16, 16), pixels: (0..<256).map { (p: Int) -> UInt8 in UInt8(p % 16 * 16 + p / 16) }),
        ])
    }
}
