import Foundation
import GIF
import GIFPlayback
@_spi(Benchmarks) import Playback
import Testing

/// Display-size frames against an area average computed here, in floating
/// point, from the decoder's own full-size frames.
@Suite struct DisplaySizeTests {
    /// The area-weighted mean of `full` (RGBA8, `width` × `height`) over the
    /// source rectangle output pixel (`ox`, `oy`) covers at `outWidth` ×
    /// `outHeight`; colour weighted by alpha.
    static func areaAverage(_ full: [UInt8], width: Int, height: Int, outWidth: Int, outHeight: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(outWidth * outHeight * 4)
        let sx = Double(width) / Double(outWidth), sy = Double(height) / Double(outHeight)
        for oy in 0..<outHeight {
            let y0 = Double(oy) * sy, y1 = Double(oy + 1) * sy
            for ox in 0..<outWidth {
                let x0 = Double(ox) * sx, x1 = Double(ox + 1) * sx
                var area = 0.0, alpha = 0.0, rgb = [0.0, 0.0, 0.0]
                for y in Int(y0.rounded(.down))..<min(height, Int(y1.rounded(.up))) {
                    let wy = min(y1, Double(y + 1)) - max(y0, Double(y))
                    guard wy > 0 else { continue }
                    for x in Int(x0.rounded(.down))..<min(width, Int(x1.rounded(.up))) {
                        let wx = min(x1, Double(x + 1)) - max(x0, Double(x))
                        guard wx > 0 else { continue }
                        let i = (y * width + x) * 4, w = wx * wy, a = Double(full[i + 3]) * w
                        area += w
                        alpha += a
                        for c in 0..<3 { rgb[c] += Double(full[i + c]) * a }
                    }
                }
                for c in 0..<3 { out.append(alpha > 0 ? UInt8((rgb[c] / alpha).rounded()) : 0) }
                out.append(UInt8((alpha / area).rounded()))
            }
        }
        return out
    }

    /// The largest difference between two equally long byte arrays.
    static func maxDifference(_ a: [UInt8], _ b: [UInt8]) -> Int {
        zip(a, b).map { abs(Int($0) - Int($1)) }.max() ?? 0
    }

    /// The first frames (at most 6, to keep a debug run short) of `name` through `makeSource` at `size`, against the
    /// area average of the full-size frame the GIF module composites.
    static func check(
        _ name: String, size: DisplaySize, expecting expected: (Int, Int), tolerance: Int,
        makeSource: (GIFImage) -> any FrameSource
    ) async throws {
        let image = try GIFImage(contentsOf: GIFFrameSourceTests.fixture(name))
        let source = makeSource(image)
        #expect(source.canvasWidth == expected.0 && source.canvasHeight == expected.1)
        var frames = image.makeFrameIterator()
        for index in 0..<min(6, image.info.frameCount) {
            let full = try #require(try frames.next())
            let small = try await source.frame(at: index)
            #expect(small.width == expected.0 && small.height == expected.1)
            let reference = areaAverage(
                Array(full.pixels), width: full.size.width, height: full.size.height,
                outWidth: expected.0, outHeight: expected.1)
            #expect(small.pixels.count == reference.count)
            #expect(maxDifference(small.pixels, reference) <= tolerance, "frame \(index) of \(name)")
        }
    }

    /// 160 × 120 into 40 × 40 is a factor of 4: each output pixel is the
    /// exact mean of a 4 × 4 block, with nothing to round but the mean.
    @Test func integerFactorIsTheExactBlockMean() async throws {
        try await Self.check("demo.gif", size: DisplaySize(maxWidth: 40, maxHeight: 40), expecting: (40, 30),
                             tolerance: 0) { GIFFrameSource(image: $0, displaySize: DisplaySize(maxWidth: 40, maxHeight: 40)) }
    }

    /// 160 × 120 into 128 wide: source pixels straddle output pixels and
    /// are weighted by the area they give each (within rounding).
    @Test func fractionalFactorWeighsCoveredAreas() async throws {
        let size = DisplaySize(maxWidth: 128, maxHeight: 128)
        try await Self.check("demo.gif", size: size, expecting: (128, 96), tolerance: 1) {
            GIFFrameSource(image: $0, displaySize: size)
        }
    }

    /// Transparent pixels count by their alpha, in the GIF source and in
    /// the generic wrapper over the full-size source alike.
    @Test func transparencyIsWeightedByAlpha() async throws {
        let image = try GIFImage(contentsOf: GIFFrameSourceTests.fixture("transparency.gif"))
        let canvas = image.info.canvasSize
        let size = DisplaySize(maxWidth: max(1, canvas.width * 2 / 3), maxHeight: max(1, canvas.height * 2 / 3))
        let fitted = size.fitting(width: canvas.width, height: canvas.height)
        try await Self.check("transparency.gif", size: size, expecting: fitted, tolerance: 1) {
            GIFFrameSource(image: $0, displaySize: size)
        }
        try await Self.check("transparency.gif", size: size, expecting: fitted, tolerance: 1) {
            ScaledFrameSource(base: GIFFrameSource(image: $0), displaySize: size)
        }
    }

    /// Premultiplied BGRA frames at a display size are the plain area mean
    /// of every channel of the full-size premultiplied frame, computed here
    /// with weights from the covered fractions, in floating point.
    @Test func premultipliedFramesAreThePlainAreaMean() async throws {
        let image = try GIFImage(contentsOf: GIFFrameSourceTests.fixture("transparency.gif"))
        let (w, h) = (image.info.canvasSize.width, image.info.canvasSize.height)
        let size = DisplaySize(maxWidth: max(1, w * 2 / 3), maxHeight: max(1, h * 2 / 3))
        let (ow, oh) = size.fitting(width: w, height: h)
        let source = GIFFrameSource(image: image, pixelFormat: .premultipliedBGRA8, displaySize: size)
        var seeker = image.makeSeeker(pixelFormat: .premultipliedBGRA8)
        func cover(_ o: Int, _ n: Int, _ out: Int, _ i: Int) -> Double {
            // Overlap of source pixel i with output pixel o, in source units.
            let low = Double(o) * Double(n) / Double(out), high = Double(o + 1) * Double(n) / Double(out)
            return max(0, min(high, Double(i + 1)) - max(low, Double(i)))
        }
        for index in 0..<image.info.frameCount {
            let full = try seeker.frame(at: index).pixels
            let small = try await source.frame(at: index).pixels
            #expect(small.count == ow * oh * 4)
            var worst = 0.0
            for oy in 0..<oh {
                for ox in 0..<ow {
                    var sums = [0.0, 0.0, 0.0, 0.0], area = 0.0
                    for y in 0..<h {
                        let wy = cover(oy, h, oh, y)
                        guard wy > 0 else { continue }
                        for x in 0..<w {
                            let weight = wy * cover(ox, w, ow, x)
                            guard weight > 0 else { continue }
                            area += weight
                            for c in 0..<4 { sums[c] += weight * Double(full[(y * w + x) * 4 + c]) }
                        }
                    }
                    for c in 0..<4 {
                        worst = max(worst, abs(sums[c] / area - Double(small[(oy * ow + ox) * 4 + c])))
                    }
                }
            }
            #expect(worst <= 0.5 + 1e-9, "frame \(index): off by \(worst)")
        }
    }

    /// A player given a display size draws only small images: its image
    /// canvas holds 40 × 30 × 4 bytes, its cache no frame, and the source
    /// reports the size.
    @Test func playerDrawsOnlySmallImages() async throws {
        let source = try GIFFrameSource(contentsOf: GIFFrameSourceTests.fixture("demo.gif"))
        let player = try Player(source: source, startingAt: ContinuousClock().now,
                                displaySize: DisplaySize(maxWidth: 40, maxHeight: 40))
        let image = try await player.currentImage()
        #expect(image.width == 40 && image.height == 30)
        #expect(player.source.canvasWidth == 40 && player.source.canvasHeight == 30)
        #expect(player.imageCanvasBytes == 40 * 30 * 4)
        #expect(await player.cache.statistics.framesHeld == 0)
    }

    /// The canvases a player draws its images into count in its cache's
    /// budget: one while the host lets go of each image, two while it holds
    /// the previous one, none once the player is gone.
    @Test func imageCanvasesCountInTheBudget() async throws {
        let budget = FrameMemoryBudget(byteBudget: 64 << 20)
        let source = try GIFFrameSource(contentsOf: GIFFrameSourceTests.fixture("demo.gif"))
        let cache = FrameCache(source: source, budget: budget)
        let canvas = source.canvasWidth * source.canvasHeight * 4
        var player: Player<ContinuousClock.Instant>? = try Player(
            source: source, startingAt: ContinuousClock.now, cache: cache)
        _ = try await player!.currentImage()
        #expect(budget.statistics.caches.map(\.imageBytes) == [canvas])
        let held = try await player!.currentImage()
        try await player!.seek(toFrame: 1)
        let next = try await player!.currentImage()
        #expect(held.index == 0 && next.index == 1)
        #expect(budget.statistics.caches.map(\.imageBytes) == [2 * canvas])
        #expect(budget.bytesHeld >= 2 * canvas)
        player = nil
        #expect(budget.statistics.caches.map(\.imageBytes) == [0])
    }

    /// The GIF source counts its seeker as decoding state and gives it back.
    @Test func decodingStateIsCountedAndTrimmed() async throws {
        let source = try GIFFrameSource(contentsOf: GIFFrameSourceTests.fixture("demo.gif"))
        #expect(source.decodingStateByteCount == 0)
        _ = try await source.frame(at: 2)
        #expect(source.decodingStateByteCount >= 160 * 120 * 4)
        source.trimDecodingState(toBytes: 0)
        #expect(source.decodingStateByteCount == 0)
        // Frames stay correct after the trim.
        let again = try await source.frame(at: 2)
        let direct = try GIFImage(contentsOf: GIFFrameSourceTests.fixture("demo.gif")).frame(at: 2)
        #expect(again.pixels == direct.pixels)
    }
}
