/// The long animation in `screen-recording.gif`: what a screen recorder
/// writes for someone typing, a full first frame and then, frame after frame,
/// a small changed rectangle. For the index tier's tests and benchmark: the
/// canvases of all its frames (600 × 1,024,000 bytes) dwarf any frame cache,
/// while the frames' palette indices take about 0.6 MB.
///
/// 640×400, 600 frames, looping forever, disposal 1 (none) and no
/// transparency throughout, 16-entry palette ``ScreenRecording/palette``.
/// Frame 0 (10 cs) is the desktop: pixel (x, y) is index 1 inside the
/// window (20 ≤ x < 620, 40 ≤ y < 380), 2 in its title bar (the window's
/// rows 40…55), else 0. Frame k ≥ 1 (3 cs) types character k − 1 at
/// column c = (k − 1) mod 70, line l = ((k − 1) / 70) mod 20: a 16×14 rectangle at
/// (40 + 8c, 64 + 16l) whose left 8×14 cell is the glyph (pixel (u, v) is
/// index 3 + (k mod 5) when (u·7 + v·3 + k) mod 5 < 2 and u < 7, else 1)
/// and whose right cell is the cursor (index 15 where u = 8 or u = 9, else
/// 1). Every 50th frame (k = 50, 100, …) is instead a 200×120 pane at
/// (400, 250) filled with index 8 + (k / 50) mod 7, a row of index 15 every
/// 10 rows.
enum ScreenRecording {
    static let width = 640
    static let height = 400
    static let frameCount = 600

    static let palette: [Color] = [
        Color(40, 44, 52), Color(250, 250, 250), Color(60, 120, 200),
        Color(20, 20, 20), Color(200, 40, 40), Color(40, 160, 60), Color(120, 60, 180), Color(200, 140, 20),
        Color(230, 230, 240), Color(220, 240, 220), Color(240, 220, 220), Color(220, 220, 250),
        Color(250, 240, 200), Color(200, 240, 250), Color(240, 200, 250), Color(0, 0, 0),
    ]

    static func desktop() -> FrameSpec {
        let pixels = (0..<width * height).map { (p: Int) -> UInt8 in
            let x = p % width, y = p / width
            guard (20..<620).contains(x), (40..<380).contains(y) else { return 0 }
            return y < 56 ? 2 : 1
        }
        return FrameSpec(rect: Rect(0, 0, width, height), pixels: pixels, disposal: 1, delay: 10)
    }

    /// Frame `k`, 1…599.
    static func frame(_ k: Int) -> FrameSpec {
        if k % 50 == 0 {
            let fill = UInt8(8 + (k / 50) % 7)
            let pixels = (0..<200 * 120).map { (p: Int) -> UInt8 in (p / 200) % 10 == 0 ? 15 : fill }
            return FrameSpec(rect: Rect(400, 250, 200, 120), pixels: pixels, disposal: 1, delay: 3)
        }
        let c = (k - 1) % 70, l = ((k - 1) / 70) % 20
        let ink = UInt8(3 + k % 5)
        let pixels = (0..<16 * 14).map { (p: Int) -> UInt8 in
            let u = p % 16, v = p / 16
            if u < 8 { return u < 7 && (u * 7 + v * 3 + k) % 5 < 2 ? ink : 1 }
            return u == 8 || u == 9 ? 15 : 1
        }
        return FrameSpec(rect: Rect(40 + 8 * c, 64 + 16 * l, 16, 14), pixels: pixels, disposal: 1, delay: 3)
    }
}

extension Fixture {
    /// `screen-recording.gif`: see ``ScreenRecording``.
    static func screenRecording() throws(EncoderError) -> Fixture {
        let encoder = try GIFEncoder(
            width: ScreenRecording.width, height: ScreenRecording.height, palette: ScreenRecording.palette,
            backgroundIndex: 0)
        try encoder.putLoop(0)
        try encoder.put(ScreenRecording.desktop())
        for k in 1..<ScreenRecording.frameCount {
            try encoder.put(ScreenRecording.frame(k))
        }
        return Fixture(
            name: "screen-recording.gif",
            summary: "Index-tier test and benchmark animation. 640×400, 600 frames, loops forever, disposal 1: a full desktop frame, then 3 cs frames each a 16×14 typed character and cursor (a 200×120 pane every 50th frame), so 600 canvases take 614 MB and the frames' indices 0.6 MB. Construction in Sources/GIFFixtureGenerator/Fixtures/Fixture+ScreenRecording.swift.",
            bytes: try encoder.finish())
    }
}
