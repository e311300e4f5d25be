import Foundation
import Playback
import PlaybackTestSupport
import Testing

/// a cap on play time (WCAG 2.2.2) and reduced motion.
///
/// The expectations are computed here from the frame delays (100, 200 and
/// 300 ms, looping forever; the browser delay rule keeps them) and the
/// documented rules: the cap counts media time played since `play()`, so at
/// rate 1 it is reached exactly `limit` after `play()`, plus any time paused.
@Suite("Motion policies: play-time limit and reduced motion")
struct MotionPolicyTests {
    static let delays = [100, 200, 300]
    static var source: FakeFrameSource { FakeFrameSource.milliseconds(100, 200, 300, loop: 0) }

    /// The frame changes and loop ends of an endless forward play of
    /// `delays` strictly before media time `end` (ms), each at its media
    /// time: an independent walk over the delays.
    static func expectedChanges(before end: Int) -> [(PlayerEvent, Int)] {
        var changes: [(PlayerEvent, Int)] = []
        var time = 0
        var step = 0
        while true {
            time += delays[step % delays.count]
            step += 1
            guard time < end else { return changes }
            if step % delays.count == 0 { changes.append((.loopCompleted(loopsDone: step / delays.count), time)) }
            changes.append((.frameChanged(frame: step % delays.count), time))
        }
    }

    /// The frame shown at media time `media` (ms) of an endless play.
    static func frameShown(at media: Int) -> Int {
        let loop = delays.reduce(0, +)
        var within = media % loop
        for (frame, delay) in delays.enumerated() {
            if within < delay { return frame }
            within -= delay
        }
        return 0
    }

    @Test("The cap ends on the chosen still frame at exactly the limit, driven deadline by deadline")
    func capUnderDriver() async throws {
        for still in [StillFrame.last, .frame(1), .shown] {
            let clock = ManualClock()
            let start = clock.now
            let configuration = PlayerConfiguration(playTimeLimit: .seconds(1), stillFrame: still)
            let player = try Player(source: Self.source, configuration: configuration, startingAt: start)
            let recorder = EventRecorder()
            await player.addObserver { recorder.record($0, at: start.duration(to: clock.now)) }
            let driving = Task { await PlaybackDriver(player: player, clock: clock).run() }
            await player.play(at: start)
            while player.state == .playing {
                let next = try #require(player.nextChangeInstant)
                #expect(await clock.waitForSleeper(at: next, limit: Changes.limit))
                clock.advance(to: next)
                #expect(await eventually(watching: [player]) { player.nextChangeInstant != next })
            }
            // The limit: 1,000 ms of media time at rate 1, with no pause.
            var expected = Self.expectedChanges(before: 1000).map { ($0.0, Duration.milliseconds($0.1)) }
            let shown = Self.frameShown(at: 1000)
            let stillIndex: Int
            switch still {
            case .last: stillIndex = Self.delays.count - 1
            case .frame(let index): stillIndex = index
            case .shown: stillIndex = shown
            }
            if stillIndex != shown { expected.append((.frameChanged(frame: stillIndex), .milliseconds(1000))) }
            expected.append((.timeLimitReached, .milliseconds(1000)))
            #expect(recorder.timedEvents.map(\.0) == expected.map(\.0), "\(still)")
            #expect(recorder.timedEvents.map(\.1) == expected.map(\.1), "\(still)")
            #expect(player.state == .timeLimitReached)
            #expect(player.currentFrame == stillIndex)
            // Stopped: the driver rests, and time passing changes nothing.
            #expect(await clock.waitForSleepers(limit: Changes.limit) { $0.isEmpty })
            clock.advance(by: .seconds(10))
            #expect(await player.advance(to: clock.now).isEmpty)
            driving.cancel()
            await driving.value
        }
    }

    @Test("Pauses do not count toward the cap; a higher rate reaches it sooner in host time")
    func capCountsMediaTime() throws {
        let timeline = try PlaybackTimeline(source: Self.source, configuration: .init())
        // Paused from 250 to 650 ms: 400 ms that do not count.
        var head = try Playhead(timeline: timeline, configuration: PlayerConfiguration(playTimeLimit: .seconds(1)))
        head.play(at: .zero)
        head.pause(at: .milliseconds(250))
        head.play(at: .milliseconds(650))
        #expect(head.nextChangeTime.map { $0 <= .milliseconds(1400) } == true)
        head.advance(to: .milliseconds(1399))
        #expect(head.state == .playing)
        #expect(head.advance(to: .milliseconds(1400)).last == .timeLimitReached)
        #expect(head.state == .timeLimitReached)

        // Rate 2: 1 s of media time is 500 ms of host time.
        var fast = try Playhead(
            timeline: timeline, configuration: PlayerConfiguration(rate: 2, playTimeLimit: .seconds(1)))
        fast.play(at: .zero)
        fast.advance(to: .milliseconds(499))
        #expect(fast.state == .playing)
        #expect(fast.nextChangeTime == .milliseconds(500))
        #expect(fast.advance(to: .milliseconds(500)).last == .timeLimitReached)

        // play() after the limit starts again from frame 0 (the still frame
        // by default, so no change) with a new allowance.
        #expect(fast.currentFrame == 0)
        #expect(fast.play().isEmpty)
        #expect(fast.nextChangeTime == .milliseconds(550))  // frame 0's 100 ms at rate 2
        fast.advance(to: .milliseconds(999))
        #expect(fast.state == .playing)
        fast.advance(to: .milliseconds(1000))
        #expect(fast.state == .timeLimitReached)
    }

    @Test("Loops that end before the cap finish as usual; a zero cap stops at once")
    func capEdges() throws {
        let once = try PlaybackTimeline(source: Self.source, configuration: PlayerConfiguration(loop: .count(1)))
        var head = try Playhead(timeline: once, configuration: PlayerConfiguration(loop: .count(1), playTimeLimit: .seconds(5)))
        head.play(at: .zero)
        #expect(head.advance(to: .milliseconds(600)).last == .finished)
        #expect(head.state == .finished)

        let timeline = try PlaybackTimeline(source: Self.source, configuration: .init())
        var zero = try Playhead(timeline: timeline, configuration: PlayerConfiguration(playTimeLimit: .zero))
        #expect(zero.play(at: .zero) == [.timeLimitReached])
        #expect(zero.state == .timeLimitReached)
        #expect(zero.nextChangeTime == nil)
    }

    @Test("Reduced motion shows the still frame, ignores autoplay, and plays on demand from the beginning")
    func reducedMotion() async throws {
        let clock = ManualClock()
        let start = clock.now
        let configuration = PlayerConfiguration(autoplay: true, stillFrame: .frame(2), reducedMotion: true)
        let player = try Player(source: Self.source, configuration: configuration, startingAt: start)
        #expect(player.state == .idle)
        #expect(player.currentFrame == 2)
        #expect(player.nextChangeInstant == nil)
        #expect(await player.advance(to: start.advanced(by: .seconds(3))).isEmpty)
        #expect(player.currentFrame == 2)

        // On demand: from frame 0, on the frames' schedule, until paused.
        let playedAt = start.advanced(by: .seconds(3))
        #expect(await player.play(at: playedAt) == [.frameChanged(frame: 0)])
        let changes = Self.expectedChanges(before: 1500)
        var seen: [PlayerEvent] = []
        for (_, media) in changes {
            seen += await player.advance(to: playedAt.advanced(by: .milliseconds(media)))
        }
        #expect(seen == changes.map(\.0))
        #expect(player.state == .playing)
        #expect(player.currentFrame == Self.frameShown(at: 1499))

        // Switched on again mid-play (it is on; switch off, play, then on):
        await player.setReducedMotion(false)
        #expect(player.state == .playing)
        let events = await player.setReducedMotion(true)
        #expect(player.state == .idle)
        #expect(player.currentFrame == 2)
        #expect(events == (Self.frameShown(at: 1499) == 2 ? [] : [.frameChanged(frame: 2)]))
        #expect(player.nextChangeInstant == nil)

        // stop() in reduced motion returns to the still frame.
        await player.play(at: playedAt.advanced(by: .seconds(2)))
        await player.advance(to: playedAt.advanced(by: .milliseconds(2100)))
        #expect(player.currentFrame == 1)
        #expect(await player.stop() == [.frameChanged(frame: 2)])
        #expect(player.state == .idle)
    }
}
