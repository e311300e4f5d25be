import Playback
import Testing

/// Delays 100, 200, 300 ms: frames start at 0, 100 and 300 ms; a loop is 600 ms.
let threeFrames = FakeFrameSource.milliseconds(100, 200, 300)

func makeHead(
    _ source: FakeFrameSource = threeFrames,
    _ configuration: PlayerConfiguration = .init(),
    now: Duration = .zero,
    epoch: Duration? = nil
) throws -> Playhead {
    try Playhead(timeline: PlaybackTimeline(source: source, configuration: configuration),
                 configuration: configuration, now: now, epoch: epoch)
}

/// Ticks at every deadline up to `limit`, returning each event with its time.
func runToDeadlines(_ head: inout Playhead, until limit: Duration) -> [(PlayerEvent, Duration)] {
    var log: [(PlayerEvent, Duration)] = []
    while let next = head.nextChangeTime, next <= limit {
        log += head.advance(to: next).map { ($0, next) }
    }
    return log
}

@Suite("Playhead: states, events, pause, rate, seeks")
struct PlayheadTests {
    @Test("A new player is idle on frame 0 and ignores time")
    func newPlayerIdle() throws {
        var head = try makeHead()
        #expect(head.state == .idle)
        #expect(head.currentFrame == 0)
        #expect(head.advance(by: .seconds(5)) == [])
        #expect(head.currentFrame == 0)
        #expect(head.timeUntilNextChange == nil)
        #expect(head.elapsed == .zero)
    }

    @Test("Autoplay starts at once")
    func autoplay() throws {
        var head = try makeHead(threeFrames, PlayerConfiguration(autoplay: true))
        #expect(head.state == .playing)
        #expect(head.timeUntilNextChange == .milliseconds(100))
        #expect(head.advance(to: .milliseconds(100)) == [.frameChanged(frame: 1)])
    }

    @Test("Exact event order through one play")
    func eventOrder() throws {
        var head = try makeHead()
        #expect(head.play() == [])
        #expect(head.advance(to: .nanoseconds(99_999_999)) == [])
        #expect(head.advance(to: .milliseconds(100)) == [.frameChanged(frame: 1)])
        #expect(head.advance(to: .milliseconds(299)) == [])
        #expect(head.advance(to: .milliseconds(300)) == [.frameChanged(frame: 2)])
        #expect(head.timeUntilNextChange == .milliseconds(300))
        #expect(head.advance(to: .nanoseconds(599_999_999)) == [])
        // The loop completes only once the last frame's delay has elapsed.
        #expect(head.advance(to: .milliseconds(600)) == [.loopCompleted(loopsDone: 1), .finished])
        #expect(head.state == .finished)
        #expect(head.currentFrame == 2)
        #expect(head.loopsCompleted == 1)
        #expect(head.advance(by: .seconds(1)) == [])
        #expect(head.nextChangeTime == nil)
    }

    @Test("Crossing a loop boundary reports the loop before the new frame")
    func loopBoundaryOrder() throws {
        var head = try makeHead(FakeFrameSource.milliseconds(100, 200, 300, loop: 0))
        head.play()
        head.advance(to: .milliseconds(300))
        #expect(head.advance(to: .milliseconds(600)) == [.loopCompleted(loopsDone: 1), .frameChanged(frame: 0)])
        #expect(head.loopIndex == 1)
    }

    @Test("Stored loop count: absent, 0 and N give 1, forever and N + 1 plays",
          arguments: [(Int?.none, Int?.some(1)), (0, nil), (1, 2), (4, 5)])
    func loopCounts(stored: Int?, plays: Int?) throws {
        var source = threeFrames
        source.storedLoopCount = stored
        var head = try makeHead(source)
        head.play()
        let log = runToDeadlines(&head, until: .seconds(60))
        let loops = log.compactMap { event, time -> (Int, Duration)? in
            if case .loopCompleted(let done) = event { (done, time) } else { nil }
        }
        let finishes = log.filter { $0.0 == .finished }.map(\.1)
        if let plays {
            #expect(loops.map(\.0) == Array(1...plays))
            #expect(loops.map(\.1) == (1...plays).map { .milliseconds(600 * $0) })
            #expect(finishes == [.milliseconds(600 * plays)])
            #expect(head.state == .finished)
            #expect(head.loopsCompleted == plays)
        } else {
            #expect(loops.count == 100)   // 60 s / 600 ms
            #expect(finishes.isEmpty)
            #expect(head.state == .playing)
        }
    }

    @Test("Fixed count and forever policies override the file", arguments: [
        (LoopPolicy.count(3), Int?.some(3)), (.forever, nil), (.count(1), 1),
    ])
    func loopPolicies(policy: LoopPolicy, plays: Int?) throws {
        var head = try makeHead(FakeFrameSource.milliseconds(100, 200, 300, loop: 7), PlayerConfiguration(loop: policy))
        head.play()
        let log = runToDeadlines(&head, until: .seconds(6))
        #expect(log.filter { $0.0 == .finished }.map(\.1) == plays.map { [.milliseconds(600 * $0)] } ?? [])
    }

    @Test("Browser delays show 0 and 1 cs frames for 100 ms; raw keeps them")
    func delayPlayback() throws {
        let source = FakeFrameSource.milliseconds(0, 10, 100)
        var browser = try makeHead(source)
        browser.play()
        #expect(runToDeadlines(&browser, until: .seconds(1)).map(\.1) == [.milliseconds(100), .milliseconds(200), .milliseconds(300), .milliseconds(300)])
        var raw = try makeHead(source, PlayerConfiguration(delay: .raw))
        raw.play()
        // Frame 0 lasts 0 ms and frame 1 10 ms: the first tick already shows frame 1.
        #expect(raw.advance(to: .zero) == [.frameChanged(frame: 1)])
        #expect(raw.advance(to: .milliseconds(10)) == [.frameChanged(frame: 2)])
        #expect(raw.advance(to: .milliseconds(110)) == [.loopCompleted(loopsDone: 1), .finished])
        var minimum = try makeHead(source, PlayerConfiguration(delay: .minimum(.milliseconds(50))))
        minimum.play()
        #expect(runToDeadlines(&minimum, until: .seconds(1)).map(\.1) == [.milliseconds(50), .milliseconds(100), .milliseconds(200), .milliseconds(200)])
    }

    @Test("Directions show frames in their order", arguments: [
        (PlaybackDirection.forward, [1, 2, 3]),
        (.reverse, [2, 1, 0]),
        (.bounce, [1, 2, 3, 2, 1]),
    ])
    func directions(direction: PlaybackDirection, frames: [Int]) throws {
        var head = try makeHead(FakeFrameSource.milliseconds(100, 100, 100, 100), PlayerConfiguration(direction: direction))
        let first = head.currentFrame
        head.play()
        let log = runToDeadlines(&head, until: .seconds(5))
        let shown = log.compactMap { if case .frameChanged(let frame) = $0.0 { frame } else { nil } }
        #expect(first == (direction == .reverse ? 3 : 0))
        #expect(shown == frames)
        #expect(log.suffix(2).map(\.0) == [.loopCompleted(loopsDone: 1), .finished])
        #expect(log.last?.1 == .milliseconds(100 * (frames.count + 1)))
    }

    @Test("Bounce counts one loop per there-and-back")
    func bounceLoops() throws {
        var head = try makeHead(FakeFrameSource.milliseconds(100, 100, 100), PlayerConfiguration(loop: .count(2), direction: .bounce))
        head.play()
        let log = runToDeadlines(&head, until: .seconds(5))
        // Steps 0 1 2 1 | 0 1 2 1: 400 ms per loop.
        #expect(log.filter { if case .loopCompleted = $0.0 { true } else { false } }.map(\.1) == [.milliseconds(400), .milliseconds(800)])
        #expect(head.currentFrame == 1)
    }

    @Test("Pause and resume keep the position to the nanosecond")
    func pauseResume() throws {
        var head = try makeHead(FakeFrameSource.milliseconds(100, 200, 300, loop: 0))
        head.play()
        let pausedAt = Duration.nanoseconds(150_000_123)
        #expect(head.pause(at: pausedAt) == [.frameChanged(frame: 1)])
        #expect(head.state == .paused)
        #expect(head.timeIntoFrame == .nanoseconds(50_000_123))
        #expect(head.advance(by: .seconds(7)) == [])
        #expect(head.timeIntoFrame == .nanoseconds(50_000_123))
        #expect(head.nextChangeTime == nil)
        let resumedAt = pausedAt + .seconds(7) + .nanoseconds(9)
        #expect(head.play(at: resumedAt) == [])
        #expect(head.currentFrame == 1)
        #expect(head.timeIntoFrame == .nanoseconds(50_000_123))
        #expect(head.elapsed == .nanoseconds(150_000_123))
        let due = resumedAt + .milliseconds(300) - pausedAt
        #expect(head.nextChangeTime == due)
        #expect(head.advance(to: due - .nanoseconds(1)) == [])
        #expect(head.advance(to: due) == [.frameChanged(frame: 2)])
    }

    @Test("Rate scales every delay", arguments: [2.0, 0.5, 1.0, 4.0])
    func rates(rate: Double) throws {
        var head = try makeHead(threeFrames, PlayerConfiguration(rate: rate))
        head.play()
        let times = runToDeadlines(&head, until: .seconds(10)).map(\.1)
        let expected = [100, 300, 600, 600].map { Duration.nanoseconds(Int64(Double($0 * 1_000_000) / rate)) }
        #expect(times == expected)
    }

    @Test("Changing the rate keeps the position")
    func rateChange() throws {
        var head = try makeHead()
        head.play()
        head.advance(to: .milliseconds(50))
        try head.setRate(2)
        #expect(head.timeIntoFrame == .milliseconds(50))
        #expect(head.nextChangeTime == .milliseconds(75))
        try head.setRate(0.5)
        #expect(head.nextChangeTime == .milliseconds(150))
        #expect(head.rate == 0.5)
    }

    @Test("Invalid rates are refused without trapping",
          arguments: [Double.nan, -1, 0, .infinity, -.infinity, 1000, 0.001])
    func invalidRates(rate: Double) throws {
        var head = try makeHead()
        #expect(throws: PlayerError.self) { try head.setRate(rate) }
        #expect(head.rate == 1)
        #expect(throws: PlayerError.self) { try makeHead(threeFrames, PlayerConfiguration(rate: rate)) }
    }

    @Test("Time going backwards is ignored")
    func backwards() throws {
        var head = try makeHead()
        head.play()
        #expect(head.advance(to: .milliseconds(200)) == [.frameChanged(frame: 1)])
        #expect(head.advance(to: .milliseconds(50)) == [])
        #expect(head.now == .milliseconds(200))
        #expect(head.advance(by: .milliseconds(-500)) == [])
        #expect(head.currentFrame == 1)
        #expect(head.timeIntoFrame == .milliseconds(100))
    }

    @Test("Seek to a frame, keeping the state")
    func seekToFrame() throws {
        var head = try makeHead()
        #expect(try head.seek(toFrame: 2) == [.frameChanged(frame: 2)])
        #expect(head.state == .idle)
        #expect(head.timeIntoFrame == .zero)
        head.play(at: .seconds(1))
        #expect(head.nextChangeTime == .milliseconds(1300))
        #expect(throws: PlayerError.frameOutOfRange(3, frameCount: 3)) { try head.seek(toFrame: 3) }
        #expect(throws: PlayerError.frameOutOfRange(-1, frameCount: 3)) { try head.seek(toFrame: -1) }
        #expect(head.currentFrame == 2)
        #expect(try head.seek(toFrame: 0) == [.frameChanged(frame: 0)])
        #expect(head.state == .playing)
        #expect(head.nextChangeTime == .milliseconds(1100))
    }

    @Test("Seek to a time offset, across loops when looping forever")
    func seekToOffset() throws {
        var once = try makeHead()
        #expect(try once.seek(toOffset: .milliseconds(250)) == [.frameChanged(frame: 1)])
        #expect(once.timeIntoFrame == .milliseconds(150))
        #expect(throws: PlayerError.offsetOutOfRange(.milliseconds(600), totalDuration: .milliseconds(600))) {
            try once.seek(toOffset: .milliseconds(600))
        }
        #expect(throws: PlayerError.offsetOutOfRange(.milliseconds(-1), totalDuration: .milliseconds(600))) {
            try once.seek(toOffset: .milliseconds(-1))
        }
        var forever = try makeHead(FakeFrameSource.milliseconds(100, 200, 300, loop: 0))
        #expect(try forever.seek(toOffset: .milliseconds(1300)) == [.frameChanged(frame: 1)])
        #expect(forever.loopIndex == 2)
        #expect(forever.timeIntoFrame == .zero)
        #expect(forever.elapsed == .milliseconds(1300))
    }

    @Test("A finished player seeks to paused, and play() restarts it")
    func finishedThenSeekAndReplay() throws {
        var head = try makeHead()
        head.play()
        head.advance(to: .seconds(1))
        #expect(head.state == .finished)
        #expect(try head.seek(toFrame: 1) == [.frameChanged(frame: 1)])
        #expect(head.state == .paused)
        head.advance(to: .seconds(2))
        head.play()
        #expect(head.advance(to: .milliseconds(2200)) == [.frameChanged(frame: 2)])
        head.advance(to: .seconds(3))
        #expect(head.play() == [.frameChanged(frame: 0)])
        #expect(head.state == .playing)
        #expect(head.loopIndex == 0)
        #expect(head.nextChangeTime == .milliseconds(3100))
    }

    @Test("Stop returns to frame 0 of loop 0, idle")
    func stop() throws {
        var head = try makeHead(FakeFrameSource.milliseconds(100, 200, 300, loop: 0))
        head.play()
        head.advance(to: .milliseconds(1000))
        #expect(head.loopIndex == 1)
        #expect(head.stop() == [.frameChanged(frame: 0)])
        #expect(head.state == .idle)
        #expect(head.loopIndex == 0)
        #expect(head.elapsed == .zero)
        #expect(head.advance(by: .seconds(1)) == [])
    }

    @Test("A loop with no duration cannot advance")
    func zeroLengthLoop() throws {
        var once = try makeHead(FakeFrameSource.milliseconds(0, 0), PlayerConfiguration(delay: .raw))
        #expect(once.play() == [.frameChanged(frame: 1), .finished])
        var forever = try makeHead(FakeFrameSource.milliseconds(0, 0, loop: 0), PlayerConfiguration(delay: .raw))
        #expect(forever.play() == [])
        #expect(forever.advance(by: .seconds(1)) == [])
        #expect(forever.timeUntilNextChange == nil)
    }

    @Test("Upcoming frames follow play order and stop at the end")
    func upcoming() throws {
        var head = try makeHead(threeFrames, PlayerConfiguration(direction: .bounce))
        #expect(head.upcomingFrames(3) == [1, 2, 1])
        head.play()
        head.advance(to: .milliseconds(300))
        #expect(head.upcomingFrames(5) == [1])
    }
}
