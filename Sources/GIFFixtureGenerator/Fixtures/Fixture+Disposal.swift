extension Fixture {
    /// `disposal-N.gif`, N = 0…7, all built alike so their last frames differ
    /// only by the disposal rule.
    ///
    /// 4×4, background index magenta (never painted). Frame 0 fills red
    /// (keep); frame 1 paints blue at (1,1) 2×2 with disposal N; frame 2 paints
    /// green at (0,0) 1×1 with disposal N; frame 3 paints yellow at (3,3) 1×1
    /// (keep). Keep rules (0, 1, 5, 6, 7) leave blue and green; 2 clears each
    /// rectangle to transparent black; 3 and 4 restore red.
    static func disposal(_ n: Int) throws(EncoderError) -> Fixture {
        let meaning = switch n {
        case 0: "unspecified: keeps"
        case 1: "keep"
        case 2: "restore background: clears the rectangle to transparent black, not the background colour"
        case 3: "restore previous: puts back the canvas from before the frame"
        case 4: "reserved, acts as 3"
        default: "reserved, keeps"
        }
        let bytes = try encode(width: 4, height: 4, frames: [
            .fill(Rect(0, 0, 4, 4), Palettes.Index.red),
            .fill(Rect(1, 1, 2, 2), Palettes.Index.blue, disposal: n),
            .fill(Rect(0, 0, 1, 1), Palettes.Index.green, disposal: n),
            .fill(Rect(3, 3, 1, 1), Palettes.Index.yellow),
        ])
        return Fixture(
            name: "disposal-\(n).gif",
            summary: "Disposal \(n) (\(meaning)). 4×4: red fill; blue 2×2 at (1,1) and green 1×1 at (0,0) with disposal \(n); yellow 1×1 at (3,3).",
            bytes: bytes)
    }

    /// `disposal-3-first-frame.gif`: restoring before the first frame means
    /// transparent black, not the background colour and not the frame.
    ///
    /// 4×4: frame 0 fills red with disposal 3; frame 1 paints blue at (1,1) 2×2.
    static func disposalFirstFrame() throws(EncoderError) -> Fixture {
        let bytes = try encode(width: 4, height: 4, frames: [
            .fill(Rect(0, 0, 4, 4), Palettes.Index.red, disposal: 3),
            .fill(Rect(1, 1, 2, 2), Palettes.Index.blue),
        ])
        return Fixture(
            name: "disposal-3-first-frame.gif",
            summary: "Disposal 3 on the first frame restores the all-transparent start. 4×4: red fill (disposal 3), then blue 2×2 at (1,1).",
            bytes: bytes)
    }
}
