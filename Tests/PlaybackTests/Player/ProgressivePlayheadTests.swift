import Playback
import Testing

/// A playhead on a timeline that grows: it waits on the
/// last frame it has, reports it, and goes on under each ``WaitPolicy``.
/// Every delay is 100 ms (kept by the browser delay rule), so the instants
/// follow from the rules: frame n is due at n × 100 ms of media time.
@Suite("Progressive playhead")
struct ProgressivePlayheadTests {
    static let tenth = Duration.milliseconds(100)

    static func timing(_ frames: Int, loop: Int? = nil, complete: Bool = false) -> FrameSourceTiming {
        FrameSourceTiming(frameDelays: Array(repeating: tenth, count: frames), storedLoopCount: loop, isComplete: complete)
    }

    static func head(_ frames: Int, _ configuration: PlayerConfiguration = .init()) throws -> Playhead {
        try Playhead(timeline: PlaybackTimeline(timing: timing(frames), configuration: configuration), configuration: configuration)
    }

    @Test("Resume from arrival (the default): waits at the end of the last frame, then shows the next in full from the arrival")
    func resumeFromArrival() throws {
        var head = try Self.head(2)
        #expect(PlayerConfiguration().waiting == .resumeFromArrival)
        #expect(head.timeline.totalDuration == nil)
        head.play(at: .zero)
        #expect(head.advance(to: .milliseconds(150)) == [.frameChanged(frame: 1)])
        #expect(head.nextChangeTime == .milliseconds(200))
        // Frame 1's time is up at 200 ms; frame 2 has not arrived.
        #expect(head.advance(to: .milliseconds(250)) == [.waitingForFrame(frame: 2)])
        #expect(head.isWaiting && head.currentFrame == 1 && head.state == .playing)
        #expect(head.nextChangeTime == nil)
        #expect(head.advance(to: .milliseconds(300)) == [])
        // Frame 2 arrives: due at once, and shown from the next time passed in.
        try head.extend(to: Self.timing(3))
        #expect(head.nextChangeTime == .milliseconds(300))
        #expect(head.advance(to: .milliseconds(400)) == [.waitEnded(waited: .milliseconds(200)), .frameChanged(frame: 2)])
        #expect(!head.isWaiting)
        #expect(head.elapsed == .milliseconds(200))
        #expect(head.nextChangeTime == .milliseconds(500))
        #expect(head.advance(to: .milliseconds(500)) == [.waitingForFrame(frame: 3)])
        // The file completes with no more frames and no loop extension: one play.
        try head.extend(to: Self.timing(3, complete: true))
        #expect(head.timeline.totalDuration == .milliseconds(300))
        #expect(head.advance(to: .milliseconds(520)) == [
            .waitEnded(waited: .milliseconds(20)), .loopCompleted(loopsDone: 1), .finished,
        ])
        #expect(head.state == .finished && head.currentFrame == 2)
    }

    @Test("Keep the schedule: time runs on while waiting, and frames whose time passed are skipped")
    func keepSchedule() throws {
        var head = try Self.head(2, PlayerConfiguration(waiting: .keepSchedule))
        head.play(at: .zero)
        #expect(head.advance(to: .milliseconds(250)) == [.frameChanged(frame: 1), .waitingForFrame(frame: 2)])
        try head.extend(to: Self.timing(4))
        // On the schedule, frame 2 ran 200–300 ms and frame 3 runs 300–400 ms.
        #expect(head.advance(to: .milliseconds(350)) == [.waitEnded(waited: .milliseconds(150)), .frameChanged(frame: 3)])
        #expect(head.nextChangeTime == .milliseconds(400))
        #expect(head.advance(to: .milliseconds(400)) == [.waitingForFrame(frame: 4)])
        // Complete at 4 frames, stored loop count 1 (known only now): two plays.
        try head.extend(to: Self.timing(4, loop: 1, complete: true))
        #expect(head.timeline.plays == 2)
        #expect(head.advance(to: .milliseconds(530)) == [
            .waitEnded(waited: .milliseconds(130)), .loopCompleted(loopsDone: 1), .frameChanged(frame: 1),
        ])
    }

    @Test("Frames arriving before they are due change nothing: no wait, no event")
    func arrivalInTime() throws {
        var head = try Self.head(1)
        head.play(at: .zero)
        try head.extend(to: Self.timing(2))
        #expect(head.advance(to: .milliseconds(100)) == [.frameChanged(frame: 1)])
        try head.extend(to: Self.timing(2, complete: true))
        #expect(head.advance(to: .milliseconds(200)) == [.loopCompleted(loopsDone: 1), .finished])
    }

    @Test("Reverse needs the last frame: it waits from the start and begins at the last frame once complete")
    func reverseWaitsForCompletion() throws {
        var head = try Self.head(2, PlayerConfiguration(direction: .reverse))
        #expect(head.play(at: .zero) == [.waitingForFrame(frame: 2)])
        #expect(head.currentFrame == 0)
        try head.extend(to: Self.timing(3, complete: true))
        #expect(head.advance(to: .milliseconds(50)) == [.waitEnded(waited: .milliseconds(50)), .frameChanged(frame: 2)])
        #expect(head.advance(to: .milliseconds(150)) == [.frameChanged(frame: 1)])
    }

    @Test("Pause while waiting keeps the wait; seeks reach only frames that arrived")
    func pauseAndSeekWhileWaiting() throws {
        var head = try Self.head(2)
        head.play(at: .zero)
        head.advance(to: .milliseconds(200))
        #expect(head.isWaiting)
        head.pause(at: .milliseconds(210))
        #expect(head.isWaiting && head.state == .paused)
        #expect(throws: PlayerError.frameOutOfRange(2, frameCount: 2)) { try head.seek(toFrame: 2) }
        #expect(throws: PlayerError.offsetOutOfRange(.milliseconds(200), totalDuration: nil)) {
            try head.seek(toOffset: .milliseconds(200))
        }
        #expect(try head.seek(toFrame: 0) == [.frameChanged(frame: 0)])
        #expect(!head.isWaiting)
    }

    @Test("A timing that does not extend the one played is refused, and nothing changes")
    func refusesNonExtensions() throws {
        var head = try Self.head(2)
        let before = head
        var changed = Self.timing(3)
        changed.frameDelays[0] = .milliseconds(500)
        #expect(throws: PlayerError.timingNotAnExtension(frameCount: 3, previousFrameCount: 2)) {
            try head.extend(to: changed)
        }
        #expect(throws: PlayerError.timingNotAnExtension(frameCount: 1, previousFrameCount: 2)) {
            try head.extend(to: Self.timing(1))
        }
        #expect(head == before)
        try head.extend(to: Self.timing(2, complete: true))
        #expect(throws: PlayerError.timingNotAnExtension(frameCount: 3, previousFrameCount: 2)) {
            try head.extend(to: Self.timing(3, complete: true))
        }
    }
}
