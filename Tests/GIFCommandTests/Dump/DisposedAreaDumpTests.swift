import Foundation
import Testing

/// A frame whose transparent pixels sit over a disposed area, written in
/// each format: the expected bytes come from the GIF rules applied to a GIF
/// built here, so its pixels are known.
@Suite("gif dump: transparency over disposed areas")
struct DisposedAreaDumpTests {
    /// A 3×1 GIF89a (an odd pixel count, so NIA pads each frame), global
    /// palette [red, green, blue, grey], no loop extension. Each image's LZW
    /// data has code size 2 and a clear code before every index, so every
    /// code is 3 bits.
    ///
    /// - Frame 0, 10 cs, keep: [0, 0, 0], the canvas red, red, red.
    /// - Frame 1, 20 cs, restore background: 2×1 at the origin, [1, 1]:
    ///   green, green, red.
    /// - Frame 2, 30 cs, restore previous, transparent index 3: [3, 2, 3].
    ///   Frame 1's area is cleared to transparent black first, so pixel 0
    ///   is transparent over the disposed area, pixel 1 blue, pixel 2 the
    ///   red left by frame 0.
    /// - Frame 3, 40 cs, keep, transparent index 3: [3, 3, 3]. Frame 2's
    ///   area is restored to the canvas before it (transparent,
    ///   transparent, red), which every pixel shows through.
    ///
    /// Grey, the transparent index's own colour, never shows.
    static let gif: [UInt8] =
        Array("GIF89a".utf8) + [3, 0, 1, 0, 0x81, 0, 0]  // 3×1, 4-entry global table
        + [0xFF, 0, 0, 0, 0xFF, 0, 0, 0, 0xFF, 0x80, 0x80, 0x80]  // red, green, blue, grey
        + [0x21, 0xF9, 4, 1 << 2, 10, 0, 0, 0]  // keep, 10 cs
        + [0x2C, 0, 0, 0, 0, 3, 0, 1, 0, 0, 2, 3, 0x04, 0x41, 0x14, 0]  // codes 4 0 4 0 4 0 5
        + [0x21, 0xF9, 4, 2 << 2, 20, 0, 0, 0]  // restore background, 20 cs
        + [0x2C, 0, 0, 0, 0, 2, 0, 1, 0, 0, 2, 2, 0x0C, 0x53, 0]  // codes 4 1 4 1 5
        + [0x21, 0xF9, 4, 3 << 2 | 1, 30, 0, 3, 0]  // restore previous, 30 cs, transparent 3
        + [0x2C, 0, 0, 0, 0, 3, 0, 1, 0, 0, 2, 3, 0x1C, 0xC5, 0x15, 0]  // codes 4 3 4 2 4 3 5
        + [0x21, 0xF9, 4, 1 << 2 | 1, 40, 0, 3, 0]  // keep, 40 cs, transparent 3
        + [0x2C, 0, 0, 0, 0, 3, 0, 1, 0, 0, 2, 3, 0x1C, 0xC7, 0x15, 0]  // codes 4 3 4 3 4 3 5
        + [0x3B]

    /// A pixel of the composited canvas: a palette colour, or transparent.
    enum Pixel { case red, green, blue, transparent }

    /// The four canvases, from the rules above.
    static let canvases: [[Pixel]] = [
        [.red, .red, .red],
        [.green, .green, .red],
        [.transparent, .blue, .red],
        [.transparent, .transparent, .red],
    ]

    /// (red, green, blue, alpha) of a pixel, not premultiplied.
    static func rgba(_ pixel: Pixel) -> [UInt8] {
        switch pixel {
        case .red: [255, 0, 0, 255]
        case .green: [0, 255, 0, 255]
        case .blue: [0, 0, 255, 255]
        case .transparent: [0, 0, 0, 0]
        }
    }

    static func le32(_ value: UInt64) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }

    @Test("NIA: every frame's BGRA canvas, its cumulative time and padding, and the footer")
    func nia() async throws {
        let out = try TemporaryDirectory()
        let run = try await GIFRun(["dump", try out.file("disposed.gif", Self.gif), "--format", "nia", "-o", "-"])
        #expect(run.status == 0)
        var expected: [UInt8] = [0x6E, 0xC3, 0xAF, 0x41, 0xFF, 0x62, 0x6E, 0x34] + Self.le32(3) + Self.le32(1)
        var centiseconds: UInt64 = 0
        for (canvas, delay) in zip(Self.canvases, [10, 20, 30, 40] as [UInt64]) {
            centiseconds += delay
            let flicks = centiseconds * 7_056_000  // 705,600,000 flicks a second
            expected += Self.le32(flicks) + Self.le32(flicks >> 32)
            expected += [0x6E, 0xC3, 0xAF, 0x45, 0xFF, 0x62, 0x6E, 0x34] + Self.le32(3) + Self.le32(1)
            for pixel in canvas {
                let (r, g, b, a) = (Self.rgba(pixel)[0], Self.rgba(pixel)[1], Self.rgba(pixel)[2], Self.rgba(pixel)[3])
                expected += [b, g, r, a]
            }
            expected += [0, 0, 0, 0]  // 3 pixels: odd
        }
        // No loop extension, more than one frame: played once.
        expected += Self.le32(1) + [0, 0, 0, 0x80]
        #expect(run.output == expected)
    }

    @Test("PAM: every frame's RGBA canvas, transparent pixels as alpha 0")
    func pam() async throws {
        let out = try TemporaryDirectory()
        let run = try await GIFRun(["dump", try out.file("disposed.gif", Self.gif), "--format", "pam", "-o", "-"])
        #expect(run.status == 0)
        let expected = Self.canvases.flatMap { canvas in DumpTests.pamHeader(3, 1) + canvas.flatMap(Self.rgba) }
        #expect(run.output == expected)
    }

    @Test("PPM: every frame's canvas over the background, to files and to standard output")
    func ppm() async throws {
        let out = try TemporaryDirectory()
        let input = try out.file("disposed.gif", Self.gif)
        let background: [UInt8] = [0x10, 0x20, 0x30]
        let frames = Self.canvases.map { canvas in
            DumpTests.ppmHeader(3, 1) + canvas.flatMap { $0 == .transparent ? background : Array(Self.rgba($0).prefix(3)) }
        }
        let toStandardOutput = try await GIFRun(["dump", input, "-o", "-", "--background", "102030"])
        #expect(toStandardOutput.status == 0)
        #expect(toStandardOutput.output == frames.flatMap { $0 })
        let toFiles = try await GIFRun(["dump", input, "-o", out.url.appending(path: "frames").path, "--background", "102030"])
        #expect(toFiles.status == 0)
        for (index, frame) in frames.enumerated() {
            let data = [UInt8](try Data(contentsOf: out.url.appending(path: "frames/frame-00\(index).ppm")))
            #expect(data == frame)
        }
    }
}
