/// The procedural animation in `demo.gif`, for the demo and the benchmarks.
///
/// 160×120, 240 frames in 6 segments of 40, looping forever. Frame 40s
/// (segment s's first) fills the canvas with a grid of 10×8 cells: pixel
/// (x, y) = index x/10 + 16·((y/8 + s) mod 14), disposal 0 when s is even and
/// 1 when odd, 20 cs. Frames 40s + j, j = 1…39, are a 16×16 disc at
/// (4 + 3j + 4s, 4 + 2·|(5j + 9s) mod 96 − 48|), 4 cs, transparent index 0
/// outside the disc (pixel (u, v) is inside when (2u−15)² + (2v−15)² ≤ 225),
/// a ring (> 121) of index 224 + j mod 16 and a core of index
/// 240 + (5s + j) mod 16; their disposal is 3, 2, 1, 3, 2, 1 for segments 0–5.
/// Palette entry i < 224 = (64 + 12·(i mod 16), 64 + 12·(i/16), 160);
/// entry i ≥ 224 = (255, 8·(i − 224), 40).
enum Demo {
    static let width = 160
    static let height = 120
    static let segments = 6
    static let framesPerSegment = 40

    static let palette: [Color] = (0..<256).map { (i: Int) -> Color in
        i < 224
            ? Color(UInt8(64 + 12 * (i % 16)), UInt8(64 + 12 * (i / 16)), 160)
            : Color(255, UInt8(8 * (i - 224)), 40)
    }

    /// Segment `s`'s full-canvas grid.
    static func background(segment s: Int) -> FrameSpec {
        let pixels = (0..<width * height).map { (p: Int) -> UInt8 in
            UInt8((p % width) / 10 + 16 * ((p / width / 8 + s) % 14))
        }
        return FrameSpec(rect: Rect(0, 0, width, height), pixels: pixels, disposal: s % 2, delay: 20)
    }

    /// Sprite `j` (1…39) of segment `s`.
    static func sprite(_ j: Int, segment s: Int) -> FrameSpec {
        let rect = Rect(4 + 3 * j + 4 * s, 4 + 2 * abs((5 * j + 9 * s) % 96 - 48), 16, 16)
        let ring = UInt8(224 + j % 16), core = UInt8(240 + (5 * s + j) % 16)
        let pixels = (0..<256).map { (p: Int) -> UInt8 in
            let du = 2 * (p % 16) - 15, dv = 2 * (p / 16) - 15
            let d = du * du + dv * dv
            return d > 225 ? 0 : d > 121 ? ring : core
        }
        return FrameSpec(rect: rect, pixels: pixels, disposal: [3, 2, 1][s % 3], delay: 4, transparentIndex: 0)
    }
}

extension Fixture {
    /// `demo.gif`: see ``Demo``.
    static func demo() throws(EncoderError) -> Fixture {
        let encoder = try GIFEncoder(width: Demo.width, height: Demo.height, palette: Demo.palette, backgroundIndex: 0)
        try encoder.putLoop(0)
        try encoder.putComment("swift-gif-engine demo: 240 frames, 160x120")
        for s in 0..<Demo.segments {
            try encoder.put(Demo.background(segment: s))
            for j in 1..<Demo.framesPerSegment {
                try encoder.put(Demo.sprite(j, segment: s))
            }
        }
        return Fixture(
            name: "demo.gif",
            summary: "Demo and benchmark animation. 160×120, 240 frames, loops forever: 6 segments, each a full-canvas grid (20 cs, disposal 0 or 1) then 39 transparent 16×16 discs (4 cs) with disposal 3, 2, 1, 3, 2, 1 by segment. Construction in Sources/GIFFixtureGenerator/Fixtures/Fixture+Demo.swift.",
            bytes: try encoder.finish())
    }
}
