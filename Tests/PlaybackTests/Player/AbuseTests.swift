import Foundation
@_spi(Benchmarks) import Playback
import Testing

/// Hostile or careless input to the player: every case below gives the
/// documented error or clamp, and none traps.
///
/// | input | outcome |
/// |---|---|
/// | seek to a frame outside `0..<frameCount` | ``PlayerError/frameOutOfRange(_:frameCount:)``, nothing changes |
/// | seek to a negative offset, or at/after the end | ``PlayerError/offsetOutOfRange(_:totalDuration:)``, nothing changes |
/// | rate zero, negative, NaN, infinite, outside 0.01…100 | ``PlayerError/invalidRate(_:)``, rate unchanged |
/// | time before ``Playhead/now`` | ignored: no events, no change |
/// | enormous durations and delays | saturate at Int64.max ns (about 292 years); no overflow trap |
/// | negative stored delays, loop counts below 1 | read as 0 and as 1 play |
/// | a source with no frames, or delays ≠ frames | ``PlayerError/emptySource``, ``PlayerError/mismatchedDelays(frameCount:delayCount:)`` |
/// | a source whose `frame(at:)` throws | the error reaches ``Player/currentImage()``; the cache counts a failure |
@Suite("Abuse: the player refuses or clamps, never traps")
struct AbuseTests {
    let three = FakeFrameSource.milliseconds(100, 100, 100)
    let forever = FakeFrameSource.milliseconds(100, 100, 100, loop: 0)

    func playing(_ source: FakeFrameSource, _ configuration: PlayerConfiguration = .init()) throws -> Playhead {
        var head = try Playhead(timeline: PlaybackTimeline(source: source, configuration: configuration),
                                configuration: configuration)
        head.play()
        return head
    }

    @Test("seeks past either end throw and change nothing", arguments: [-1, 3, 4, Int.max, Int.min])
    func seekToFrameOutOfRange(frame: Int) throws {
        var head = try playing(three)
        head.advance(to: .milliseconds(150))
        let before = head
        #expect(throws: PlayerError.frameOutOfRange(frame, frameCount: 3)) { try head.seek(toFrame: frame) }
        #expect(head == before)
    }

    @Test("offsets before zero or at/after the end throw and change nothing",
          arguments: [Duration.nanoseconds(-1), .milliseconds(300), .seconds(Int64.max / 2), .seconds(Int64.min / 2)])
    func seekToOffsetOutOfRange(offset: Duration) throws {
        var head = try playing(three)
        let before = head
        #expect(throws: PlayerError.offsetOutOfRange(offset, totalDuration: .milliseconds(300))) {
            try head.seek(toOffset: offset)
        }
        #expect(head == before)
    }

    @Test("an endless animation takes any offset, however far, and stays in range")
    func seekFarIntoAnEndlessAnimation() throws {
        var head = try playing(forever)
        try head.seek(toOffset: .seconds(Int64.max / 2))
        #expect((0..<3).contains(head.currentFrame))
        head.advance(by: .seconds(1))
        #expect((0..<3).contains(head.currentFrame))
        #expect(head.timeUntilNextChange.map { $0 >= .zero } ?? true)
    }

    static let badRates: [Double] = [
        0, -0.0, -1, .nan, -.nan, .signalingNaN, .infinity, -.infinity, 0.009_999, 100.000_001, 1e-300,
        .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .leastNonzeroMagnitude,
    ]

    @Test("bad rates throw invalidRate and leave the rate as it was", arguments: badRates)
    func badRate(rate: Double) throws {
        var head = try playing(three)
        try head.setRate(2)
        do {
            try head.setRate(rate)
            Issue.record("rate \(rate) accepted")
        } catch {
            // NaN is not equal to itself, so match the case, not the value.
            guard case .invalidRate(let refused) = error else { throw error }
            #expect(rate.isNaN ? refused.isNaN : refused == rate)
        }
        #expect(head.rate == 2)
        #expect(throws: PlayerError.self) { try Playhead(timeline: head.timeline, configuration: .init(rate: rate)) }
        #expect(throws: PlayerError.self) { try Player(source: three, configuration: .init(rate: rate), startingAt: ContinuousClock.now) }
    }

    @Test("the ends of the rate range are accepted")
    func rateRangeEnds() throws {
        var head = try playing(forever)
        try head.setRate(0.01)
        head.advance(to: .milliseconds(10_001))
        #expect(head.currentFrame == 1)  // 100.01 ms of media time
        try head.setRate(100)
        head.advance(to: .milliseconds(10_003))  // 200 ms more
        #expect(head.currentFrame == 0)
    }

    @Test("time going backwards is ignored: no events, no change")
    func timeGoesBackwards() throws {
        var head = try playing(three)
        #expect(head.advance(to: .milliseconds(150)) == [.frameChanged(frame: 1)])
        let before = head
        #expect(head.advance(to: .milliseconds(149)).isEmpty)
        #expect(head.advance(to: .seconds(-5)).isEmpty)
        #expect(head.advance(to: .seconds(Int64.min / 2)).isEmpty)
        #expect(head.advance(by: .milliseconds(-1)).isEmpty)
        #expect(head.advance(by: .seconds(Int64.min / 2)).isEmpty)
        #expect(head == before)
        // play/pause with a time in the past act at `now`.
        head.pause(at: .zero)
        #expect(head.state == .paused)
        #expect(head.now == .milliseconds(150))
        #expect(head.timeIntoFrame == .milliseconds(50))
    }

    @Test("time going backwards on the actor is ignored too")
    func playerTimeGoesBackwards() async throws {
        let clock = ManualClock()
        let start = clock.now
        let player = try Player(source: three, startingAt: start.advanced(by: .seconds(1)))
        await player.play()
        #expect(await player.advance(to: start).isEmpty)
        #expect(await player.advance(by: .seconds(-10)).isEmpty)
        #expect(player.now == start.advanced(by: .seconds(1)))
        #expect(player.currentFrame == 0)
    }

    @Test("enormous advances saturate: a finite animation finishes, an endless one stays in range",
          arguments: [Duration.seconds(Int64.max / 2), .seconds(Int64.max), .nanoseconds(Int64.max)])
    func enormousAdvance(by duration: Duration) throws {
        // Under .skip a finite animation is over; under the browser policy
        // (resync after 5 minutes) a stall that long shows the next frame.
        var finite = try playing(three, PlayerConfiguration(catchUp: .skip))
        #expect(finite.advance(by: duration).last == .finished)
        #expect(finite.state == .finished)
        #expect(finite.currentFrame == 2)
        var browser = try playing(three)
        #expect(browser.advance(by: duration) == [.frameChanged(frame: 1)])
        // Host time saturates at Int64.max nanoseconds (about 292 years);
        // at the end of time nothing moves any more.
        #expect(browser.now == .nanoseconds(Int64.max))
        #expect(browser.advance(by: duration).isEmpty)
        #expect(browser.state == .playing)

        for policy in [CatchUpPolicy.skip, .carryLag, .resync(after: .seconds(1)), .resync(after: .seconds(Int64.max))] {
            var endless = try playing(forever, PlayerConfiguration(catchUp: policy))
            endless.advance(by: duration)
            endless.advance(by: duration)  // past the saturation point: still no trap
            endless.advance(by: .milliseconds(100))
            #expect((0..<3).contains(endless.currentFrame), "\(policy)")
            #expect(endless.timeUntilNextChange.map { $0 >= .zero } ?? true, "\(policy)")
            #expect(endless.upcomingFrames(8).allSatisfy { (0..<3).contains($0) })
            _ = endless.elapsed
            _ = endless.timeIntoFrame
        }
    }

    @Test("enormous delays saturate the timeline instead of overflowing",
          arguments: [PlaybackDirection.forward, .reverse, .bounce])
    func enormousDelays(direction: PlaybackDirection) throws {
        let huge = FakeFrameSource(frameDelays: [.seconds(Int64.max / 2), .seconds(Int64.max / 2), .milliseconds(50)],
                                   storedLoopCount: 0)
        let configuration = PlayerConfiguration(direction: direction)
        var head = try playing(huge, configuration)
        #expect(head.timeline.loopDuration == .nanoseconds(Int64.max))
        head.advance(by: .seconds(Int64.max / 4))
        try head.setRate(100)
        head.advance(by: .seconds(1))
        #expect((0..<3).contains(head.currentFrame))
        _ = head.nextChangeTime

        var minimum = try playing(three, PlayerConfiguration(delay: .minimum(.seconds(Int64.max))))
        minimum.advance(by: .seconds(3600))
        #expect(minimum.currentFrame == 0)
    }

    /// Found by the fuzzer: at rate 2, the host time for a media time in
    /// [9.2·10¹⁸, 2⁶³) ns took ~10¹⁵ steps to compute, because the
    /// Double-to-Int64 conversion saturated below 2⁶³.
    @Test("the next change time is found at once near the saturation point", arguments: [2.0, 0.5, 3.0, 99.5])
    func nextChangeNearSaturation(rate: Double) throws {
        let source = FakeFrameSource(frameDelays: [.nanoseconds(9_210_000_000_000_000_000)], storedLoopCount: 0)
        var head = try playing(source, PlayerConfiguration(rate: rate))
        #expect(head.nextChangeTime != nil)
        head.advance(by: .seconds(1))
        #expect(head.timeUntilNextChange.map { $0 > .zero } == true)
    }

    /// The playhead keeps host time in whole nanoseconds: a time it is
    /// advanced to is truncated to them and saturates at Int64.max. The
    /// expected values are that rule in 128-bit arithmetic here; the cases
    /// are whole and part nanoseconds, both halves of the attoseconds'
    /// 128 bits, and the edges of the saturation.
    @Test("host time is truncated to whole nanoseconds and saturates at Int64.max")
    func hostTimeInNanoseconds() throws {
        let nanosecond: Int128 = 1_000_000_000
        let limit = Int128(Int64.max) * nanosecond
        let attoseconds: [Int128] = [
            1, 999_999_999, nanosecond, nanosecond + 1, 3 * nanosecond / 2,
            Int128(UInt64.max), Int128(UInt64.max) + 1, Int128(1) << 70, (Int128(1) << 90) + 12_345,
            Int128(86_400 * 365) * 1_000_000_000 * nanosecond + 7,
            limit - 1, limit, limit + nanosecond - 1, limit + nanosecond, Int128(UInt64.max) * nanosecond,
            Int128.max,
        ]
        for value in attoseconds {
            var head = try playing(forever)
            head.advance(to: Duration(attoseconds: value))
            let expected = min(value / nanosecond, Int128(Int64.max))
            #expect(head.now == Duration(attoseconds: expected * nanosecond), "\(value) attoseconds")
        }
    }

    @Test("negative delays read as zero, loop counts below one as one play")
    func negativeTiming() throws {
        let source = FakeFrameSource(frameDelays: [.milliseconds(-5), .seconds(Int64.min / 2)], storedLoopCount: -7)
        let raw = try PlaybackTimeline(source: source, configuration: .init(delay: .raw))
        #expect(raw.frameDurations == [.zero, .zero])
        #expect(raw.plays == 1)
        let browser = try PlaybackTimeline(source: source)
        #expect(browser.frameDurations == [.milliseconds(100), .milliseconds(100)])
        #expect(LoopPolicy.count(-3).plays(storedLoopCount: nil) == 1)
        #expect(LoopPolicy.count(Int.min).plays(storedLoopCount: nil) == 1)
        // A loop of zero length cannot advance; it finishes (finite) or rests.
        var still = try Playhead(timeline: raw)
        #expect(still.play().last == .finished)
        #expect(still.state == .finished)
        #expect(still.advance(by: .seconds(1)).isEmpty)
    }

    @Test("an enormous loop count plays on instead of wrapping around", arguments: [2, 3, 4])
    func enormousLoopCount(frames: Int) throws {
        let source = FakeFrameSource(frameDelays: Array(repeating: .milliseconds(100), count: frames),
                                     storedLoopCount: nil)
        var head = try playing(source, PlayerConfiguration(loop: .count(Int.max)))
        #expect(head.advance(to: .milliseconds(150)) == [.frameChanged(frame: 1)])
        #expect(head.state == .playing)
        head.advance(by: .seconds(3600))
        #expect(head.state == .playing)
        #expect(head.upcomingFrames(2).count == 2)
    }

    @Test("a source without frames, or with delays that do not match, is refused")
    func badSources() throws {
        #expect(throws: PlayerError.emptySource) { try PlaybackTimeline(source: FakeFrameSource.milliseconds()) }
        #expect(throws: PlayerError.emptySource) {
            try PlaybackTimeline(frameDelays: [], storedLoopCount: nil)
        }
        #expect(throws: PlayerError.mismatchedDelays(frameCount: 1, delayCount: 2)) {
            try Player(source: LyingSource(frameCount: 1), startingAt: ContinuousClock.now)
        }
        #expect(throws: PlayerError.emptySource) {
            try Player(source: LyingSource(frameCount: -4), startingAt: ContinuousClock.now)
        }
    }

    @Test("a frame source that throws: the error reaches the caller, the cache counts it")
    func throwingSource() async throws {
        let clock = ManualClock()
        let source = ThrowingSource(failing: [1])
        let player = try Player(source: source, startingAt: clock.now)
        #expect(try await player.currentImage().index == 0)
        await player.play()
        await player.advance(by: .milliseconds(100))
        #expect(player.currentFrame == 1)
        await #expect(throws: ThrowingSource.Failure(index: 1)) { try await player.currentImage() }
        // The player carries on past the bad frame.
        await player.advance(by: .milliseconds(100))
        #expect(player.currentFrame == 2)
        #expect(try await player.currentImage().index == 2)

        let cache = FrameCache(source: source, byteBudget: 1 << 20)
        await cache.prefetch([0, 1, 2])
        await cache.waitForPrefetch()
        let statistics = await cache.statistics
        #expect(statistics.failures == 1)
        #expect(statistics.framesHeld == 2)
        await #expect(throws: ThrowingSource.Failure(index: 1)) { try await cache.frame(at: 1) }
        await #expect(throws: PlayerError.frameOutOfRange(3, frameCount: 3)) { try await cache.frame(at: 3) }
        await #expect(throws: PlayerError.frameOutOfRange(-1, frameCount: 3)) { try await cache.frame(at: -1) }
    }

    @Test("the cache ignores bad prefetch lists and budgets")
    func cacheAbuse() async throws {
        let cache = FrameCache(source: three, byteBudget: -5, lookahead: -2)
        #expect(cache.lookahead == 0)
        #expect(await cache.byteBudget == 0)
        await cache.prefetch([-1, 3, Int.max, Int.min, 0, 0, 0])
        await cache.waitForPrefetch()
        #expect(try await cache.frame(at: 0).index == 0)
        #expect(await cache.statistics.framesHeld == 0)  // larger than the budget: returned, not kept
        await cache.setByteBudget(Int.min)
        #expect(await cache.byteBudget == 0)
    }
}

/// A source whose frame count and delay list disagree.
struct LyingSource: FrameSource {
    var canvasSize: PixelSize { PixelSize(width: canvasWidth, height: canvasHeight) }
    var timing: FrameSourceTiming { FrameSourceTiming(frameDelays: frameDelays, storedLoopCount: storedLoopCount) }
    var frameCount: Int
    var canvasWidth: Int { 1 }
    var canvasHeight: Int { 1 }
    var frameDelays: [Duration] { [.milliseconds(100), .milliseconds(100)] }
    var storedLoopCount: Int? { nil }
    func frame(at index: Int) async throws -> RenderedFrame {
        RenderedFrame(index: index, width: 1, height: 1, pixels: [0, 0, 0, 0])
    }
}

/// Three 100 ms frames, of which those in `failing` throw when decoded.
struct ThrowingSource: FrameSource {
    var canvasSize: PixelSize { PixelSize(width: canvasWidth, height: canvasHeight) }
    var timing: FrameSourceTiming { FrameSourceTiming(frameDelays: frameDelays, storedLoopCount: storedLoopCount) }
    struct Failure: Error, Equatable {
        var index: Int
    }

    var failing: Set<Int>
    var frameCount: Int { 3 }
    var canvasWidth: Int { 1 }
    var canvasHeight: Int { 1 }
    var frameDelays: [Duration] { Array(repeating: .milliseconds(100), count: 3) }
    var storedLoopCount: Int? { 0 }

    func frame(at index: Int) async throws -> RenderedFrame {
        if failing.contains(index) { throw Failure(index: index) }
        return RenderedFrame(index: index, width: 1, height: 1, pixels: [UInt8(index), 0, 0, 255])
    }
}
