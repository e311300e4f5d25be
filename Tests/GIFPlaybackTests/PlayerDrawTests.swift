import Foundation
@_spi(Benchmarks) import GIF
@_spi(Benchmarks) import GIFPlayback
@_spi(Benchmarks) import Playback
import PlaybackTestSupport
import Testing

/// `Player.draw(into:bytesPerRow:)` over a GIF: the host's buffer receives
/// exactly the frames the plain whole-file iterator composites, in both
/// layouts and into padded rows, at full size and (box-filtered) at a
/// display size; only the changed rectangle differs between draws; a frame
/// not decoded yet leaves the buffer as it was and says so; bad buffers are
/// typed errors; and players sharing a pool and a budget draw what a lone
/// player draws.
@Suite struct PlayerDrawTests {
    typealias Instant = ManualClock.Instant

    /// The suite's own decoding thread: other suites running beside it
    /// (under a sanitizer, slowly) cannot keep its decodes waiting.
    static let executor = FrameDecodeExecutor(threadCount: 1)

    /// Bytes between rows beyond the frame's row, holding ``padding``.
    static let slack = 12
    static let padding: UInt8 = 0xA5

    /// A host buffer of padded rows for frames of `width` × `height`.
    struct HostBuffer {
        let width: Int, height: Int, bytesPerRow: Int
        var bytes: [UInt8]
        init(width: Int, height: Int) {
            self.width = width
            self.height = height
            bytesPerRow = width * 4 + PlayerDrawTests.slack
            bytes = [UInt8](repeating: PlayerDrawTests.padding, count: bytesPerRow * height)
        }
        /// The frame's pixels without the padding.
        var pixels: [UInt8] {
            (0..<height).flatMap { row in bytes[row * bytesPerRow..<row * bytesPerRow + width * 4] }
        }
        var paddingKept: Bool {
            (0..<height).allSatisfy { row in
                bytes[row * bytesPerRow + width * 4..<(row + 1) * bytesPerRow].allSatisfy { $0 == PlayerDrawTests.padding }
            }
        }
        mutating func draw<I>(_ player: Player<I>) throws -> FrameDraw {
            let stride = bytesPerRow
            return try bytes.withUnsafeMutableBytes { try player.draw(into: $0, bytesPerRow: stride) }
        }
        /// Draws until the frame is not late any more, within a minute (or
        /// the player tests' longer wait limit, `PLAYBACK_TEST_WAIT_SECONDS`).
        /// A GIF drawn from its stored indices is decoded ahead on the
        /// source's threads; one drawn from its frame cache is decoded by
        /// the cache's tasks on Swift's cooperative pool, which the suites
        /// running beside this one (decoding on it, under a sanitizer) can
        /// keep busy for many seconds.
        mutating func drawWhenReady<I>(_ player: Player<I>) async throws -> FrameDraw {
            let deadline = ContinuousClock.now + max(Changes.limit, .seconds(60))
            while true {
                let result = try draw(player)
                guard case .late = result, ContinuousClock.now < deadline else { return result }
                try await Task.sleep(for: .milliseconds(1))
            }
        }
    }

    /// `count` of `files` spread evenly from an offset `SWEEP_SEED` picks
    /// (the clock without it), so that successive `make test` runs cover
    /// the corpus; all of them with `GIF_TEST_FULL=1` (`make test-long`).
    static func sample(_ files: [String], atMost count: Int) -> [String] {
        let environment = ProcessInfo.processInfo.environment
        guard environment["GIF_TEST_FULL"] != "1", files.count > count else { return files }
        let seed = environment["SWEEP_SEED"].flatMap { Int($0) } ?? Int(Date().timeIntervalSince1970)
        return (0..<count).map { files[(seed + $0 * files.count / count) % files.count] }
    }

    /// The corpus animations (scanned, not decoded) of at most 300,000
    /// canvas pixels.
    static let animations: [String] = DrawingPlayerTests.files.filter { file in
        guard let image = try? GIFImage(contentsOf: DrawingPlayerTests.corpus.appendingPathComponent(file).path)
        else { return false }
        return image.info.frameCount > 1 && image.info.canvasSize.area <= 300_000
    }

    /// The whole-file iterator's frames, each as the host sees it.
    static func expectedFrames(_ image: GIFImage, format: PixelFormat, scaledTo size: DisplaySize? = nil) -> [[UInt8]] {
        var iterator = image.makeFrameIterator(pixelFormat: format)
        var frames: [[UInt8]] = []
        while let frame = try? iterator.next() {
            let canvas = image.info.canvasSize
            if let size {
                let fitted = size.fitting(width: canvas.width, height: canvas.height)
                frames.append(
                    boxFilter(frame.pixels, width: canvas.width, height: canvas.height, to: fitted,
                              premultiplied: format == .premultipliedBGRA8))
            } else {
                frames.append(frame.pixels)
            }
        }
        return frames
    }

    /// Area-average scaling written out from its definition: each output
    /// pixel covers `source / output` of the source on each axis; a source
    /// pixel counts by the part of it covered. Colour is weighted by alpha
    /// unless premultiplied; every result rounds to nearest.
    static func boxFilter(
        _ pixels: [UInt8], width: Int, height: Int, to size: (width: Int, height: Int), premultiplied: Bool
    ) -> [UInt8] {
        func overlap(_ o: Int, _ s: Int, source: Int, output: Int) -> Int64 {
            // In units of 1 / (source × output): output pixel o spans
            // [o × source, (o + 1) × source), source pixel s spans
            // [s × output, (s + 1) × output).
            Int64(max(0, min((o + 1) * source, (s + 1) * output) - max(o * source, s * output)))
        }
        var out = [UInt8](repeating: 0, count: size.width * size.height * 4)
        let area = Int64(width) * Int64(height)
        for oy in 0..<size.height {
            for ox in 0..<size.width {
                var sums = [Int64](repeating: 0, count: 4)
                // The source pixels output pixel (ox, oy) can overlap.
                let rows = oy * height / size.height..<min(height, ((oy + 1) * height + size.height - 1) / size.height)
                let columns = ox * width / size.width..<min(width, ((ox + 1) * width + size.width - 1) / size.width)
                for sy in rows {
                    let wy = overlap(oy, sy, source: height, output: size.height)
                    guard wy > 0 else { continue }
                    for sx in columns {
                        let w = overlap(ox, sx, source: width, output: size.width) * wy
                        guard w > 0 else { continue }
                        let i = (sy * width + sx) * 4
                        let a = Int64(pixels[i + 3]) * w
                        for c in 0..<3 { sums[c] += Int64(pixels[i + c]) * (premultiplied ? w : a) }
                        sums[3] += a
                    }
                }
                let o = (oy * size.width + ox) * 4
                for c in 0..<3 {
                    let divisor = premultiplied ? area : sums[3]
                    out[o + c] = divisor > 0 ? UInt8((sums[c] + divisor / 2) / divisor) : 0
                }
                out[o + 3] = UInt8((sums[3] + area / 2) / area)
            }
        }
        return out
    }

    /// Each of `frames` through `filter`: what a display-size drawer must draw.
    static func filtered(_ frames: [[UInt8]], by filter: BoxFilter) -> [[UInt8]] {
        frames.map { full in
            var out: [UInt8] = []
            filter.apply(full, into: &out)
            return out
        }
    }

    /// Plays `image` through `loops` loops on a manual clock, drawing each
    /// frame change, and checks each drawn frame and changed rectangle.
    /// Returns whether the source held every frame's recorded change at
    /// the end, while the player still played.
    @discardableResult
    static func checkLoop(
        _ source: GIFFrameSource, expected: [[UInt8]], player: Player<Instant>? = nil, loops: Int = 1, label: String
    ) async throws -> Bool {
        let player = try player ?? Player(source: source, configuration: PlayerConfiguration(loop: .forever),
                                          startingAt: Instant(offset: .zero))
        var buffer = HostBuffer(width: player.drawer.width, height: player.drawer.height)
        await player.play()
        var previous: [UInt8]?
        for step in 0..<source.frameCount * loops {
            let frame = player.currentFrame
            let result = try await buffer.drawWhenReady(player)
            guard case .drawn(let index, let changed, _) = result else {
                Issue.record("\(label) frame \(frame): \(result); cache \(await player.cache.statistics)")
                return false
            }
            #expect(index == frame)
            let pixels = buffer.pixels
            let same = pixels == expected[frame]
            #expect(same, "\(label) frame \(frame): not the iterator's frame")
            #expect(buffer.paddingKept, "\(label) frame \(frame)")
            if let previous, step > 0 {
                // Every pixel outside the changed rectangle is the one before.
                var outside = true
                for y in 0..<buffer.height {
                    for x in 0..<buffer.width where !(changed.x..<changed.x + changed.width).contains(x)
                        || !(changed.y..<changed.y + changed.height).contains(y) {
                        let i = (y * buffer.width + x) * 4
                        if pixels[i..<i + 4] != previous[i..<i + 4] { outside = false }
                    }
                }
                #expect(outside, "\(label) frame \(frame): a pixel outside \(changed) changed")
            }
            previous = pixels
            guard let next = player.nextChangeInstant else { break }
            await player.advance(to: next)
        }
        return source.drawsFromRecordedChanges
    }

    @Test(arguments: [PixelFormat.rgba8, .premultipliedBGRA8])
    func drawnFramesAreTheIteratorsFrames(format: PixelFormat) async throws {
        var checked = 0
        for file in Self.sample(Self.animations, atMost: 3) {
            let image = try GIFImage(contentsOf: DrawingPlayerTests.corpus.appendingPathComponent(file).path)
            guard DrawingPlayerTests.expected(image) != nil else { continue }
            let expected = Self.expectedFrames(image, format: format)
            // Two loops: the second starts again from the changes the
            // drawer recorded in the first and draws from them alone, with
            // checkpoint bytes for a whole canvas a frame and one more (each
            // change is at most a canvas).
            let canvas = image.info.canvasSize.area * 4
            var budget = DecodingBudget.default
            budget.checkpointBytes = canvas * (image.info.frameCount + 1)
            let source = GIFFrameSource(image: image, budget: budget, executor: Self.executor, pixelFormat: format)
            let recorded = try await Self.checkLoop(source, expected: expected, loops: 2, label: file)
            #expect(recorded, "\(file): no recorded changes")
            checked += 1
        }
        #expect(checked > 0, "no animation checked")
    }

    /// A budget that takes a source's recorded changes back gets their
    /// memory at once: the drawers holding the set let go of it before the
    /// trim returns, and the player draws on by compositing, the same
    /// frames.
    @Test func trimmedRecordedChangesLeaveTheDrawers() async throws {
        let image = try GIFImage(contentsOf: GIFFrameSourceTests.fixture("demo.gif"))
        let expected = Self.expectedFrames(image, format: .rgba8)
        let source = GIFFrameSource(image: image, executor: Self.executor)
        let player = try Player(source: source, configuration: PlayerConfiguration(loop: .forever),
                                startingAt: Instant(offset: .zero))
        var buffer = HostBuffer(width: player.drawer.width, height: player.drawer.height)
        await player.play()
        func step() async throws {
            guard let next = player.nextChangeInstant else { throw CancellationError() }
            await player.advance(to: next)
        }
        for _ in 0..<2 * source.frameCount + 5 {
            _ = try await buffer.drawWhenReady(player)
            try await step()
        }
        weak let held = source.recordedChangesObject
        #expect(held != nil, "no recorded changes held after two loops")
        source.trimDecodingState(toBytes: 0)
        #expect(held == nil, "the recorded changes outlived the trim")
        for _ in 0..<20 {
            _ = try await buffer.drawWhenReady(player)
            let frame = player.currentFrame
            #expect(buffer.pixels == expected[frame], "frame \(frame) after the trim")
            try await step()
        }
    }

    @Test func displaySizeDrawsTheBoxFilteredFrames() async throws {
        let size = DisplaySize(maxWidth: 37, maxHeight: 37)
        var checked = 0
        for file in Self.sample(Self.animations, atMost: 3) {
            let image = try GIFImage(contentsOf: DrawingPlayerTests.corpus.appendingPathComponent(file).path)
            guard DrawingPlayerTests.expected(image) != nil else { continue }
            let expected = Self.expectedFrames(image, format: .rgba8, scaledTo: size)
            let source = try #require(GIFFrameSource(image: image, executor: Self.executor).displaying(at: size) as? GIFFrameSource)
            try await Self.checkLoop(source, expected: expected, label: "\(file) at \(size)")
            checked += 1
        }
        #expect(checked > 0, "no animation checked")
    }

    /// At a display size a player stepping on scales only each canvas
    /// row's changed stretch, and still draws the box-filtered frames,
    /// leaving every pixel outside the changed rectangle as it was: over
    /// frames kept as their indices with each row's drawn pixels
    /// (count-down: transparent-optimised frames), frames kept as runs
    /// whose changed pixels the runs drawer notes (chi), and frames whose
    /// disposal restores the background or the previous canvas under a
    /// transparent frame (animated-10color, dispose_bgnd_transparency);
    /// and a sample of the other corpus animations (all of them with
    /// `GIF_TEST_FULL=1`). The second loop draws from the scaled changes
    /// the first recorded, where they take fewer bytes than the indices
    /// (count-down's do: about half of each small frame against every
    /// index of its large one).
    @Test(arguments: [PixelFormat.rgba8, .premultipliedBGRA8])
    func displaySizeStepsScaleEachChangedRow(format: PixelFormat) async throws {
        // Output pixels a few source pixels wide: a stretch one pixel short
        // misses output columns.
        let size = DisplaySize(maxWidth: 120, maxHeight: 120)
        let chosen = [
            "blink/count-down-color-test.gif", "pillow/chi.gif", "blink/animated-10color.gif",
            "pillow/dispose_bgnd_transparency.gif",
        ]
        for file in chosen + Self.sample(Self.animations.filter { !chosen.contains($0) }, atMost: 2) {
            let image = try GIFImage(contentsOf: DrawingPlayerTests.corpus.appendingPathComponent(file).path)
            let expected = Self.expectedFrames(image, format: format, scaledTo: size)
            let full = GIFFrameSource(image: image, executor: Self.executor, pixelFormat: format)
            let source = try #require(full.displaying(at: size) as? GIFFrameSource)
            let recorded = try await Self.checkLoop(
                source, expected: expected, loops: 2, label: "\(file) at \(size), \(format)")
            if file == chosen[0] { #expect(recorded, "\(file): the second loop drew no recorded changes") }
        }
    }

    /// A large GIF in a small cell whose indices as they are take more
    /// bytes than its small frames, but whose frames are mostly one index
    /// (sample_big.gif: 259 whole 1000 × 175 frames, 175,000 indices each
    /// against 28,000 bytes a 200 × 35 frame): kept as runs they take less
    /// than the small frames, so the source keeps them and the host's
    /// buffer is drawn from them, each frame decoded once.
    @Test func displaySizeKeepsIndicesThatShrinkToRunsAndDrawsThem() async throws {
        let path = DrawingPlayerTests.corpus.appendingPathComponent("image-gif/samples/sample_big.gif").path
        let image = try GIFImage(contentsOf: path)
        let canvas = image.info.canvasSize
        try #require(canvas.width == 1000 && canvas.height == 175 && image.info.frameCount == 259)
        let size = DisplaySize(maxWidth: 200, maxHeight: 200)
        let source = try #require(GIFFrameSource(image: image, executor: Self.executor).displaying(at: size) as? GIFFrameSource)
        let frameBytes = 200 * 35 * 4 // the small frame's bytes
        #expect(source.canvasWidth == 200 && source.canvasHeight == 35)
        #expect(image.info.framePixelCount > frameBytes * image.info.frameCount)
        let (decoded, arrivals) = AsyncStream<Void>.makeStream()
        let made = source.makeDrawer(notifying: { arrivals.yield() })
        let drawer = try #require(made)
        var frames = image.makeFrameIterator()
        var expected: [[UInt8]] = []
        for _ in 0..<4 {
            let full = try #require(try frames.next())
            expected.append(Self.boxFilter(full.pixels, width: canvas.width, height: canvas.height, to: (200, 35),
                                           premultiplied: false))
        }
        var buffer = HostBuffer(width: 200, height: 35)
        var waits = decoded.makeAsyncIterator()
        var firstPassDecodes = 0, secondPassLate = 0
        for (step, index) in [0, 1, 2, 3, 0, 1, 2, 3].enumerated() {
            if step == 4 { firstPassDecodes = source.decodeCount }
            while true {
                let stride = buffer.bytesPerRow
                let result = try buffer.bytes.withUnsafeMutableBytes { try drawer.draw(frame: index, into: $0, bytesPerRow: stride) }
                if case .late = result {
                    if step >= 4 { secondPassLate += 1 }
                    // Asked for by the draw; the decode-ahead says when it stored one.
                    guard await waits.next() != nil else { break }
                    continue
                }
                guard case .drawn(index, _, true) = result else {
                    Issue.record("frame \(index): \(result)")
                    return
                }
                break
            }
            #expect(buffer.pixels == expected[index], "frame \(index)")
        }
        // The second pass waits for no decode: drawn from what is held
        // (frame 0, too busy to keep, among the frames passed on to the
        // drawer), in fewer bytes than the small frames of the frames
        // decoded (frame 0 once more to choose). The decode-ahead may still
        // be finishing the frames after 3 that the first pass asked for.
        #expect(firstPassDecodes >= 5 && secondPassLate == 0)
        #expect((1..<frameBytes * (source.decodeCount - 1)).contains(source.indexBytes))
    }

    /// Every content mode, with crops, HiDPI scales and both upscalings:
    /// the buffer the player draws into, step by step writing only the
    /// changed rectangles, holds what a full redraw of each frame makes;
    /// over a GIF scaled down and 4 × 4 ones (sub-frame changes, each
    /// disposal, transparency) scaled up.
    @Test func displayModesDrawWhatAFullRedrawMakes() async throws {
        let sizes = [
            DisplaySize(width: 30, height: 30, contentMode: .aspectFill, alignment: .topLeft, scale: 1.5, upscaling: .nearest),
            DisplaySize(width: 30, height: 20, contentMode: .aspectFit, scale: 2),
            DisplaySize(width: 41, height: 23, contentMode: .natural, scale: 1.5),
            DisplaySize(width: 61, height: 17, contentMode: .stretch, alignment: .bottomRight),
        ]
        // demo.gif's 240 frames at two sizes only, to keep a debug run short.
        let files = [("demo.gif", sizes.prefix(1) + sizes.suffix(1))] + [
            "disposal-1.gif", "disposal-2.gif", "disposal-3.gif", "transparency.gif", "first-frame-growth.gif",
        ].map { ($0, sizes[...]) }
        for (name, sizes) in files {
            let path = GIFFrameSourceTests.fixture(name)
            let image = try GIFImage(contentsOf: path)
            var iterator = image.makeFrameIterator()
            var frames: [[UInt8]] = []
            while let frame = try iterator.next() { frames.append(frame.pixels) }
            for size in sizes {
                let canvas = image.info.canvasSize
                let filter = BoxFilter(sourceWidth: canvas.width, sourceHeight: canvas.height, displaySize: size)
                let expected = Self.filtered(frames, by: filter)
                let source = try #require(
                    GIFFrameSource(image: image, executor: Self.executor).displaying(at: size) as? GIFFrameSource)
                #expect(source.canvasWidth == filter.width && source.canvasHeight == filter.height)
                try await Self.checkLoop(source, expected: expected, label: "\(name) at \(size)")
            }
        }
    }

    @Test func aFrameNotDecodedYetLeavesTheBufferAndIsReported() async throws {
        let image = try GIFImage(contentsOf: GIFFrameSourceTests.fixture("loop-2.gif"))
        let player = try Player(source: GIFFrameSource(image: image, executor: Self.executor), startingAt: Instant(offset: .zero))
        let events = EventLog()
        await player.addObserver { events.append($0) }
        var buffer = HostBuffer(width: 2, height: 2)
        // Nothing was decoded or asked for yet: the first draw is late.
        #expect(try buffer.draw(player) == .late(frame: 0, shown: nil))
        #expect(buffer.bytes.allSatisfy { $0 == Self.padding })
        #expect(player.lateDrawCount == 1)
        await player.play()
        #expect(events.all.contains(.drawnLate(frame: 0)))
        // Fixtures/README.md: loop-2.gif is red, then green.
        guard case .drawn(0, _, true) = try await buffer.drawWhenReady(player) else {
            Issue.record("frame 0 never drawn")
            return
        }
        #expect(buffer.pixels == [UInt8]([255, 0, 0, 255]) + [255, 0, 0, 255] + [255, 0, 0, 255] + [255, 0, 0, 255])
    }

    @Test func badBuffersAreTypedErrors() throws {
        let image = try GIFImage(contentsOf: GIFFrameSourceTests.fixture("loop-2.gif"))
        let player = try Player(source: GIFFrameSource(image: image, executor: Self.executor), startingAt: Instant(offset: .zero))
        var small = [UInt8](repeating: 0, count: 15)
        #expect(throws: PixelBufferError.bufferTooSmall(byteCount: 15, needed: 16)) {
            try small.withUnsafeMutableBytes { _ = try player.draw(into: $0, bytesPerRow: 8) }
        }
        #expect(throws: PixelBufferError.rowStrideTooSmall(bytesPerRow: 7, minimum: 8)) {
            try small.withUnsafeMutableBytes { _ = try player.draw(into: $0, bytesPerRow: 7) }
        }
        #expect(throws: PixelBufferError.bufferTooSmall(byteCount: 15, needed: Int.max)) {
            try small.withUnsafeMutableBytes { _ = try player.draw(into: $0, bytesPerRow: Int.max) }
        }
        #expect(small.allSatisfy { $0 == 0 })
    }

    @Test func pooledPlayersUnderABudgetDrawWhatALonePlayerDraws() async throws {
        guard let file = DrawingPlayerTests.files.first(where: { $0.contains("pillow") }) ?? DrawingPlayerTests.files.first
        else { return }
        let path = DrawingPlayerTests.corpus.appendingPathComponent(file).path
        let image = try GIFImage(contentsOf: path)
        guard DrawingPlayerTests.expected(image) != nil else { return }
        let expected = Self.expectedFrames(image, format: .rgba8)
        let pool = FrameCachePool(budget: FrameMemoryBudget(byteBudget: 1 << 20))
        let cache = try await pool.cache(for: path) { GIFFrameSource(image: try GIFImage(contentsOf: path), executor: Self.executor) }
        let source = try #require(cache.source as? GIFFrameSource)
        for _ in 0..<2 {
            let player = try Player(source: source, configuration: PlayerConfiguration(loop: .forever),
                                    startingAt: Instant(offset: .zero), cache: cache)
            try await Self.checkLoop(source, expected: expected, player: player, label: "\(file) pooled")
        }
    }
}

extension PlayerDrawTests {
    @Test func aGroupTickedByTheHostShowsWhatALonePlayerShows() async throws {
        // Fixtures/README.md: demo.gif is 240 frames of 160 × 120.
        let path = GIFFrameSourceTests.fixture("demo.gif")
        let clock = ManualClock()
        let epoch = clock.now
        let configuration = PlayerConfiguration(loop: .forever)
        let lone = try Player(source: GIFFrameSource(image: try GIFImage(contentsOf: path), executor: Self.executor),
                             configuration: configuration, startingAt: epoch)
        let pool = FrameCachePool(budget: FrameMemoryBudget(byteBudget: 1 << 20))
        let cache = try await pool.cache(for: path) {
            GIFFrameSource(image: try GIFImage(readingFramesFromFileAt: path), executor: Self.executor)
        }
        let group = GroupDriver(clock: clock)
        var members: [Player<Instant>] = []
        for _ in 0..<2 {
            let player = try Player(source: cache.source, configuration: configuration, startingAt: epoch, epoch: epoch,
                                    cache: cache)
            await group.add(player)
            members.append(player)
        }
        await lone.play(at: epoch)
        for player in members { await player.play(at: epoch) }
        var loneBuffer = HostBuffer(width: 160, height: 120)
        var buffers = members.map { _ in HostBuffer(width: 160, height: 120) }
        // A 60 Hz host for three seconds: each refresh ticks the group.
        for refresh in 1...180 {
            let now = Instant(offset: .nanoseconds(Int64(refresh) * 16_666_667))
            clock.advance(to: now)
            let before = lone.currentFrame
            await lone.advance(to: now)
            let frame = lone.currentFrame
            let changed = await group.tick(at: now).changed
            #expect(changed == (frame == before ? [] : members.map { ObjectIdentifier($0) }), "refresh \(refresh)")
            _ = try await loneBuffer.drawWhenReady(lone)
            for index in members.indices {
                #expect(members[index].currentFrame == frame, "refresh \(refresh)")
                _ = try await buffers[index].drawWhenReady(members[index])
                let same = buffers[index].bytes == loneBuffer.bytes
                #expect(same, "refresh \(refresh): member \(index) drew another picture")
            }
        }
    }
}

extension PlayerDrawTests {
    /// Also ticked on the calling thread (`tickPlayers(at:)`, a display
    /// link's call, every other refresh), a group of players and a
    /// playlist gives the same frames, and so does a group of players
    /// alone.
    @Test func aGroupMadeAfterItsMembersStartedTicksPlayersAndPlaylistsAsTheyPlayAlone() async throws {
        // Fixtures/README.md: demo.gif is 240 frames of 160 × 120; loop-2.gif
        // is 2 × 2, red then green, 10 cs each, played 3 times.
        let executor = Self.executor
        let demo = GIFFrameSourceTests.fixture("demo.gif"), loop = GIFFrameSourceTests.fixture("loop-2.gif")
        let clock = ManualClock()
        let epoch = clock.now
        func player() throws -> Player<Instant> {
            try Player(source: GIFFrameSource(image: try GIFImage(contentsOf: demo), executor: executor),
                       configuration: PlayerConfiguration(loop: .forever), startingAt: epoch)
        }
        func playlist() async throws -> Playlist<Instant> {
            let item = PlaylistItem(key: "loop-2.gif", loops: 2) {
                GIFFrameSource(image: try GIFImage(contentsOf: loop), executor: executor)
            }
            let playlist = try Playlist(items: [item], startingAt: epoch)
            let events = await playlist.events()
            if await playlist.loadState(of: "loop-2.gif") != .ready {
                for await event in events { if case .loadFinished = event { break } }
            }
            return playlist
        }
        let (lone, member, synchronous) = (try player(), try player(), try player())
        let (lonePlaylist, memberPlaylist) = (try await playlist(), try await playlist())
        for player in [lone, member, synchronous] { await player.play(at: epoch) }
        for playlist in [lonePlaylist, memberPlaylist] { _ = await playlist.play(at: epoch) }
        // The driver counts time from the clock's time when it is made: not
        // the members' origin, and not a whole number of frame periods.
        let start = Instant(offset: .nanoseconds(1_234_567_891))
        clock.advance(to: start)
        let group = GroupDriver(clock: clock)
        await group.add(member)
        await group.add(memberPlaylist)
        let playersOnly = GroupDriver(clock: clock)
        await playersOnly.add(synchronous)
        // A 60 Hz host for two seconds: the playlist's item ends within it.
        for refresh in 1...120 {
            let now = start.advanced(by: .nanoseconds(Int64(refresh) * 16_666_667))
            clock.advance(to: now)
            await lone.advance(to: now)
            _ = await lonePlaylist.advance(to: now)
            let tick = refresh.isMultiple(of: 2) ? group.tickPlayers(at: now) : await group.tick(at: now)
            #expect(member.currentFrame == lone.currentFrame, "refresh \(refresh)")
            #expect(await memberPlaylist.currentFrame == lonePlaylist.currentFrame, "refresh \(refresh)")
            #expect(await memberPlaylist.state == lonePlaylist.state, "refresh \(refresh)")
            let dues = [lone.nextChangeInstant, await lonePlaylist.nextChangeInstant].compactMap { $0 }
            #expect(tick.nextChange == dues.min(), "refresh \(refresh)")
            let ticked = playersOnly.tickPlayers(at: now)
            #expect(synchronous.currentFrame == lone.currentFrame, "refresh \(refresh)")
            #expect(ticked.nextChange == lone.nextChangeInstant, "refresh \(refresh)")
            #expect(ticked.changed.isEmpty != tick.changed.contains(ObjectIdentifier(member)), "refresh \(refresh)")
        }
    }
}

extension PlayerDrawTests {
    @Test func aPlaylistDrawsItsItemsAndEachNewItemWhole() async throws {
        // Fixtures/README.md: loop-2.gif is 2 × 2, red then green;
        // transparency.gif is 4 × 4, its frame 0 red with (3, 3)
        // transparent.
        let red: [UInt8] = [255, 0, 0, 255], green: [UInt8] = [0, 255, 0, 255]
        let executor = Self.executor
        let items = ["loop-2.gif", "transparency.gif"].map { name in
            PlaylistItem(key: name, loops: 1) {
                GIFFrameSource(image: try GIFImage(contentsOf: GIFFrameSourceTests.fixture(name)), executor: executor)
            }
        }
        let playlist = try Playlist(items: items, startingAt: Instant(offset: .zero))
        var small = HostBuffer(width: 2, height: 2)
        func drawWhenReady(_ buffer: inout HostBuffer) async throws -> FrameDraw? {
            let deadline = ContinuousClock.now + max(Changes.limit, .seconds(60))
            while true {
                let stride = buffer.bytesPerRow
                let result = try buffer.bytes.withUnsafeMutableBytes { try playlist.draw(into: $0, bytesPerRow: stride) }
                if let result, case .late = result, ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(1))
                    continue
                }
                if result == nil, ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(1))  // the item is still loading
                    continue
                }
                return result
            }
        }
        await playlist.play(at: Instant(offset: .zero))
        #expect(try await drawWhenReady(&small)?.shownFrame == 0)
        #expect(small.pixels == red + red + red + red)
        // The playlist's next changes, until what it shows is another frame
        // (an item waited for starts, on frame 0, at the advance after its
        // load).
        func showNext() async throws {
            let before = (await playlist.currentKey, await playlist.currentFrame ?? 0)
            for _ in 0..<8 {
                guard let next = await playlist.nextChangeInstant else {
                    try await Task.sleep(for: .milliseconds(1))  // a load is under way
                    continue
                }
                await playlist.advance(to: next)
                if (await playlist.currentKey, await playlist.currentFrame ?? 0) != before { return }
            }
        }
        try await showNext()
        #expect(try await drawWhenReady(&small)?.shownFrame == 1)
        #expect(small.pixels == green + green + green + green)
        // The next item: its own size, written whole.
        try await showNext()
        #expect(await playlist.currentKey == "transparency.gif")
        let drawer = try #require(playlist.currentDrawer)
        #expect(drawer.width == 4 && drawer.height == 4)
        var large = HostBuffer(width: 4, height: 4)
        guard case .drawn(0, let changed, _) = try await drawWhenReady(&large) else {
            Issue.record("transparency.gif's frame 0 not drawn")
            return
        }
        #expect(changed == PixelRect(x: 0, y: 0, width: 4, height: 4))
        #expect(Array(large.pixels[0..<4]) == red)
        #expect(Array(large.pixels[60..<64]) == [0, 0, 0, 0])
    }
}

extension PlayerDrawTests {
    /// A look-ahead that finds a frame missing asks for as many frames
    /// again past it, so that the decode-ahead wakes for a window of frames
    /// rather than for each frame as the player moves on.
    /// demo.gif (Fixtures/README.md: 240 frames of 160 × 120) read from its
    /// file, and a player of it looping forever on a manual clock.
    static func demoPlayer() throws -> (GIFFrameSource, ManualClock, Player<Instant>) {
        let path = GIFFrameSourceTests.fixture("demo.gif")
        let source = GIFFrameSource(image: try GIFImage(readingFramesFromFileAt: path), executor: executor)
        let clock = ManualClock()
        let player = try Player(source: source, configuration: PlayerConfiguration(loop: .forever),
                                startingAt: clock.now)
        return (source, clock, player)
    }

    @Test func aMissingLookAheadAsksForAWindowOfFrames() async throws {
        let (source, clock, player) = try Self.demoPlayer()
        // Playing asks for the frame shown and the cache's look-ahead of 4
        // (frames 0 to 4), widened to the 8 frames the index tier keeps
        // past its budget (frames 0 to 7); the first draw, late, asks for
        // frames 0 to 4 again.
        await player.play(at: clock.now)
        var buffer = HostBuffer(width: 160, height: 120)
        _ = try await buffer.drawWhenReady(player)
        let deadline = ContinuousClock.now + max(Changes.limit, .seconds(60))
        while source.decodeCount < 8, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(1)) }
        let decodes = source.decodeCount
        #expect(decodes == 8)
    }

    @Test func ticksAfterEveryFrameIsStoredAskForNoIndices() async throws {
        // Fixtures/README.md: demo.gif's indices (six whole frames and 234
        // of 16 × 16, about 175 KB) fit the default index budget.
        let (source, clock, player) = try Self.demoPlayer()
        let group = GroupDriver(clock: clock)
        await group.add(player)
        await player.play(at: clock.now)
        var buffer = HostBuffer(width: 160, height: 120)
        _ = try await buffer.drawWhenReady(player)
        /// Ticks the group to the next change and draws it.
        func step(waiting: Bool) async throws -> FrameDraw {
            let next = try #require(player.nextChangeInstant)
            clock.advance(to: next)
            #expect(await group.tick(at: next).changed == [ObjectIdentifier(player)])
            return waiting ? try await buffer.drawWhenReady(player) : try buffer.draw(player)
        }
        // The first loop: each frame is drawn once the decode-ahead, asked
        // by the ticks and the late draws, has stored it.
        for _ in 1..<source.frameCount { _ = try await step(waiting: true) }
        let requests = source.indexRequestCount
        #expect(requests > 0)
        // Two more loops: every frame is stored, so no tick or draw asks for
        // one, and no draw is late.
        for _ in 0..<2 * source.frameCount {
            let result = try await step(waiting: false)
            guard case .drawn = result else {
                Issue.record("a stored frame's draw: \(result)")
                return
            }
        }
        #expect(source.indexRequestCount == requests)
    }
}

extension PlayerDrawTests {
    @Test func aLoopStartingAgainWritesOnlyWhereTheCanvasLeftFrameZero() async throws {
        // Fixtures/README.md: screen-recording.gif is 640 × 400, 600 frames,
        // disposal 1: a whole desktop, then 16 × 14 characters at
        // (40 + 8c, 64 + 16l) for c < 70, l ≤ 8 (frames 1…599), and a
        // 200 × 120 pane at (400, 250) every 50th frame. After frame 599
        // the canvas differs from frame 0's only inside the box of those.
        let moved = PixelRect(x: 40, y: 64, width: 608 - 40, height: 370 - 64)
        let path = GIFFrameSourceTests.fixture("screen-recording.gif")
        let image = try GIFImage(contentsOf: path)
        var iterator = image.makeFrameIterator()
        let first = try #require(try iterator.next()).pixels
        let source = GIFFrameSource(image: image, executor: Self.executor)
        let player = try Player(source: source, configuration: PlayerConfiguration(loop: .forever),
                                startingAt: Instant(offset: .zero))
        await player.play()
        var buffer = HostBuffer(width: 640, height: 400)
        _ = try await buffer.drawWhenReady(player)
        for _ in 1..<source.frameCount {
            await player.advance(to: try #require(player.nextChangeInstant))
            _ = try await buffer.drawWhenReady(player)
        }
        #expect(player.currentFrame == source.frameCount - 1)
        let before = buffer.pixels
        await player.advance(to: try #require(player.nextChangeInstant))
        guard case .drawn(0, let changed, _) = try await buffer.drawWhenReady(player) else {
            Issue.record("frame 0 of the second loop not drawn")
            return
        }
        #expect(changed.union(moved) == moved, "\(changed) reaches outside \(moved)")
        #expect(buffer.pixels == first)
        #expect(buffer.paddingKept)
        // A host presenting only the changed rectangle shows frame 0.
        var screen = before
        for y in changed.y..<changed.y + changed.height {
            let row = (y * 640 + changed.x) * 4
            screen.replaceSubrange(row..<row + changed.width * 4, with: first[row..<row + changed.width * 4])
        }
        #expect(screen == first)
    }
}

/// Events an observer saw, readable from the test.
final class EventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [PlayerEvent] = []
    func append(_ event: PlayerEvent) { lock.withLock { events.append(event) } }
    var all: [PlayerEvent] { lock.withLock { events } }
}
