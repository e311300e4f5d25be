import Foundation
import Playback
import Testing

/// Content modes, alignment, scale and upscaling of a ``DisplaySize``,
/// against pictures built so that their pixels are known and geometry
/// worked out here from the modes' definitions; and the changed-rectangle
/// rule: redrawing only ``BoxFilter/outputRect(covering:)`` after a partial
/// change gives the full redraw.
@Suite("Display sizes: content modes, alignment, scale and upscaling")
struct DisplayModeTests {
    typealias Picture = BoxFilterTests.Picture

    /// `width` × `height` opaque pixels, pixel (x, y) `colour(x, y)`.
    static func picture(width: Int, height: Int, _ colour: (Int, Int) -> [UInt8]) -> [UInt8] {
        (0..<height).flatMap { y in (0..<width).flatMap { x in colour(x, y) + [255] } }
    }

    /// `pixels` (a whole frame of `width` × `height`) through a filter for `size`.
    static func scaled(_ pixels: [UInt8], width: Int, height: Int, at size: DisplaySize) -> (BoxFilter, [UInt8]) {
        let filter = BoxFilter(sourceWidth: width, sourceHeight: height, displaySize: size)
        var out: [UInt8] = []
        filter.apply(pixels, into: &out)
        return (filter, out)
    }

    // MARK: Geometry

    @Test("The default is shrink-to-fit at scale 1 with smooth upscaling; it never scales up")
    func defaultKeepsShrinkToFit() {
        let cell = DisplaySize(maxWidth: 160, maxHeight: 160)
        #expect(cell.contentMode == .shrinkToFit && cell.scale == 1 && cell.upscaling == .smooth && cell.alignment == .center)
        #expect(cell.description == "160x160")
        // 500 × 300 into 160: the width binds, 300 · 160 / 500 = 96.
        #expect(cell.fitting(width: 500, height: 300) == (160, 96))
        // Smaller than the cell: the natural size.
        #expect(cell.fitting(width: 30, height: 20) == (30, 20))
        #expect(DisplaySize(width: 9, height: 9, contentMode: .aspectFit).upscaling == .smooth)
    }

    @Test("Aspect fit of 30 × 20 into 200 × 200: 200 × 133, centred 33 rows down (67 spare rows, 33 above)")
    func aspectFitLetterbox() {
        let geometry = DisplaySize(width: 200, height: 200, contentMode: .aspectFit).geometry(width: 30, height: 20)
        // 20 · 200 / 30 = 133.3, rounded to 133.
        #expect((geometry.width, geometry.height) == (200, 133))
        #expect((geometry.x, geometry.y) == (0, 33))
        #expect((geometry.cropX, geometry.cropY) == (0, 0))
        #expect((geometry.scaledWidth, geometry.scaledHeight) == (200, 133))
        let top = DisplaySize(width: 200, height: 200, contentMode: .aspectFit, alignment: .bottom).geometry(width: 30, height: 20)
        #expect((top.x, top.y) == (0, 67))
    }

    @Test("Scale turns points into pixels: a 100-point cell at 2× is 200 pixels, and the natural size is the canvas in points")
    func scaleIsPixelsPerPoint() {
        let fit = DisplaySize(width: 100, height: 100, contentMode: .aspectFit, scale: 2).geometry(width: 30, height: 20)
        #expect((fit.cellWidth, fit.cellHeight) == (200, 200))
        #expect((fit.width, fit.height) == (200, 133))
        let natural = DisplaySize(width: 100, height: 100, contentMode: .natural, scale: 2).geometry(width: 30, height: 20)
        #expect((natural.width, natural.height) == (60, 40))
        #expect((natural.x, natural.y) == ((200 - 60) / 2, (200 - 40) / 2))
        // Shrink-to-fit at 2×: the natural 60 × 40 pixels fit, so no more.
        let shrink = DisplaySize(width: 100, height: 100, contentMode: .shrinkToFit, scale: 2).geometry(width: 30, height: 20)
        #expect((shrink.width, shrink.height) == (60, 40))
        // At 1.5×, 13 points are 19.5, rounded to 20 pixels.
        #expect(DisplaySize(width: 13, height: 13, contentMode: .stretch, scale: 1.5).fitting(width: 5, height: 5) == (20, 20))
        #expect(DisplaySize(width: 4, height: 4, contentMode: .stretch, scale: .nan).scale == 1)
    }

    @Test("Aspect fill covers the cell and crops the overflow where the alignment says")
    func aspectFillCrops() {
        // 4 × 8 into 4 × 4: the width binds (ratio 1); 4 rows overflow.
        for (alignment, cropY) in [(DisplaySize.Alignment.top, 0), (.center, 2), (.bottom, 4), (.topLeft, 0)] {
            let geometry = DisplaySize(width: 4, height: 4, contentMode: .aspectFill, alignment: alignment)
                .geometry(width: 4, height: 8)
            #expect((geometry.width, geometry.height, geometry.cropX, geometry.cropY) == (4, 4, 0, cropY), "\(alignment)")
            #expect((geometry.x, geometry.y) == (0, 0))
        }
        // 30 × 20 into 200 × 200: the height binds, 30 · 200 / 20 = 300 wide, 100 columns over.
        let wide = DisplaySize(width: 200, height: 200, contentMode: .aspectFill).geometry(width: 30, height: 20)
        #expect((wide.scaledWidth, wide.scaledHeight, wide.cropX, wide.width) == (300, 200, 50, 200))
        let left = DisplaySize(width: 200, height: 200, contentMode: .aspectFill, alignment: .topLeft).geometry(width: 30, height: 20)
        #expect(left.cropX == 0)
    }

    @Test("Stretch is exactly the cell; natural is the canvas, cropped to the cell")
    func stretchAndNatural() {
        let stretch = DisplaySize(width: 7, height: 3, contentMode: .stretch).geometry(width: 30, height: 20)
        #expect((stretch.width, stretch.height, stretch.scaledWidth, stretch.scaledHeight) == (7, 3, 7, 3))
        let natural = DisplaySize(width: 100, height: 10, contentMode: .natural, alignment: .right).geometry(width: 300, height: 4)
        #expect((natural.width, natural.height) == (100, 4))
        #expect((natural.cropX, natural.x, natural.y) == (200, 0, 3))
        #expect(DisplaySize(width: 300, height: 4, contentMode: .natural).geometry(width: 300, height: 4).isIdentity)
    }

    @Test("Any canvas sides, cells and scales give a geometry inside the cell and a filter, without trapping")
    func hostileSidesAndScales() {
        let sides = [-5, 0, 1, 3, BoxFilter.maxSourceSide + 1, 1 << 40, Int.max]
        var size = DisplaySize(width: Int.max, height: 1, contentMode: .natural)
        size.scale = -.infinity
        #expect(size.scale == 1)
        size.scale = 1e300
        #expect(size.scale == 64)
        for mode in DisplaySize.ContentMode.allCases {
            for scale in [1.0 / 64, 1, 64] {
                for cell in [(1, 1), (Int.max, 3), (200, Int.max)] {
                    let size = DisplaySize(width: cell.0, height: cell.1, contentMode: mode, alignment: .bottomRight, scale: scale)
                    for w in sides {
                        for h in sides {
                            let geometry = size.geometry(width: w, height: h)
                            #expect(geometry.width >= 0 && geometry.width <= geometry.cellWidth && geometry.cellWidth <= Poster.maxSide)
                            #expect(geometry.height >= 0 && geometry.height <= geometry.cellHeight && geometry.cellHeight <= Poster.maxSide)
                            #expect(geometry.cropX >= 0 && geometry.cropX + geometry.width <= max(geometry.scaledWidth, geometry.width))
                            if w <= 3, h <= 3 {
                                let filter = BoxFilter(sourceWidth: w, sourceHeight: h, displaySize: size)
                                _ = filter.outputRect(covering: PixelRect(x: 0, y: 0, width: 2, height: 2))
                            }
                        }
                    }
                }
            }
        }
    }

    // MARK: Pixels

    @Test("A 2 × 2 checker upscaled ×3 by nearest is four solid 3 × 3 blocks, by fit, by natural at scale 3 and by stretch")
    func nearestCheckerBlocks() {
        let colours: [[UInt8]] = [[255, 0, 0], [0, 0, 255]]
        let checker = Self.picture(width: 2, height: 2) { x, y in colours[(x + y) % 2] }
        let sizes = [
            DisplaySize(width: 6, height: 6, contentMode: .aspectFit, upscaling: .nearest),
            DisplaySize(width: 2, height: 2, contentMode: .natural, scale: 3, upscaling: .nearest),
            DisplaySize(width: 6, height: 6, contentMode: .stretch, upscaling: .nearest),
        ]
        let blocks = Self.picture(width: 6, height: 6) { x, y in colours[(x / 3 + y / 3) % 2] }
        for size in sizes {
            let (filter, out) = Self.scaled(checker, width: 2, height: 2, at: size)
            #expect((filter.width, filter.height) == (6, 6), "\(size)")
            #expect(out == blocks, "\(size)")
        }
    }

    @Test("Smooth upscaling is bilinear between pixel centres, edges repeated: black, white → 0, 64, 191, 255")
    func bilinearRamp() {
        let ramp = Self.picture(width: 2, height: 1) { x, _ in x == 0 ? [0, 0, 0] : [255, 255, 255] }
        let (_, out) = Self.scaled(ramp, width: 2, height: 1, at: DisplaySize(width: 4, height: 1, contentMode: .stretch))
        // Output centres at source x = −¼ (clamped to 0), ¼, ¾, 1¼ (clamped to 1): 255 × ¼ = 63.75, × ¾ = 191.25.
        #expect(stride(from: 0, to: out.count, by: 4).map { out[$0] } == [0, 64, 191, 255])
        #expect(stride(from: 3, to: out.count, by: 4).allSatisfy { out[$0] == 255 })
    }

    @Test("Smooth upscaling of opaque pictures is within 1 of bilinear interpolation computed in floating point")
    func bilinearReference() {
        for (index, (sw, sh, w, h)) in [(3, 2, 7, 5), (5, 5, 12, 11), (2, 7, 9, 20), (4, 3, 4, 10)].enumerated() {
            var picture = Picture(width: sw, height: sh, seed: UInt64(300 + index))
            for alpha in stride(from: 3, to: picture.pixels.count, by: 4) { picture.pixels[alpha] = 255 }
            let (_, out) = Self.scaled(
                picture.pixels, width: sw, height: sh, at: DisplaySize(width: w, height: h, contentMode: .stretch))
            func axis(_ o: Int, _ source: Int, _ output: Int) -> (Int, Int, Double) {
                let u = min(max((Double(o) + 0.5) * Double(source) / Double(output) - 0.5, 0), Double(source - 1))
                let low = Int(u)
                return (low, min(low + 1, source - 1), u - Double(low))
            }
            var worst = 0.0
            for oy in 0..<h {
                let (y0, y1, fy) = axis(oy, sh, h)
                for ox in 0..<w {
                    let (x0, x1, fx) = axis(ox, sw, w)
                    for c in 0..<4 {
                        func p(_ x: Int, _ y: Int) -> Double { Double(picture.pixels[(y * sw + x) * 4 + c]) }
                        let value = (p(x0, y0) * (1 - fx) + p(x1, y0) * fx) * (1 - fy) + (p(x0, y1) * (1 - fx) + p(x1, y1) * fx) * fy
                        worst = max(worst, abs(value - Double(out[(oy * w + ox) * 4 + c])))
                    }
                }
            }
            #expect(worst <= 1, "\(sw)×\(sh) → \(w)×\(h): off by \(worst)")
        }
    }

    @Test("Aspect fill of a 4 × 8 picture with known rows into 4 × 4 keeps the rows the alignment says")
    func fillCropKeepsRows() {
        let rows = Self.picture(width: 4, height: 8) { _, y in [UInt8(y * 30), UInt8(200 - y * 20), 7] }
        for (alignment, first) in [(DisplaySize.Alignment.top, 0), (.center, 2), (.bottom, 4)] {
            let (filter, out) = Self.scaled(
                rows, width: 4, height: 8, at: DisplaySize(width: 4, height: 4, contentMode: .aspectFill, alignment: alignment))
            #expect((filter.width, filter.height) == (4, 4))
            #expect(out == Array(rows[first * 16..<(first + 4) * 16]), "\(alignment)")
        }
        // A wide picture at top left keeps its left columns.
        let columns = Self.picture(width: 8, height: 4) { x, _ in [UInt8(x * 30), 1, 2] }
        let (_, left) = Self.scaled(
            columns, width: 8, height: 4, at: DisplaySize(width: 4, height: 4, contentMode: .aspectFill, alignment: .topLeft))
        #expect(left == Self.picture(width: 4, height: 4) { x, _ in [UInt8(x * 30), 1, 2] })
    }

    @Test("Shrinking in any mode is the exact area mean of the covered source area, cropped", arguments: [false, true])
    func shrinkingIsTheAreaMean(premultiplied: Bool) {
        // (source, cell, mode, the scaled size and crop worked out by hand)
        let cases: [((Int, Int), (Int, Int), DisplaySize.ContentMode, DisplaySize.Alignment, (Int, Int, Int, Int))] = [
            // 12 × 6 filling 4 × 4: the height binds (4 / 6 > 4 / 12): 8 × 4, 4 columns over, 2 cropped left.
            ((12, 6), (4, 4), .aspectFill, .center, (8, 4, 2, 0)),
            ((12, 6), (4, 4), .aspectFill, .right, (8, 4, 4, 0)),
            // 31 × 29 into 10 × 10: the width binds, 29 · 10 / 31 = 9.35 → 9.
            ((31, 29), (10, 10), .aspectFit, .center, (10, 9, 0, 0)),
            ((31, 29), (9, 4), .stretch, .center, (9, 4, 0, 0)),
            ((17, 13), (5, 5), .shrinkToFit, .center, (5, 4, 0, 0)),
        ]
        for (index, (source, cell, mode, alignment, expected)) in cases.enumerated() {
            let picture = Picture(width: source.0, height: source.1, seed: UInt64(500 + index))
            let size = DisplaySize(width: cell.0, height: cell.1, contentMode: mode, alignment: alignment)
            let geometry = size.geometry(width: source.0, height: source.1)
            #expect((geometry.scaledWidth, geometry.scaledHeight, geometry.cropX, geometry.cropY) == expected)
            let filter = BoxFilter(sourceWidth: source.0, sourceHeight: source.1, displaySize: size)
            var out: [UInt8] = []
            filter.apply(picture.pixels, into: &out, premultiplied: premultiplied)
            var reference: [UInt8] = []
            for oy in 0..<geometry.height {
                for ox in 0..<geometry.width {
                    reference += BoxFilterTests.reference(
                        picture, width: expected.0, height: expected.1, ox: ox + expected.2, oy: oy + expected.3,
                        premultiplied: premultiplied)
                }
            }
            #expect(BoxFilterTests.difference(out, reference) == nil, "\(source) in \(cell) \(mode)")
        }
    }

    // MARK: Changed rectangles

    /// A fixed pseudo-random sequence (64-bit xorshift).
    struct Random {
        var state: UInt64
        init(seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 | 1 }
        mutating func next(_ bound: Int) -> Int {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return Int(state % UInt64(bound))
        }
    }

    /// Every mode × scale × upscaling, each with a few sources, cells,
    /// alignments and changed rectangles (GIF_TEST_FULL=1: many more).
    @Test("After a partial change, redrawing only the returned rectangle gives the full redraw, at every mode and scale")
    func partialRedrawEqualsFullRedraw() throws {
        let full = ProcessInfo.processInfo.environment["GIF_TEST_FULL"] == "1"
        let scales: [Double] = [1, 2, 1.5, 0.75, 3]
        var random = Random(seed: 7)
        var checked = 0, nonEmpty = 0, cropped = 0
        for mode in DisplaySize.ContentMode.allCases {
            for scale in scales {
                for upscaling in DisplaySize.Upscaling.allCases {
                    for _ in 0..<(full ? 40 : 4) {
                        let (sw, sh) = (1 + random.next(23), 1 + random.next(23))
                        let size = DisplaySize(
                            width: 1 + random.next(19), height: 1 + random.next(19), contentMode: mode,
                            alignment: DisplaySize.Alignment.allCases[random.next(9)], scale: scale, upscaling: upscaling)
                        let before = Picture(width: sw, height: sh, seed: UInt64(random.next(1 << 30)))
                        let filter = BoxFilter(sourceWidth: sw, sourceHeight: sh, displaySize: size)
                        let geometry = size.geometry(width: sw, height: sh)
                        if geometry.cropX > 0 || geometry.cropY > 0 { cropped += 1 }
                        for premultiplied in [false, true] {
                            var old: [UInt8] = []
                            filter.apply(before.pixels, into: &old, premultiplied: premultiplied)
                            for _ in 0..<(full ? 6 : 2) {
                                // A random rectangle, every byte in it changed.
                                let x = random.next(sw), y = random.next(sh)
                                let change = PixelRect(x: x, y: y, width: 1 + random.next(sw - x), height: 1 + random.next(sh - y))
                                var after = before.pixels
                                for row in change.y..<change.y + change.height {
                                    for byte in (row * sw + change.x) * 4..<(row * sw + change.x + change.width) * 4 {
                                        after[byte] ^= UInt8(1 + random.next(255))
                                    }
                                }
                                var expected: [UInt8] = []
                                filter.apply(after, into: &expected, premultiplied: premultiplied)
                                let redraw = filter.outputRect(covering: change)
                                var buffer = old
                                try after.withUnsafeBufferPointer { source in
                                    try buffer.withUnsafeMutableBytes {
                                        try filter.apply(source, region: redraw, into: $0, bytesPerRow: filter.width * 4,
                                                         premultiplied: premultiplied)
                                    }
                                }
                                #expect(
                                    BoxFilterTests.difference(buffer, expected) == nil,
                                    "\(sw)×\(sh) at \(size): change \(change), redrew \(redraw)")
                                // The rectangle lies in the output.
                                #expect(redraw.isEmpty || redraw == redraw.clipped(toWidth: filter.width, height: filter.height))
                                checked += 1
                                if !redraw.isEmpty { nonEmpty += 1 }
                            }
                        }
                    }
                }
            }
        }
        #expect(nonEmpty > checked / 2 && cropped > 0, "the sample exercised redraws (\(nonEmpty) of \(checked)) and crops (\(cropped))")
    }

    @Test("A change wholly in the cropped-off part redraws nothing; one pixel at scale 1 redraws one pixel")
    func redrawRectangleIsTight() {
        // 4 × 8 filling 4 × 4 from the top: rows 4…7 are cropped off.
        let top = BoxFilter(sourceWidth: 4, sourceHeight: 8, displaySize: DisplaySize(
            width: 4, height: 4, contentMode: .aspectFill, alignment: .top))
        #expect(top.outputRect(covering: PixelRect(x: 0, y: 5, width: 4, height: 3)).isEmpty)
        #expect(top.outputRect(covering: PixelRect(x: 1, y: 3, width: 2, height: 3)) == PixelRect(x: 1, y: 3, width: 2, height: 1))
        // Natural, centred: 300 columns in 100, 100 cropped on the left.
        let natural = BoxFilter(sourceWidth: 300, sourceHeight: 4, displaySize: DisplaySize(
            width: 100, height: 10, contentMode: .natural))
        #expect(natural.outputRect(covering: PixelRect(x: 150, y: 2, width: 1, height: 1)) == PixelRect(x: 50, y: 2, width: 1, height: 1))
        // ×3 nearest: source pixel 1 is output pixels 3…5.
        let nearest = BoxFilter(sourceWidth: 2, sourceHeight: 2, displaySize: DisplaySize(
            width: 6, height: 6, contentMode: .stretch, upscaling: .nearest))
        #expect(nearest.outputRect(covering: PixelRect(x: 1, y: 0, width: 1, height: 1)) == PixelRect(x: 3, y: 0, width: 3, height: 3))
    }

    /// A source whose frame 1 differs from frame 0 only in `changed`, and says so.
    struct TwoFrameSource: FrameSource {
        var canvasSize: PixelSize { PixelSize(width: canvasWidth, height: canvasHeight) }
        var timing: FrameSourceTiming { FrameSourceTiming(frameDelays: frameDelays, storedLoopCount: storedLoopCount) }
        static let changed = PixelRect(x: 3, y: 2, width: 3, height: 4)
        var frameDelays: [Duration] { [.milliseconds(100), .milliseconds(100)] }
        var storedLoopCount: Int? { nil }
        var canvasWidth: Int { 20 }
        var canvasHeight: Int { 8 }
        var frameCount: Int { 2 }

        func frame(at index: Int) async throws -> RenderedFrame {
            var pixels = Picture(width: 20, height: 8, seed: 41).pixels
            if index == 1 {
                let rect = Self.changed
                for y in rect.y..<rect.y + rect.height {
                    for byte in (y * 20 + rect.x) * 4..<(y * 20 + rect.x + rect.width) * 4 { pixels[byte] ^= 0x5A }
                }
            }
            return RenderedFrame(
                index: index, width: 20, height: 8, pixels: pixels, changedRect: index == 1 ? Self.changed : nil)
        }
    }

    @Test("A scaled source's changed rectangle holds every output pixel that differs from the frame before")
    func scaledSourceMapsTheChangedRectangle() async throws {
        let sizes = [
            DisplaySize(maxWidth: 7, maxHeight: 7),
            DisplaySize(width: 10, height: 10, contentMode: .aspectFill, alignment: .topLeft, scale: 1.5),
            DisplaySize(width: 13, height: 5, contentMode: .stretch, scale: 2, upscaling: .nearest),
        ]
        for size in sizes {
            let source = TwoFrameSource().displaying(at: size)
            let (zero, one) = (try await source.frame(at: 0), try await source.frame(at: 1))
            let rect = one.changedRect
            #expect(rect.width < one.width, "\(size): not the whole frame")
            for y in 0..<one.height {
                for x in 0..<one.width where !(rect.x..<rect.x + rect.width).contains(x) || !(rect.y..<rect.y + rect.height).contains(y) {
                    let i = (y * one.width + x) * 4
                    #expect(zero.pixels[i..<i + 4] == one.pixels[i..<i + 4], "\(size): (\(x), \(y)) outside \(rect) changed")
                }
            }
        }
    }
}
