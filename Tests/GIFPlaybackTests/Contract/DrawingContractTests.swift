import DrawingContract
import Foundation
import GIF
import GIFPlayback
import Playback
import Testing

/// The drawing contract over generated cases (see ``DrawingContract``):
/// every write branch forced alone, every row stride from `width × 4` to
/// `width × 4 + 64` (odd ones too), starts 0–3 bytes past a 16-byte line,
/// both layouts, full size and each kind of display size, and the play
/// scripts; on GIFs generated from seeds, the project's fixtures and the
/// corpus animations. `make test` runs a sample of the cases and files
/// that `SWEEP_SEED` rotates; `make test-long` (`GIF_TEST_FULL=1`) every
/// file with four times the cases.
///
/// The cases run on the calling thread, for seconds (minutes in
/// `make test-long` under a sanitizer): the suite runs its tests one at a
/// time and yields between cases, so that it holds at most one thread of
/// Swift's cooperative pool, which the suites beside it wait on.
@Suite(.serialized) struct DrawingContractTests {
    static let executor = FrameDecodeExecutor(threadCount: 1)
    static let environment = ProcessInfo.processInfo.environment
    static let full = environment["GIF_TEST_FULL"] == "1"
    static let seed = environment["SWEEP_SEED"].flatMap { Int($0) } ?? Int(Date().timeIntervalSince1970) % 1_000_000

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// Runs `cases` cases on `image`, recording each failure.
    static func run(_ image: GIFImage, label: String, cases count: Int, seed: Int) async -> (passed: Int, noDrawer: Int) {
        let references = DrawingContract.References(image)
        let canvas = image.info.canvasSize
        var passed = 0, noDrawer = 0
        for run in DrawingContract.cases(width: canvas.width, height: canvas.height, count: count, seed: seed) {
            await Task.yield()
            switch DrawingContract.check(image, references: references, run: run, executor: executor, seed: UInt64(seed)) {
            case .passed: passed += 1
            case .noDrawer: noDrawer += 1
            case .failed(let why): Issue.record("\(label), \(run): \(why)")
            }
        }
        return (passed, noDrawer)
    }

    @Test func generatedGIFs() async throws {
        let count = Self.full ? 96 : 24
        var passed = 0
        for k in 0..<count {
            let seed = UInt64(Self.seed * 1_000 + k)
            let image = try GIFImage(bytes: GeneratedGIF.make(seed: seed))
            passed += await Self.run(image, label: "generated GIF \(seed)", cases: Self.full ? 100 : 25, seed: Int(seed)).passed
        }
        #expect(passed > count * 10)
    }

    /// The cases a GIF gets: 25 (every branch set with every stride) for
    /// a small one, fewer as its pixels over a loop grow, so that the
    /// sample stays a few seconds a file; four times as many in
    /// `make test-long`.
    static func caseCount(_ image: GIFImage) -> Int {
        let loopPixels = max(1, image.info.canvasSize.area * image.info.frameCount)
        guard loopPixels <= maximumLoopPixels else { return 0 }
        return (full ? 4 : 1) * min(25, max(3, 6_000_000 / loopPixels))
    }

    /// The most pixels a GIF's loop may take to be checked here: the
    /// reference keeps every frame in each layout (demo.gif's loop is 4.6
    /// million; the 600-frame screen recording's, 154 million, is left to
    /// the player tests).
    static let maximumLoopPixels = 24_000_000

    @Test func fixtures() async throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.fixtures.path).filter { $0.hasSuffix(".gif") }
        var checked = 0
        for name in names.sorted() {
            guard let image = try? GIFImage(contentsOf: Self.fixtures.appendingPathComponent(name).path),
                  image.info.frameCount > 1, Self.caseCount(image) > 0 else { continue }
            checked += await Self.run(image, label: name, cases: Self.caseCount(image), seed: Self.seed).passed
        }
        #expect(checked > 100)
    }

    /// The corpus animations up to 300,000 canvas pixels: three of them in
    /// `make test`, every one in `make test-long`.
    @Test func corpusAnimations() async throws {
        let files = PlayerDrawTests.sample(PlayerDrawTests.animations, atMost: 3)
        var checked = 0
        for file in files {
            let image = try GIFImage(contentsOf: DrawingPlayerTests.corpus.appendingPathComponent(file).path)
            guard Self.caseCount(image) > 0, DrawingPlayerTests.expected(image) != nil else { continue }
            checked += await Self.run(image, label: file, cases: Self.caseCount(image), seed: Self.seed).passed
        }
        #expect(checked > 0)
    }

    /// ``Player/currentImage()`` over generated GIFs and fixtures: every
    /// layout, size and script, the host letting go of each image, holding
    /// the previous one, the last two, or a random few.
    @Test func currentImages() async throws {
        var images = try ["demo.gif", "disposal-2.gif", "interlace.gif", "transparency.gif"].map {
            try GIFImage(contentsOf: Self.fixtures.appendingPathComponent($0).path)
        }
        for k in 0..<(Self.full ? 48 : 12) {
            images.append(try GIFImage(bytes: GeneratedGIF.make(seed: UInt64(Self.seed * 1_000 + 700 + k))))
        }
        var passed = 0
        for (n, image) in images.enumerated() {
            let references = DrawingContract.References(image)
            let canvas = image.info.canvasSize
            let count = n == 0 ? 2 : Self.full ? 24 : 6
            for (k, run) in DrawingContract.cases(width: canvas.width, height: canvas.height, count: count, seed: Self.seed + n)
                .enumerated() {
                await Task.yield()
                let holding = DrawingContract.Holding.allCases[(n + k) % DrawingContract.Holding.allCases.count]
                let outcome = await DrawingContract.checkImages(
                    image, references: references, run: run, holding: holding, executor: Self.executor,
                    seed: UInt64(Self.seed + k))
                if case .failed(let why) = outcome { Issue.record("image \(n), \(run): \(why)") }
                if case .passed = outcome { passed += 1 }
            }
        }
        #expect(passed > 40)
    }

    /// A ``DrawingPlayer`` at a display size draws the reference frames
    /// resampled, through two loops and random seeks, on the calling thread.
    @Test func callingThreadPlayerAtDisplaySizes() async throws {
        for k in 0..<(Self.full ? 24 : 6) {
            await Task.yield()
            let image = try GIFImage(bytes: GeneratedGIF.make(seed: UInt64(Self.seed * 1_000 + 900 + k)))
            let references = DrawingContract.References(image)
            let canvas = image.info.canvasSize
            let sizes = DrawingContract.sizes(width: canvas.width, height: canvas.height).compactMap { $0 }
            let size = sizes[(Self.seed + k) % sizes.count]
            let format: PixelFormat = k % 2 == 0 ? .rgba8 : .premultipliedBGRA8
            let expected = try #require(references.frames(format, at: size))
            let player = try DrawingPlayer(
                image: image, pixelFormat: format, displaySize: size, startingAt: ContinuousClock.now)
            #expect(player.width * player.height * 4 == expected[0].count, "generated \(k) at \(size)")
            var pixels = [UInt8](repeating: 0, count: player.width * player.height * 4)
            var random = GeneratedGIF.Random(state: UInt64(k))
            let frames = Array(0..<expected.count)
            for index in frames + frames + frames.map({ _ in random.below(expected.count) }) {
                try player.seek(toFrame: index)
                _ = try pixels.withUnsafeMutableBytes { try player.draw(into: $0, bytesPerRow: player.width * 4) }
                #expect(pixels == expected[index], "generated \(k) at \(size), frame \(index)")
            }
        }
    }

    /// The frame cache's drawer (whole frames copied, or their changed
    /// rectangles stepping on): what a source that cannot draw on its own
    /// is drawn with, at every stride, offset, layout and size.
    @Test func frameCacheDraws() async throws {
        var passed = 0
        let names = ["demo.gif", "disposal-2.gif", "disposal-3.gif", "interlace.gif", "transparency.gif",
                     "first-frame-growth.gif", "zero-size-frame.gif"]
        var images = try names.map { try GIFImage(contentsOf: Self.fixtures.appendingPathComponent($0).path) }
        for k in 0..<(Self.full ? 24 : 6) {
            images.append(try GIFImage(bytes: GeneratedGIF.make(seed: UInt64(Self.seed * 1_000 + 500 + k))))
        }
        for (n, image) in images.enumerated() {
            let references = DrawingContract.References(image)
            let canvas = image.info.canvasSize
            let count = n == 0 ? 2 : Self.full ? 25 : 10
            for run in DrawingContract.cases(width: canvas.width, height: canvas.height, count: count, seed: Self.seed + n) {
                let outcome = await DrawingContract.checkCached(
                    image, references: references, run: run, executor: Self.executor, seed: UInt64(Self.seed))
                if case .failed(let why) = outcome { Issue.record("\(n < names.count ? names[n] : "generated"), \(run): \(why)") }
                if case .passed = outcome { passed += 1 }
            }
        }
        #expect(passed > 50)
    }

    /// The cases above draw with every stride and offset; this one pins
    /// the case that corrupted a grid host's neighbouring cells: a stride
    /// not a multiple of 4, later loops compositing straight into the
    /// host's buffer.
    @Test(arguments: [1, 3, 37])
    func laterLoopsKeepOddRowPadding(slack: Int) async throws {
        let image = try GIFImage(contentsOf: Self.fixtures.appendingPathComponent("demo.gif").path)
        let run = DrawingContract.Case(
            format: .rgba8, size: nil, strideSlack: slack, offset: 0, branches: [.changedOnly, .mirror],
            script: .threeLoops, decodeAhead: false)
        let outcome = DrawingContract.check(
            image, references: DrawingContract.References(image), run: run, executor: Self.executor, seed: 1)
        if case .failed(let why) = outcome { Issue.record("\(run): \(why)") }
    }
}
