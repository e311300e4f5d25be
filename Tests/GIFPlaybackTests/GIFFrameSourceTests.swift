import Foundation
@_spi(Benchmarks) import GIF
@_spi(Benchmarks) import GIFPlayback
@_spi(Benchmarks) import Playback
import Testing

/// A GIF played through `Playback`: the glue hands the player the file's
/// delays, loop count and composited frames.
@Suite struct GIFFrameSourceTests {
    static func fixture(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures/\(name)").path
    }

    static let red: [UInt8] = [255, 0, 0, 255], green: [UInt8] = [0, 255, 0, 255]

    @Test func aSourceReadingItsFramesFromTheFilePlaysTheSameFrames() async throws {
        // Fixtures/README.md: loop-2.gif is red then green, 2×2.
        let source = try GIFFrameSource(readingFramesFromFileAt: Self.fixture("loop-2.gif"))
        #expect(source.image.readsFramesFromFile)
        #expect(try await source.frame(at: 1).pixels == Array([Self.green, Self.green, Self.green, Self.green].joined()))
        #expect(try await source.frame(at: 0).pixels == Array([Self.red, Self.red, Self.red, Self.red].joined()))
        // At a display size too, straight from the seeker's canvas.
        let cell = source.displaying(at: DisplaySize(maxWidth: 1, maxHeight: 1))
        #expect(try await cell.frame(at: 1).pixels == Self.green)
    }

    @Test func loopTwoPlaysThreeTimesThenRestsOnTheLastFrame() async throws {
        // Fixtures/README.md: 2×2, red then green, 10 cs each, NETSCAPE2.0 stored 2.
        let source = try GIFFrameSource(contentsOf: Self.fixture("loop-2.gif"))
        #expect(source.frameDelays == [.milliseconds(100), .milliseconds(100)])
        #expect(source.storedLoopCount == 2)
        let clock = ContinuousClock()
        let start = clock.now
        let player = try Player(source: source, startingAt: start)
        #expect(try await player.currentImage().pixels == Array([Self.red, Self.red, Self.red, Self.red].joined()))
        var events = await player.play(at: start)
        events += await player.advance(to: start.advanced(by: .milliseconds(150)))
        #expect(try await player.currentImage().pixels == Array([Self.green, Self.green, Self.green, Self.green].joined()))
        events += await player.advance(to: start.advanced(by: .seconds(10)))
        let loops = events.compactMap { event -> Int? in
            if case .loopCompleted(let done) = event { return done }
            return nil
        }
        // Three plays: each loop is reported, possibly coalesced after a jump,
        // and the last one says 3.
        #expect(loops.last == 3)
        #expect(events.last == .finished)
        #expect(player.state == .finished)
        #expect(player.currentFrame == 1)
    }

    @Test func framesInAnyOrderEqualTheDecodersFrames() async throws {
        let image = try GIFImage(contentsOf: Self.fixture("demo.gif"))
        let source = GIFFrameSource(image: image)
        for index in [0, 1, 2, 57, 3, 239, 0] {
            let rendered = try await source.frame(at: index)
            let frame = try image.frame(at: index)
            #expect(rendered.index == index)
            #expect(rendered.width == frame.size.width && rendered.height == frame.size.height)
            #expect(rendered.pixels == frame.pixels)
        }
        await #expect(throws: GIFError.self) { try await source.frame(at: 240) }
    }

    @Test func premultipliedBGRASourceGivesTheSwappedPixelsAndTheChangedRect() async throws {
        let image = try GIFImage(contentsOf: Self.fixture("demo.gif"))
        let source = GIFFrameSource(image: image, pixelFormat: .premultipliedBGRA8)
        #expect(source.pixelFormat == .premultipliedBGRA8)
        for index in [0, 1, 2, 57, 3] {
            let rendered = try await source.frame(at: index)
            let frame = try image.frame(at: index)
            // demo.gif's pixels are opaque or transparent black, so the
            // premultiplied BGRA bytes are the RGBA ones with R and B swapped.
            var swapped = frame.pixels
            for i in stride(from: 0, to: swapped.count, by: 4) { swapped.swapAt(i, i + 2) }
            #expect(frame.pixels.enumerated().allSatisfy { $0.offset % 4 != 3 || $0.element == 255 || $0.element == 0 })
            #expect(rendered.pixelFormat == .premultipliedBGRA8)
            #expect(rendered.pixels == swapped, "frame \(index)")
            #expect(rendered.changedRect == frame.changedRect)
        }
        let plain = try await GIFFrameSource(image: image).frame(at: 5)
        #expect(plain.pixelFormat == .rgba8)
        #expect(plain.pixels == (try image.frame(at: 5).pixels))
    }
}

@Suite struct GIFFrameSourceMemoryTests {
    @Test func checkpointsGoWhenTheCacheGoes() async throws {
        // Fixtures/README.md: demo.gif, 240 frames on a 160×120 canvas.
        let source = try GIFFrameSource(contentsOf: GIFFrameSourceTests.fixture("demo.gif"))
        do {
            let cache = FrameCache(source: source, byteBudget: 1 << 20)
            _ = try await cache.frame(at: 239)
            #expect(source.checkpointCount > 0)
            // With its look-ahead done, nothing but this scope holds the cache.
            await cache.waitForPrefetch()
        }
        #expect(source.checkpointCount == 0)
    }

    @Test func framesDrawnIntoGivenStorageMatchFreshOnes() async throws {
        let path = GIFFrameSourceTests.fixture("demo.gif")
        let source = try GIFFrameSource(contentsOf: path)
        let reference = try GIFImage(contentsOf: path)
        var storage = [UInt8](repeating: 7, count: source.canvasWidth * source.canvasHeight * 4)
        let address = storage.withUnsafeBytes { $0.baseAddress }
        for index in [0, 1, 120, 5, 239] {
            let frame = try await source.frame(at: index, reusing: consume storage)
            #expect(frame.pixels == (try reference.frame(at: index).pixels), "frame \(index)")
            #expect(frame.pixels.withUnsafeBytes { $0.baseAddress } == address, "frame \(index)")
            storage = frame.pixels
        }
    }
}

/// The source's index tier: a looping caller decodes each frame once.
@Suite struct GIFFrameSourceIndexTierTests {
    /// Fixtures/README.md: screen-recording.gif, 600 frames whose indices
    /// take 640 × 400 + 11 × 200 × 120 + 588 × 16 × 14 bytes as they are,
    /// well within the default index budget.
    @Test func secondLoopDecodesNothingAndDrawsTheSameFrames() async throws {
        let path = GIFFrameSourceTests.fixture("screen-recording.gif")
        let source = try GIFFrameSource(contentsOf: path)
        var iterator = try GIFImage(contentsOf: path).makeFrameIterator()
        var expected: [Int] = []
        while let frame = try iterator.next() { expected.append(canvasDigest(frame.pixels, width: 640, height: 400)) }
        #expect(expected.count == 600)
        var storage: [UInt8] = []
        for loop in 0..<2 {
            for index in 0..<600 {
                let frame = try await source.frame(at: index, reusing: storage)
                #expect(canvasDigest(frame.pixels, width: 640, height: 400) == expected[index], "loop \(loop) frame \(index)")
                storage = frame.pixels
            }
            #expect(source.decodeCount == 600)
        }
        // Kept as runs where they take an eighth of them or less (FrameIndexCacheTests works
        // the sizes out): the desktop 2,730 bytes, each pane 144, each
        // character its 224 bytes as they are.
        #expect(source.indexBytes == 2_730 + 11 * 144 + 588 * 16 * 14)
        // The working state: the 640 × 400 canvas, and the decoder's index
        // buffer for the largest frame (frame 0, the whole canvas) beside
        // its code-check scratch and giflib's tables (about 33 KB).
        let working = source.workingStateByteCount
        #expect(working >= 640 * 400 * 4 + 640 * 400)
        #expect(working <= 640 * 400 * 4 + 640 * 400 + 64 << 10)
        #expect(source.decodingStateByteCount == working + source.checkpointAndIndexBytes)
        // The trim counts the working state as well.
        source.trimDecodingState(toBytes: working + 640 * 400)
        #expect(source.checkpointAndIndexBytes <= 640 * 400)
        #expect(source.decodingStateByteCount <= working + 640 * 400)
        #expect(source.indexBytes > 0)
        source.trimDecodingState(toBytes: working - 1)
        #expect(source.decodingStateByteCount == 0)
        #expect(source.indexBytes == 0 && source.checkpointAndIndexBytes == 0)
        _ = try await source.frame(at: 1)
        #expect(source.decodeCount == 602)
    }

    /// At a display size, indices are kept only when all of them take
    /// fewer bytes than the small frames (GIFFrameSource's rule): the
    /// demo's indices (summed here from the scan's frame rectangles) are
    /// more than 8 × 6 frames but far less than 40 × 30 ones. Compressed,
    /// they are estimated from frame 0's runs to take fewer than 8 × 6
    /// frames too (the demo's frames are a few shapes on one index), but
    /// more than 4 × 3 ones: at 8 × 6 each frame is kept where its entry
    /// takes fewer bytes than its small frame, at 4 × 3 none is.
    @Test func displaySizeKeepsIndicesOnlyWhenSmallerThanTheFrames() async throws {
        let image = try GIFImage(contentsOf: GIFFrameSourceTests.fixture("demo.gif"))
        let frames = image.info.frameCount
        let need = image.info.frames.reduce(0) { $0 + $1.rect.area }
        #expect(need > 8 * 6 * 4 * frames && need < 40 * 30 * 4 * frames)
        for (side, keeps) in [(4, false), (8, true), (40, true)] {
            let source = GIFFrameSource(image: image, displaySize: DisplaySize(maxWidth: side, maxHeight: side))
            var afterFirstLoop = 0
            for loop in 0..<2 {
                for index in 0..<frames { _ = try await source.frame(at: index) }
                if loop == 0 { afterFirstLoop = source.decodeCount }
            }
            // Kept as runs where they take an eighth of them or less,
            // compressed or as they are otherwise, with four bytes a row
            // of each row's drawn pixels: at most `need` bytes and those
            // rows, and, at 8 × 6, fewer than the small frames'.
            let rows = image.info.frames.reduce(0) { $0 + $1.rect.height } * 4
            #expect(keeps ? (1...need + rows).contains(source.indexBytes) : source.indexBytes == 0, "\(side)")
            if side == 8 { #expect(source.indexBytes < 8 * 6 * 4 * frames) }
            // Without indices the second loop decodes every frame again
            // but frame 0, copied back from the canvas kept after it
            // (FrameSeeker's docs); frame 0 was decoded once more at
            // creation, to see whether it shrinks to runs smaller than its
            // small frame (and again in the first loop where it was not
            // kept). With them, the second loop decodes only the frames
            // whose entry would take more than their small frame.
            #expect((frames...frames + 1).contains(afterFirstLoop), "\(side)")
            if keeps {
                #expect(source.decodeCount - afterFirstLoop < frames / 10, "\(side)")
            } else {
                #expect(source.decodeCount == 2 * frames, "\(side)")
            }
        }
    }

    /// A drawer keeps no small frames, so once one draws from a
    /// display-size source whose small frames would be cheaper to keep
    /// than its indices (the demo in a 4 × 3 cell, as above), the source
    /// keeps the indices after all, up to the whole index budget: its
    /// second loop decodes nothing.
    @Test func displaySizeKeepsIndicesForADrawer() async throws {
        let image = try GIFImage(contentsOf: GIFFrameSourceTests.fixture("demo.gif"))
        let frames = image.info.frameCount
        let source = GIFFrameSource(image: image, displaySize: DisplaySize(maxWidth: 4, maxHeight: 4))
        let drawer = source.makeDrawer(notifying: nil)
        #expect(drawer != nil)
        var afterFirstLoop = 0
        for loop in 0..<2 {
            for index in 0..<frames { _ = try await source.frame(at: index) }
            if loop == 0 { afterFirstLoop = source.decodeCount }
        }
        #expect(source.indexBytes > 4 * 3 * 4 * frames)
        #expect(source.decodeCount == afterFirstLoop)
        _ = drawer
    }

    /// Two playing caches under a shared budget too small for their frames
    /// and indices take each other's frames and indices, but each source
    /// keeps its working canvas: a frame costs one decode, never a replay
    /// from frame 0 (which would make a loop cost about frames² / 2).
    @Test func playingSourcesKeepTheirWorkingCanvasUnderPressure() async throws {
        let image = try GIFImage(contentsOf: GIFFrameSourceTests.fixture("demo.gif"))
        let frames = image.info.frameCount
        let canvasBytes = image.info.canvasSize.area * 4
        let budget = FrameMemoryBudget(byteBudget: canvasBytes * 4)
        let noCheckpoints = DecodingBudget(checkpointBytes: 0, indexBytes: DecodingBudget.default.indexBytes)
        let sources = [GIFFrameSource(image: image, budget: noCheckpoints), GIFFrameSource(image: image, budget: noCheckpoints)]
        let caches = sources.map { FrameCache(source: $0, budget: budget, lookahead: 0) }
        for cache in caches { cache.beginPlaying() }
        for _ in 0..<2 {
            for index in 0..<frames {
                for cache in caches { _ = try await cache.frame(at: index) }
            }
        }
        #expect(budget.bytesHeld <= canvasBytes * 4)
        #expect(budget.statistics.decodingStateTrims > 0)
        for source in sources { #expect(source.decodeCount <= 2 * frames) }
    }

    @Test func aZeroIndexBudgetDecodesEveryTime() async throws {
        let image = try GIFImage(contentsOf: GIFFrameSourceTests.fixture("demo.gif"))
        let source = GIFFrameSource(image: image, budget: DecodingBudget(checkpointBytes: 0, indexBytes: 0))
        for index in [0, 1, 2, 0, 1, 2] { _ = try await source.frame(at: index) }
        #expect(source.decodeCount == 6)
        #expect(source.indexBytes == 0)
    }

    /// FrameSeeker's docs: an animation's first checkpoint is the canvas
    /// after frame 0, so with room for it a loop starting again decodes
    /// frame 0 no more, and the frames after it follow on from it.
    @Test func aLoopStartingAgainCopiesFrameZeroBack() async throws {
        let image = try GIFImage(contentsOf: GIFFrameSourceTests.fixture("demo.gif"))
        let source = GIFFrameSource(
            image: image, budget: DecodingBudget(checkpointBytes: DecodingBudget.default.checkpointBytes, indexBytes: 0))
        var first: [[UInt8]] = []
        for index in [0, 1, 2] { first.append(try await source.frame(at: index).pixels) }
        #expect(source.checkpointCount >= 1)
        for index in [0, 1, 2] { #expect(try await source.frame(at: index).pixels == first[index]) }
        #expect(source.decodeCount == 5)
    }
}
