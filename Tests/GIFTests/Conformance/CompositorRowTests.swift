import Testing
@testable import GIF

/// The compositor draws rows a word at a time, 8 pixels at a time with AVX2
/// gathers, or 64 at a time with AVX-512 VBMI (`Compositor.RowKernel`). Each
/// must give the canvas the browsers' rules give. The picture is built
/// so that every pixel is known: a 256-entry palette whose entry `i` is
/// (i, 255 − i, 7i mod 256), rows of 203 pixels (three groups of 64 and a
/// tail of 11, not a multiple of 8 either), every index 0–255, a frame
/// clipped by the canvas's right edge with a transparent index, frames
/// narrower than one group of 8 or of 64, and a sprite with every other
/// pixel transparent.
@Suite struct CompositorRowTests {
    static let width = 203, height = 7
    static let palette: [[UInt8]] = (0..<256).map { [UInt8($0), UInt8(255 - $0), UInt8(($0 * 7) & 255)] }
    static let transparent: UInt8 = 77

    /// One frame: its rectangle, its indices row-major, its transparent index.
    struct Frame {
        let x: Int, y: Int, width: Int, height: Int
        let indices: [UInt8]
        let transparent: UInt8?
    }

    static let frames: [Frame] = [
        // The whole canvas; index (13x + 29y) mod 256 reaches all 256.
        Frame(x: 0, y: 0, width: width, height: height,
              indices: (0..<width * height).map { UInt8(($0 % width * 13 + $0 / width * 29) & 255) },
              transparent: nil),
        // 150 wide at x = 100: clipped to 103 columns; a third of it transparent.
        Frame(x: 100, y: 1, width: 150, height: 4,
              indices: (0..<600).map { i in
                  let (x, y) = (i % 150, i / 150)
                  return (x + y) % 3 == 0 ? transparent : UInt8((x * 7 + y * 31 + 128) & 255)
              },
              transparent: transparent),
        // Narrower than one group of 64, no transparency.
        Frame(x: 3, y: 2, width: 5, height: 3, indices: (0..<15).map { UInt8(241 + $0) }, transparent: nil),
        // A sprite: 16 wide (the narrowest rectangle drawn as one with the
        // vector path), every other pixel of a checkerboard transparent.
        Frame(x: 40, y: 2, width: 16, height: 5, indices: checkerboard(), transparent: transparent),
        // 37 wide, cut by the canvas's right edge to 23 and its bottom to 3
        // rows: one masked group a row, a run of transparent pixels on the left.
        Frame(x: 180, y: 4, width: 37, height: 6, indices: leftTransparent(), transparent: transparent),
    ]

    /// 16 × 5 indices, the transparent one where x + y is even.
    static func checkerboard() -> [UInt8] {
        (0..<80).map { (i: Int) -> UInt8 in (i % 16 + i / 16) % 2 == 0 ? transparent : UInt8((i * 11 + 3) & 255) }
    }

    /// 37 × 6 indices, the first 9 of each row the transparent one.
    static func leftTransparent() -> [UInt8] {
        (0..<222).map { (i: Int) -> UInt8 in i % 37 < 9 ? transparent : UInt8((i * 5 + 200) & 255) }
    }

    static func gif() -> [UInt8] {
        var builder = GIFBuilder(width: width, height: height, palette: palette)
        for frame in frames {
            builder.control(transparent: frame.transparent)
            builder.image(x: frame.x, y: frame.y, width: frame.width, height: frame.height, indices: frame.indices)
        }
        builder.trailer()
        return builder.bytes
    }

    /// The canvas after each frame, by the rules: a transparent-black start,
    /// each frame's opaque pixels over it within the canvas, disposal none.
    static func expectedCanvases(format: PixelFormat) -> [[UInt8]] {
        var canvas = [UInt8](repeating: 0, count: width * height * 4)
        var result: [[UInt8]] = []
        for frame in frames {
            for i in frame.indices.indices where frame.indices[i] != frame.transparent {
                let x = frame.x + i % frame.width, y = frame.y + i / frame.width
                guard x < width, y < height else { continue }
                let rgb = palette[Int(frame.indices[i])]
                let pixel: [UInt8] = format == .rgba8 ? rgb + [255] : [rgb[2], rgb[1], rgb[0], 255]
                canvas.replaceSubrange((y * width + x) * 4..<(y * width + x) * 4 + 4, with: pixel)
            }
            result.append(canvas)
        }
        return result
    }

    /// The canvas after each frame, drawn by a compositor with `rows`.
    static func canvases(format: PixelFormat, rows: Compositor.RowKernel) throws -> [[UInt8]] {
        let bytes = gif()
        let image = try GIFImage(bytes: bytes)
        var compositor = Compositor(canvasSize: image.info.canvasSize, format: format, rows: rows)
        let decoder = FrameDecoder()
        var result: [[UInt8]] = []
        for frame in image.info.frames {
            compositor.begin(frame, globalPalette: image.info.globalPalette)
            let outcome = bytes.withUnsafeBufferPointer { decoder.decode(frame, bytes: $0) }
            decoder.withIndices { compositor.draw(frame, indices: $0, outcome: outcome) }
            compositor.end(frame, outcome: outcome)
            result.append(compositor.canvas)
        }
        return result
    }

    @Test(arguments: [PixelFormat.rgba8, .premultipliedBGRA8], Compositor.RowKernel.available)
    func rowsDrawTheKnownCanvas(format: PixelFormat, rows: Compositor.RowKernel) throws {
        let drawn = try Self.canvases(format: format, rows: rows)
        let expected = Self.expectedCanvases(format: format)
        #expect(drawn.count == expected.count)
        for (index, (canvas, want)) in zip(drawn, expected).enumerated() {
            let first = canvas.indices.first { $0 < want.count && canvas[$0] != want[$0] }.map { $0 / 4 }
            #expect(canvas.count == want.count && first == nil,
                    "frame \(index), \(format), \(rows) rows: first wrong pixel \(String(describing: first))")
        }
    }

    @Test func theIteratorDrawsTheKnownCanvas() throws {
        // Whichever row drawing this processor has.
        var frames = try GIFImage(bytes: Self.gif()).makeFrameIterator()
        for want in Self.expectedCanvases(format: .rgba8) {
            let pixels = try #require(try frames.next()).pixels
            #expect(pixels.count == want.count && pixels == want)
        }
    }

    @Test func rowKernelsOnlyWhereTheProcessorHasThem() {
        for kernel in Compositor.RowKernel.allCases {
            let compositor = Compositor(canvasSize: PixelSize(width: 1, height: 1), rows: kernel)
            #expect(compositor.rowKernel == (Compositor.RowKernel.available.contains(kernel) ? kernel : .portable))
        }
        #expect(Compositor.RowKernel.available.contains(.best))
    }
}
