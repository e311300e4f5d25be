import Testing
@testable import GIF

/// The compositor does not clear a new or rewound canvas up front; the first
/// frame's drawing and its end clear it (`Compositor`). These pictures are
/// built so that every pixel is known from the browsers' rules: the
/// canvas starts transparent black, a transparent index leaves the pixel
/// under it, and pixels a frame's data does not reach stay as they were.
@Suite struct FirstFrameCanvasTests {
    static let palette: [[UInt8]] = [[200, 0, 0], [0, 150, 0], [0, 0, 100], [9, 9, 9]]
    static let canvasWidth = 6, canvasHeight = 5
    /// Frame 0: 4 × 3 at (1, 1), index 3 transparent.
    static let first: [UInt8] = [0, 3, 1, 2, 3, 3, 2, 1, 1, 0, 3, 0]

    /// Frame 0 as above (its data cut to `firstPixels` indices when given,
    /// ending with an end code), then, when `second`, a frame of index 2
    /// over the whole canvas.
    static func gif(firstPixels: Int? = nil, second: Bool = true, interlaced: Bool = false) -> [UInt8] {
        var builder = GIFBuilder(width: canvasWidth, height: canvasHeight, palette: palette)
        builder.control(transparent: 3)
        builder.image(
            x: 1, y: 1, width: 4, height: 3, indices: Array(first.prefix(firstPixels ?? first.count)),
            interlaced: interlaced)
        if second {
            builder.control()
            builder.image(width: canvasWidth, height: canvasHeight, indices: [UInt8](repeating: 2, count: 30))
        }
        builder.trailer()
        return builder.bytes
    }

    /// The RGBA canvas after frame 0, of whose indices (in display order)
    /// the first `drawn` reached the canvas.
    static func expectedFirstCanvas(drawn: Int = first.count) -> [UInt8] {
        var canvas = [UInt8](repeating: 0, count: canvasWidth * canvasHeight * 4)
        for (i, index) in first.prefix(drawn).enumerated() where index != 3 {
            let offset = ((1 + i / 4) * canvasWidth + 1 + i % 4) * 4
            canvas[offset..<offset + 4] = ArraySlice(palette[Int(index)] + [255])
        }
        return canvas
    }

    /// Leaves freed blocks of a canvas's size full of non-zero bytes, so that
    /// a canvas allocated next most likely starts with them, not zeros.
    static func dirtyTheHeap() {
        for _ in 0..<4 {
            let junk = [UInt8](repeating: 0xAB, count: canvasWidth * canvasHeight * 4)
            #expect(junk.count > 0)
        }
    }

    @Test func firstFrameOnANewCanvas() throws {
        Self.dirtyTheHeap()
        var frames = try GIFImage(bytes: Self.gif()).makeFrameIterator()
        #expect(try frames.next()?.pixels == Self.expectedFirstCanvas())
    }

    @Test func firstFrameAgainAfterTheCanvasWasPaintedOver() throws {
        // Frame 1 paints every pixel opaque; going back to frame 0 rewinds
        // the same canvas, which must read as transparent black again.
        var seeker = try GIFImage(bytes: Self.gif()).makeSeeker()
        _ = try seeker.frame(at: 1)
        #expect(try seeker.frame(at: 0).pixels == Self.expectedFirstCanvas())
    }

    @Test(arguments: [1, 6, 8, 11])
    func firstFrameCutShort(pixels: Int) throws {
        Self.dirtyTheHeap()
        var frames = try GIFImage(bytes: Self.gif(firstPixels: pixels, second: false)).makeFrameIterator()
        let frame = try frames.next()
        #expect(frame?.pixels == Self.expectedFirstCanvas(drawn: pixels))
        #expect(frame?.isComplete == false)
    }

    @Test func firstFrameWithNoImageData() throws {
        // Shown as the canvas it leaves: all transparent black.
        var builder = GIFBuilder(width: Self.canvasWidth, height: Self.canvasHeight, palette: Self.palette)
        builder.control(transparent: 3)
        builder.bytes += [0x2C, 1, 0, 1, 0, 4, 0, 3, 0, 0, 8, 0]
        builder.trailer()
        Self.dirtyTheHeap()
        var frames = try GIFImage(bytes: builder.bytes).makeFrameIterator()
        #expect(try frames.next()?.pixels == Self.expectedFirstCanvas(drawn: 0))
    }

    @Test func interlacedFirstFrameCutShort() throws {
        // Three rows interlaced are stored in the order 0, 2, 1: eight
        // indices cut after rows 0 and 2 leave row 1 (the frame's second)
        // as it was.
        let stored = Array(Self.first[0..<4] + Self.first[8..<12] + Self.first[4..<8])
        var builder = GIFBuilder(width: Self.canvasWidth, height: Self.canvasHeight, palette: Self.palette)
        builder.control(transparent: 3)
        builder.image(x: 1, y: 1, width: 4, height: 3, indices: Array(stored.prefix(8)), interlaced: true)
        builder.trailer()
        Self.dirtyTheHeap()
        var frames = try GIFImage(bytes: builder.bytes).makeFrameIterator()
        var expected = Self.expectedFirstCanvas()
        let row1 = ((2 * Self.canvasWidth) + 1) * 4
        expected.replaceSubrange(row1..<row1 + 16, with: [UInt8](repeating: 0, count: 16))
        #expect(try frames.next()?.pixels == expected)
    }
}
