import Foundation
@_spi(Benchmarks) import Playback
import PlaybackTestSupport
import Testing

/// A source whose answers the test sets: frame count, canvas, the frames'
/// sizes, pixel counts and indices can each be wrong, and change while it is
/// in use.
final class ShiftyFrameSource: FrameSource, @unchecked Sendable {
    var canvasSize: PixelSize { PixelSize(width: canvasWidth, height: canvasHeight) }
    var timing: FrameSourceTiming { FrameSourceTiming(frameDelays: frameDelays, storedLoopCount: storedLoopCount) }
    struct Answers {
        var frameCount = 2
        var delayCount = 2
        var canvasWidth = 2
        var canvasHeight = 1
        /// The size and pixel count of the frames handed back.
        var frameWidth = 2
        var frameHeight = 1
        var byteCount = 8
        /// Added to the index asked for.
        var indexShift = 0
    }

    private let lock = NSLock()
    private var answers: Answers

    init(_ answers: Answers = .init()) { self.answers = answers }

    func change(_ update: (inout Answers) -> Void) { lock.withLock { update(&answers) } }
    private var now: Answers { lock.withLock { answers } }

    var frameCount: Int { now.frameCount }
    var canvasWidth: Int { now.canvasWidth }
    var canvasHeight: Int { now.canvasHeight }
    var frameDelays: [Duration] { Array(repeating: .milliseconds(100), count: now.delayCount) }
    var storedLoopCount: Int? { 0 }

    func frame(at index: Int) async throws -> RenderedFrame {
        let a = now
        return RenderedFrame(
            index: index + a.indexShift, width: a.frameWidth, height: a.frameHeight,
            pixels: Array(repeating: 200, count: a.byteCount))
    }
}

/// Hostile answers from a ``FrameSource`` and hostile arguments to the public
/// Playback API: each is a typed error or a documented
/// clamp, never a trap or a read past an array.
///
/// | input | outcome |
/// |---|---|
/// | a frame with fewer bytes than width × height × 4 | `Poster.make` and `FrameCache.frame(at:)` throw ``FrameSourceError/malformedFrame(index:width:height:byteCount:)``; `Poster.boxFilter` / `downscale` give transparent black |
/// | a frame not the canvas's size, or another frame's index | ``FrameSourceError/wrongFrameSize(index:width:height:canvasWidth:canvasHeight:)``, ``FrameSourceError/wrongFrameIndex(requested:returned:)`` |
/// | `Poster.fit` / `make` with `Int.max` sides | exact result, no overflow |
/// | `Poster.boxFilter` to `Int.max` × `Int.max` | clamped to ``Poster/maxSide`` |
/// | a frame count that changes or goes negative after loading | ``PlayerError/frameOutOfRange(_:frameCount:)`` from the cache; the playlist skips the item with its ``PlayerError`` |
@Suite("Hostile input: frame sources and sizes the library does not trust")
struct HostileInputTests {
    // MARK: Poster

    @Test("Poster.make refuses a frame whose pixels are shorter than width × height × 4")
    func posterShortPixels() async throws {
        let source = ShiftyFrameSource(.init(canvasWidth: 64, canvasHeight: 64, frameWidth: 64, frameHeight: 64, byteCount: 16))
        await #expect(throws: FrameSourceError.malformedFrame(index: 0, width: 64, height: 64, byteCount: 16)) {
            try await Poster.make(from: source, maxSize: 8)
        }
        // Even when no scaling is needed, the frame is not handed back as is.
        await #expect(throws: FrameSourceError.malformedFrame(index: 0, width: 64, height: 64, byteCount: 16)) {
            try await Poster.make(from: source, maxSize: 128)
        }
    }

    @Test("Poster.make refuses another frame than the one asked for")
    func posterWrongIndex() async throws {
        let source = ShiftyFrameSource(.init(indexShift: 1))
        await #expect(throws: FrameSourceError.wrongFrameIndex(requested: 0, returned: 1)) {
            try await Poster.make(from: source, maxSize: 8)
        }
    }

    @Test("boxFilter and downscale read a malformed frame as transparent black, never past its pixels",
          arguments: [(64, 64, 16), (4, 4, 0), (-3, 2, 8), (Int.max, Int.max, 4), (2, Int.min, 8)])
    func posterClampsMalformedFrames(width: Int, height: Int, byteCount: Int) {
        let frame = RenderedFrame(index: 0, width: width, height: height, pixels: Array(repeating: 255, count: byteCount))
        let filtered = Poster.boxFilter(frame, width: 3, height: 2)
        #expect(filtered.width == 3 && filtered.height == 2)
        #expect(filtered.pixels == Array(repeating: 0, count: 3 * 2 * 4))
        let scaled = Poster.downscale(frame, maxWidth: 8, maxHeight: 8)
        #expect(scaled.pixels.count == scaled.width * scaled.height * 4)
        #expect(scaled.pixels.allSatisfy { $0 == 0 })
    }

    /// Fuzz/PlaybackFuzzer/regressions/box-filter-huge-source-side: a
    /// malformed frame claiming a side far beyond any canvas made
    /// `Poster.boxFilter` build weights for every source column (out of
    /// memory); a filter asked for such a side by the host is bounded too.
    @Test("A source side of 10^18 pixels costs nothing: no weights are built for it")
    func boxFilterHugeSourceSide() {
        let frame = RenderedFrame(index: 0, width: 1 << 60, height: 1, pixels: Array(repeating: 255, count: 40))
        let filtered = Poster.boxFilter(frame, width: 5, height: 2)
        #expect(filtered.width == 5 && filtered.height == 2)
        #expect(filtered.pixels == Array(repeating: 0, count: 5 * 2 * 4))
        let filter = BoxFilter(sourceWidth: BoxFilter.maxSourceSide + 1, sourceHeight: 1, width: 4, height: 1)
        var out: [UInt8] = []
        filter.apply(Array(repeating: 255, count: (BoxFilter.maxSourceSide + 1) * 4), into: &out)
        #expect(out == Array(repeating: 0, count: 4 * 4))
    }

    @Test("fit compares and scales sizes up to Int.max without overflow")
    func posterFitHuge() {
        // 128 × 2 into 64 × ∞: halve both sides.
        #expect(Poster.fit(width: 128, height: 2, maxWidth: 64, maxHeight: .max) == (64, 1))
        // A square stays square: Int.max × Int.max into 64 × ∞ is 64 × 64.
        #expect(Poster.fit(width: .max, height: .max, maxWidth: 64, maxHeight: .max) == (64, 64))
        #expect(Poster.fit(width: .max, height: 1, maxWidth: .max - 1, maxHeight: .max) == (.max - 1, 1))
        // Already fits: unchanged.
        #expect(Poster.fit(width: 10, height: 20, maxWidth: .max, maxHeight: .max) == (10, 20))
        // Negative sides read as 0.
        #expect(Poster.fit(width: -5, height: 3, maxWidth: 8, maxHeight: 8) == (0, 3))
    }

    @Test("Poster.make(maxWidth: 64, maxHeight: .max) scales a 128 × 2 frame to 64 × 1")
    func posterMakeHugeBox() async throws {
        // Two opaque rows: the top one 200s, the bottom one 100s; each output
        // pixel averages a 2 × 2 block, (200 + 100) / 2 = 150.
        let width = 128
        let pixels = Array(repeating: [200, 200, 200, 255] as [UInt8], count: width).flatMap { $0 }
            + Array(repeating: [100, 100, 100, 255] as [UInt8], count: width).flatMap { $0 }
        struct Fixed: FrameSource {
            var canvasSize: PixelSize { PixelSize(width: canvasWidth, height: canvasHeight) }
            var timing: FrameSourceTiming { FrameSourceTiming(frameDelays: frameDelays, storedLoopCount: storedLoopCount) }
            let pixels: [UInt8]
            var frameCount: Int { 1 }
            var canvasWidth: Int { 128 }
            var canvasHeight: Int { 2 }
            var frameDelays: [Duration] { [.zero] }
            var storedLoopCount: Int? { nil }
            func frame(at index: Int) async throws -> RenderedFrame {
                RenderedFrame(index: index, width: 128, height: 2, pixels: pixels)
            }
        }
        let poster = try await Poster.make(from: Fixed(pixels: pixels), maxWidth: 64, maxHeight: .max)
        #expect(poster.width == 64 && poster.height == 1)
        #expect(poster.pixels == Array(repeating: [150, 150, 150, 255] as [UInt8], count: 64).flatMap { $0 })
    }

    @Test("boxFilter clamps enormous output sides to Poster.maxSide")
    func posterClampsOutput() {
        let frame = RenderedFrame(index: 0, width: 1, height: 1, pixels: [10, 20, 30, 255])
        let out = Poster.boxFilter(frame, width: .max, height: 1)
        #expect(out.width == Poster.maxSide && out.height == 1)
        #expect(out.pixels.count == Poster.maxSide * 4)
        #expect(Array(out.pixels.prefix(4)) == [10, 20, 30, 255])
    }

    // MARK: Frame cache

    @Test("The cache refuses frames with short pixels, the wrong size or the wrong index, and keeps none")
    func cacheChecksFrames() async throws {
        let cases: [(ShiftyFrameSource.Answers, FrameSourceError)] = [
            (.init(byteCount: 4), .malformedFrame(index: 1, width: 2, height: 1, byteCount: 4)),
            (.init(frameWidth: 1, frameHeight: 2), .wrongFrameSize(index: 1, width: 1, height: 2, canvasWidth: 2, canvasHeight: 1)),
            (.init(indexShift: 1), .wrongFrameIndex(requested: 1, returned: 2)),
            (.init(frameWidth: -2, frameHeight: -1), .malformedFrame(index: 1, width: -2, height: -1, byteCount: 8)),
        ]
        for (answers, error) in cases {
            let cache = FrameCache(source: ShiftyFrameSource(answers), byteBudget: 1024)
            await #expect(throws: error) { try await cache.frame(at: 1) }
            let holdsOne = await cache.contains(1), holdsTwo = await cache.contains(2)
            #expect(!holdsOne && !holdsTwo)
            // A prefetch that gets the same answer counts a failure.
            await cache.prefetch([0])
            await cache.waitForPrefetch()
            let statistics = await cache.statistics
            #expect(statistics.failures == 1)
            #expect(statistics.framesHeld == 0 && statistics.bytesHeld == 0)
        }
    }

    @Test("A canvas too large to address never fits a budget and traps nowhere")
    func cacheHugeCanvas() async throws {
        let source = ShiftyFrameSource(.init(canvasWidth: .max, canvasHeight: .max))
        let cache = FrameCache(source: source, byteBudget: 1 << 20)
        await #expect(throws: FrameSourceError.wrongFrameSize(
            index: 0, width: 2, height: 1, canvasWidth: .max, canvasHeight: .max)) {
            try await cache.frame(at: 0)
        }
    }

    @Test("A budget and a canvas near Int.max do not overflow the cache's arithmetic")
    func cacheHugeBudget() async throws {
        // Found by PlaybackFuzzer: held bytes + a canvas of Int.max - 3 bytes
        // passed Int.max.
        let source = ShiftyFrameSource()
        let cache = FrameCache(source: source, byteBudget: .max)
        #expect(try await cache.frame(at: 0).pixels.count == 8)  // held: 8 bytes
        source.change { $0.canvasWidth = Int.max / 4; $0.canvasHeight = 1 }
        await #expect(throws: FrameSourceError.wrongFrameSize(
            index: 1, width: 2, height: 1, canvasWidth: Int.max / 4, canvasHeight: 1)) {
            try await cache.frame(at: 1)
        }
        // Making room for the huge frame evicted the small one; nothing overflowed.
        #expect(await cache.statistics.bytesHeld == 0)
        #expect(await cache.statistics.evictions == 1)
    }

    @Test("A frame count that shrinks, or goes negative, after the player was made is a typed error")
    func frameCountChanges() async throws {
        let source = ShiftyFrameSource(.init(frameCount: 3, delayCount: 3))
        let clock = ManualClock()
        let player = try Player(source: source, startingAt: clock.now)
        try await player.seek(toFrame: 2)
        source.change { $0.frameCount = 1 }
        await #expect(throws: PlayerError.frameOutOfRange(2, frameCount: 1)) { try await player.currentImage() }
        source.change { $0.frameCount = -1 }
        try await player.seek(toFrame: 0)
        await #expect(throws: PlayerError.frameOutOfRange(0, frameCount: -1)) { try await player.currentImage() }
        await player.cache.prefetch([0, 1])  // ignored, no trap
        source.change { $0.frameCount = 3 }
        #expect(try await player.currentImage().index == 0)
    }

    // MARK: Playlist

    @Test("A source whose frame count changes after loading is skipped with its PlayerError, not a trap")
    func playlistSourceChanges() throws {
        let a = FakeFrameSource.milliseconds(100, 100)
        let b = ShiftyFrameSource()
        var sequencer = try PlaylistSequencer(items: [
            PlaylistItem(key: "A") { a },
            PlaylistItem(key: "B") { b },
        ])
        for request in sequencer.takeLoadRequests() {
            sequencer.finishLoad(request, result: .success(request.item.key == "A" ? a as any FrameSource : b))
        }
        #expect(sequencer.loadState(of: "B") == .ready)
        // B now says three frames but still gives two delays.
        b.change { $0.frameCount = 3 }
        let events = sequencer.play(at: .zero) + sequencer.advance(to: .milliseconds(200))
        let error = PlayerError.mismatchedDelays(frameCount: 3, delayCount: 2)
        #expect(events.contains(.itemSkipped(key: "B", reason: .loadFailed(error))))
        #expect(sequencer.loadState(of: "B") == .failed(error))
        #expect(sequencer.currentKey == "A")
    }

    @Test("The same change on the playlist actor: the item is skipped, playback goes on")
    func playlistActorSourceChanges() async throws {
        let b = ShiftyFrameSource()
        let clock = ManualClock()
        let playlist = try Playlist(items: [
            PlaylistItem(key: "A") { FakeFrameSource.milliseconds(100, 100) },
            PlaylistItem(key: "B") { b },
        ], startingAt: clock.now)
        #expect(await eventually(watching: [playlist]) { await playlist.loadState(of: "B") == .ready })
        b.change { $0.frameCount = 0 }
        await playlist.play(at: clock.now)
        let events = await playlist.advance(to: clock.now.advanced(by: .milliseconds(200)))
        #expect(events.contains(.itemSkipped(key: "B", reason: .loadFailed(PlayerError.emptySource))))
        #expect(await playlist.currentKey == "A")
    }

    @Test("A tick decades late crosses at most maxBoundariesPerAdvance items, then resyncs at the host's time")
    func playlistDecadesLate() throws {
        let two = FakeFrameSource.milliseconds(50, 50)  // 100 ms a turn
        var sequencer = try PlaylistSequencer(items: [
            PlaylistItem(key: "A") { two },
            PlaylistItem(key: "B") { two },
        ])
        for request in sequencer.takeLoadRequests() { sequencer.finishLoad(request, result: .success(two)) }
        sequencer.play(at: .zero)
        let late = Duration.seconds(50 * 365 * 24 * 3600)  // fifty years: 1.6e10 turns one by one
        let events = sequencer.advance(to: late)
        let limit = PlaylistSequencer.maxBoundariesPerAdvance
        // Items alternate A, B: after `limit` boundaries A is current again;
        // its finish is the one that resyncs, so it starts afresh now.
        #expect(events.filter { if case .itemFinished = $0 { true } else { false } }.count == limit + 1)
        #expect(events.last == .itemStarted(key: "A") || events.contains(.itemStarted(key: "A")))
        #expect(sequencer.now == late)
        #expect(sequencer.currentKey == "A")
        #expect(sequencer.currentFrame == 0)
        #expect(sequencer.timeUntilNextChange == .milliseconds(50))
        // Time goes on normally from there.
        sequencer.advance(to: late + .milliseconds(60))
        #expect(sequencer.currentFrame == 1)
    }

    @Test("A tick decades late over items of thousands of frames resyncs once the timelines it made pass maxFramesPerAdvance")
    func playlistDecadesLateOverLongItems() throws {
        let frames = 4_096
        let long = FakeFrameSource(frameDelays: Array(repeating: .milliseconds(20), count: frames))  // 81.92 s a turn
        var sequencer = try PlaylistSequencer(items: [
            PlaylistItem(key: "A") { long },
            PlaylistItem(key: "B") { long },
        ])
        for request in sequencer.takeLoadRequests() { sequencer.finishLoad(request, result: .success(long)) }
        sequencer.play(at: .zero)
        let late = Duration.seconds(50 * 365 * 24 * 3600)
        let events = sequencer.advance(to: late)
        // Each item entered makes a timeline of `frames`; the advance moves
        // on while at most `maxFramesPerAdvance` frames were made, and the
        // next finish resyncs: 17 moves, then the resync, each after a
        // finish.
        let moves = PlaylistSequencer.maxFramesPerAdvance / frames + 1
        #expect(moves + 1 < PlaylistSequencer.maxBoundariesPerAdvance)
        #expect(events.filter { if case .itemFinished = $0 { true } else { false } }.count == moves + 1)
        #expect(sequencer.now == late)
        #expect(sequencer.currentFrame == 0)
        #expect(sequencer.timeUntilNextChange == .milliseconds(20))
    }
}
