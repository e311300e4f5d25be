@_spi(Benchmarks) import Playback
import Testing

@Suite("Timeline: loop, delay and direction policies")
struct TimelineTests {
    @Test("LoopPolicy.fromSource follows browsers: absent → 1, 0 → forever, N → N + 1",
          arguments: [(Int?.none, Int?.some(1)), (0, nil), (1, 2), (3, 4), (65535, 65536), (-1, 1)])
    func loopFromSource(stored: Int?, plays: Int?) {
        #expect(LoopPolicy.fromSource.plays(storedLoopCount: stored) == plays)
        #expect(LoopPolicy.browser == .fromSource)
    }

    @Test("Fixed count and forever ignore the file", arguments: [Int?.none, 0, 5])
    func loopOverrides(stored: Int?) {
        #expect(LoopPolicy.count(3).plays(storedLoopCount: stored) == 3)
        #expect(LoopPolicy.count(0).plays(storedLoopCount: stored) == 1)
        #expect(LoopPolicy.forever.plays(storedLoopCount: stored) == nil)
    }

    @Test("Delay policies", arguments: [
        (DelayPolicy.browser, [100, 100, 11, 20, 100]),
        (.raw, [0, 10, 11, 20, 0]),
        (.minimum(.milliseconds(15)), [15, 15, 15, 20, 15]),
        (.minimum(.milliseconds(50)), [50, 50, 50, 50, 50]),
    ])
    func delays(policy: DelayPolicy, expected: [Int]) throws {
        let stored: [Duration] = [.zero, .milliseconds(10), .milliseconds(11), .milliseconds(20), .milliseconds(-5)]
        let timeline = try PlaybackTimeline(frameDelays: stored, storedLoopCount: nil, delay: policy)
        #expect(timeline.frameDurations == expected.map { .milliseconds($0) })
        #expect(timeline.loopDuration == .milliseconds(expected.reduce(0, +)))
    }

    @Test("Play order per direction", arguments: [
        (PlaybackDirection.forward, 4, [0, 1, 2, 3]),
        (.reverse, 4, [3, 2, 1, 0]),
        (.bounce, 4, [0, 1, 2, 3, 2, 1]),
        (.bounce, 3, [0, 1, 2, 1]),
        (.bounce, 2, [0, 1]),
        (.bounce, 1, [0]),
        (.reverse, 1, [0]),
    ])
    func playOrder(direction: PlaybackDirection, frames: Int, order: [Int]) {
        #expect(direction.playOrder(frameCount: frames) == order)
    }

    @Test("Offsets, loop and total duration for a bounce")
    func bounceOffsets() throws {
        let delays: [Duration] = [100, 200, 300, 400].map { .milliseconds($0) }
        let timeline = try PlaybackTimeline(frameDelays: delays, storedLoopCount: 1, direction: .bounce)
        #expect(timeline.stepDurations == [100, 200, 300, 400, 300, 200].map { .milliseconds($0) })
        #expect(timeline.stepStartOffsets == [0, 100, 300, 600, 1000, 1300].map { .milliseconds($0) })
        #expect(timeline.loopDuration == .milliseconds(1500))
        #expect(timeline.plays == 2)
        #expect(timeline.storedLoopCount == 1)
        #expect(timeline.totalDuration == .milliseconds(3000))
        #expect(timeline.startOffset(ofFrame: 3) == .milliseconds(600))
        #expect(timeline.startOffset(ofFrame: 4) == nil)
    }

    @Test("A forever timeline has no total duration")
    func foreverTotal() throws {
        let timeline = try PlaybackTimeline(source: FakeFrameSource.milliseconds(100, 200, loop: 0))
        #expect(timeline.plays == nil)
        #expect(timeline.totalDuration == nil)
        #expect(timeline.frameCount == 2)
    }

    @Test("An empty or inconsistent source is refused")
    func invalidSources() {
        #expect(throws: PlayerError.emptySource) {
            try PlaybackTimeline(source: FakeFrameSource.milliseconds())
        }
        struct Odd: FrameSource {
            var canvasSize: PixelSize { PixelSize(width: canvasWidth, height: canvasHeight) }
            var timing: FrameSourceTiming { FrameSourceTiming(frameDelays: frameDelays, storedLoopCount: storedLoopCount) }
            var frameCount: Int { 3 }
            var canvasWidth: Int { 1 }
            var canvasHeight: Int { 1 }
            var frameDelays: [Duration] { [.milliseconds(10)] }
            var storedLoopCount: Int? { nil }
            func frame(at index: Int) async throws -> RenderedFrame {
                RenderedFrame(index: index, width: 1, height: 1, pixels: [0, 0, 0, 0])
            }
        }
        #expect(throws: PlayerError.mismatchedDelays(frameCount: 3, delayCount: 1)) {
            try PlaybackTimeline(source: Odd())
        }
    }
}
