import DrawingContract
import Foundation
import GIF
@_spi(Benchmarks) import GIFPlayback
@_spi(Benchmarks) import Playback
import Testing

/// GIF sources under one budget too small for what they would keep: the
/// indices their decodes store and the changes their drawers record are
/// counted before they are held, so what the budget's members really hold
/// never passes its limit, sampled after every draw of a host drawing
/// every change.
@Suite("GIF sources under a small shared budget")
struct SharedBudgetTests {
    /// What the budget's members hold now by their own count: its frames
    /// and reservations, and each source's decoding state as the source
    /// reports it (not as the budget last read it).
    static func held(_ budget: FrameMemoryBudget, _ sources: [GIFFrameSource]) -> Int {
        let statistics = budget.statistics
        return statistics.frameBytes + statistics.reservedBytes + sources.reduce(0) { $0 + $1.decodingState.total }
    }

    /// Fixtures/README.md: demo.gif is 240 frames of 160 × 120 and
    /// screen-recording.gif 600 frames of 640 × 400; with generated GIFs
    /// beside them, at full size and in cells, under budgets from below
    /// what the sources need to draw at all (their working canvases and
    /// decoder buffers, counted before they are held: about 5 MB, the
    /// screen recording's two sources 2.3 MB each; under 4 MiB some are
    /// stills) to well under what their indices take.
    @Test(arguments: [4 << 20, 6 << 20, 8 << 20, 12 << 20])
    func membersNeverHoldMoreThanTheLimit(limit: Int) async throws {
        let (worst, draws) = try await Self.play(limit: limit)
        #expect(draws > 800)
        #expect(worst <= limit, "held \(worst) bytes under a limit of \(limit)")
    }

    /// Plays the sources above for one loop under `limit`, drawing every
    /// change; returns the most bytes held after a draw and the draws.
    static func play(limit: Int) async throws -> (worst: Int, draws: Int) {
        let budget = FrameMemoryBudget(byteBudget: limit)
        let pool = FrameCachePool(budget: budget)
        let clock = ManualClock()
        let group = GroupDriver(clock: clock)
        var players: [Player<ManualClock.Instant>] = []
        var sources: [GIFFrameSource] = []
        let paths = ["demo.gif", "screen-recording.gif"].map(GIFFrameSourceTests.fixture)
        var images: [(key: String, image: @Sendable () throws -> GIFImage, size: DisplaySize?)] = paths.map { path in
            (path, { try GIFImage(readingFramesFromFileAt: path) }, nil)
        }
        images.append((paths[1] + " cell", { try GIFImage(readingFramesFromFileAt: paths[1]) },
                       DisplaySize(maxWidth: 100, maxHeight: 100)))
        for seed in 1...3 as ClosedRange<UInt64> {
            let bytes = GeneratedGIF.make(seed: seed)
            images.append(("generated \(seed)", { try GIFImage(bytes: bytes) }, nil))
        }
        for (key, image, size) in images {
            let cache = try await pool.cache(for: key, displaySize: size) { GIFFrameSource(image: try image()) }
            let player = try Player(source: cache.source, configuration: PlayerConfiguration(loop: .count(1)),
                                    startingAt: clock.now, epoch: clock.now, cache: cache)
            await group.add(player)
            players.append(player)
            sources.append(try #require(cache.source as? GIFFrameSource))
        }
        for player in players { await player.play(at: clock.now) }
        var buffers = players.map { [UInt8](repeating: 0, count: $0.drawer.width * $0.drawer.height * 4) }
        var worst = 0, draws = 0
        while true {
            let tick = group.tickPlayers(at: clock.now)
            for (index, player) in players.enumerated() where tick.changed.contains(ObjectIdentifier(player)) {
                var waits = 0
                while case .late = try buffers[index].withUnsafeMutableBytes({
                    try player.draw(into: $0, bytesPerRow: player.drawer.width * 4)
                }) {
                    waits += 1
                    guard waits < 20_000 else {
                        Issue.record("cell \(index) frame \(player.currentFrame): a late draw's decode never came")
                        return (worst, draws)
                    }
                    try await Task.sleep(for: .microseconds(500))
                }
                draws += 1
                let held = Self.held(budget, sources)
                worst = max(worst, held)
            }
            guard let next = tick.nextChange else { break }
            clock.advance(to: next)
        }
        return (worst, draws)
    }
}

/// A drawer far behind the frame it is asked for, with no indices stored
/// within a budget (only the few passing frames a drawing source keeps)
/// and no seek checkpoints: it must still get there, stepping its canvas
/// on through the frames it holds so that it never needs more of them at
/// once than the passing frames hold, and decode each frame of the gap
/// about once, not again and again.
@Suite("A drawer far behind catches up")
struct CatchUpTests {
    /// Fixtures/README.md: screen-recording.gif is 600 frames of 640 × 400.
    /// Jumps forward by more than the passing frames (8) and by less, each
    /// drawn until it is not late; the pixels are the frame's as
    /// `FrameIterator` composites it.
    @Test func aGapWiderThanThePassingFramesIsCrossed() async throws {
        let image = try GIFImage(contentsOf: GIFFrameSourceTests.fixture("screen-recording.gif"))
        let expected = PlayerDrawTests.expectedFrames(image, format: .rgba8)
        let source = GIFFrameSource(
            image: image, budget: DecodingBudget(checkpointBytes: 0, indexBytes: 0), executor: PlayerDrawTests.executor)
        let player = try Player(source: source, startingAt: ManualClock.Instant(offset: .zero))
        var buffer = PlayerDrawTests.HostBuffer(width: image.info.canvasSize.width, height: image.info.canvasSize.height)
        var at = 0
        for target in [3, 40, 41, 160, 170, 420] {
            try await player.seek(toFrame: target)
            let before = source.decodeCount
            let deadline = ContinuousClock.now + .seconds(30)
            var result = try buffer.draw(player)
            while case .late = result, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(1))
                result = try buffer.draw(player)
            }
            guard case .drawn(frame: target, _, _) = result else {
                Issue.record("frame \(target) from \(at): \(result) after \(source.decodeCount - before) decodes")
                return
            }
            #expect(buffer.pixels == expected[target], "frame \(target)")
            // The gap's frames, and the look-ahead asked past each late one.
            let gap = target - at
            #expect(source.decodeCount - before <= 2 * gap + 16, "frame \(target) from \(at)")
            at = target
        }
    }
}

/// A GIF source under a shared budget too small for what it needs to draw
/// at all (its drawer's canvas and the canvas kept for a loop's start):
/// its player is a still, asking the budget again now and then and
/// decoding nothing, rather than growing its state, losing it to the
/// budget and growing it again, frame after frame.
@Suite("A budget below a source's working state")
struct BelowTheFloorTests {
    /// What a host drawing every change of `image` for two loops under a
    /// budget of `limit` bytes saw, retrying each late draw as a host that
    /// waits for its frames does (`nil` when a draw stayed late).
    static func play(_ image: GIFImage, limit: Int) async throws
        -> (draws: Int, stills: Int, decodes: Int, skipped: Int, held: Int)?
    {
        let canvas = image.info.canvasSize
        let budget = FrameMemoryBudget(byteBudget: limit)
        let pool = FrameCachePool(budget: budget)
        let cache = await pool.cache(for: "image") { GIFFrameSource(image: image) }
        let source = try #require(cache.source as? GIFFrameSource)
        let clock = ManualClock()
        let group = GroupDriver(clock: clock)
        let player = try Player(source: cache.source, configuration: PlayerConfiguration(loop: .count(2)),
                                startingAt: clock.now, epoch: clock.now, cache: cache)
        await group.add(player)
        await player.play(at: clock.now)
        var buffer = [UInt8](repeating: 0, count: canvas.width * canvas.height * 4)
        var stills = 0, draws = 0, waits = 0
        while true {
            let tick = group.tickPlayers(at: clock.now)
            if tick.changed.contains(ObjectIdentifier(player)) {
                var result = try buffer.withUnsafeMutableBytes { try player.draw(into: $0, bytesPerRow: canvas.width * 4) }
                while case .late = result {
                    waits += 1
                    guard waits < 5_000 else {
                        Issue.record("frame \(player.currentFrame) stays late after \(source.decodeCount) decodes")
                        return nil
                    }
                    try await Task.sleep(for: .microseconds(200))
                    result = try buffer.withUnsafeMutableBytes { try player.draw(into: $0, bytesPerRow: canvas.width * 4) }
                }
                draws += 1
                if case .still = result { stills += 1 }
            }
            guard let next = tick.nextChange else { break }
            clock.advance(to: next)
        }
        let skipped = group.statistics(of: player)?.framesSkipped ?? 0
        return (draws, stills, source.decodeCount, skipped, budget.bytesHeld)
    }

    /// A generated GIF under a budget of one canvas (width × height × 4
    /// bytes: its drawer needs two, so it never fits): the host finishes
    /// with a bounded count of giflib decodes, every draw a still, and the
    /// group counts the stills as skipped frames.
    @Test(arguments: [3, 7, 11] as [UInt64])
    func aHostLoopFinishesWithStills(seed: UInt64) async throws {
        let image = try GIFImage(bytes: GeneratedGIF.make(seed: seed))
        let limit = image.info.canvasSize.width * image.info.canvasSize.height * 4
        let seen = try #require(try await Self.play(image, limit: limit))
        let frames = image.info.frameCount
        #expect(seen.draws >= 2 * frames - 1)
        #expect(seen.stills == seen.draws)
        // Nothing to decode for a still: at most the first frames asked
        // for before the budget answered.
        #expect(seen.decodes <= frames)
        #expect(seen.held <= limit)
        #expect(seen.skipped >= seen.stills - 1)
    }

    /// Fixtures/README.md: screen-recording.gif is 600 frames of 640 × 400,
    /// one canvas 1,024,000 bytes; under 1 MiB its drawer's two canvases
    /// never fit, and its two loops end as stills, with few decodes.
    @Test func aScreenRecordingUnderOneMiBEndsAsStills() async throws {
        let image = try GIFImage(contentsOf: GIFFrameSourceTests.fixture("screen-recording.gif"))
        let seen = try #require(try await Self.play(image, limit: 1 << 20))
        #expect(seen.draws >= 2 * 600 - 1)
        #expect(seen.stills == seen.draws)
        #expect(seen.decodes <= 600)
        #expect(seen.held <= 1 << 20)
    }
}
