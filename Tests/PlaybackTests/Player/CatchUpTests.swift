import Playback
import Testing

/// A 10-second stall on a forever loop of 100, 200, 300 ms frames.
///
/// At 10 s the clock is 16 loops (9.6 s) plus 400 ms in: frame 2 (which
/// spans 300–600 ms of its loop), 100 ms into it. The stall started on frame
/// 0, whose end was due at 100 ms, so the lag is 9.9 s.
@Suite("Catch-up after a 10-second stall")
struct CatchUpTests {
    let source = FakeFrameSource.milliseconds(100, 200, 300, loop: 0)

    func stalled(_ policy: CatchUpPolicy) throws -> (Playhead, [PlayerEvent]) {
        var head = try makeHead(source, PlayerConfiguration(catchUp: policy))
        head.play()
        let events = head.advance(to: .seconds(10))
        return (head, events)
    }

    @Test("skip jumps to the frame the clock says", arguments: [CatchUpPolicy.skip, .browser, .resync(after: .milliseconds(9900))])
    func skip(policy: CatchUpPolicy) throws {
        let (head, events) = try stalled(policy)
        #expect(events == [.loopCompleted(loopsDone: 16), .frameChanged(frame: 2)])
        #expect(head.loopIndex == 16)
        #expect(head.timeIntoFrame == .milliseconds(100))
        #expect(head.nextChangeTime == .milliseconds(10_200))
    }

    @Test("carryLag advances one frame per tick until it has caught up")
    func carryLag() throws {
        var (head, events) = try stalled(.carryLag)
        #expect(events == [.frameChanged(frame: 1)])
        #expect(head.timeIntoFrame == .milliseconds(9900))
        #expect(head.timeUntilNextChange == .zero)
        #expect(head.advance(to: .seconds(10)) == [.frameChanged(frame: 2)])
        #expect(head.advance(to: .seconds(10)) == [.loopCompleted(loopsDone: 1), .frameChanged(frame: 0)])
        // Step 50 (loop 16, frame 2) is the one the clock says: 50 ticks from step 0.
        var ticks = 3
        while head.timeUntilNextChange == .zero {
            head.advance(to: .seconds(10))
            ticks += 1
        }
        #expect(ticks == 50)
        #expect(head.currentFrame == 2)
        #expect(head.loopIndex == 16)
        #expect(head.timeUntilNextChange == .milliseconds(200))
    }

    @Test("resync forgets a stall longer than its limit")
    func resync() throws {
        var (head, events) = try stalled(.resync(after: .seconds(1)))
        #expect(events == [.frameChanged(frame: 1)])
        #expect(head.loopIndex == 0)
        #expect(head.timeIntoFrame == .zero)
        #expect(head.nextChangeTime == .milliseconds(10_200))
        #expect(head.advance(to: .milliseconds(10_200)) == [.frameChanged(frame: 2)])
    }

    /// Each later tick is another 10-second stall: carryLag and resync each
    /// step once per tick, skip finishes at once.
    @Test("A stall past the end finishes in order under every policy",
          arguments: [CatchUpPolicy.skip, .carryLag, .resync(after: .seconds(1)), .browser])
    func stallPastEnd(policy: CatchUpPolicy) throws {
        var head = try makeHead(threeFrames, PlayerConfiguration(catchUp: policy))
        head.play()
        var time = Duration.seconds(10)
        var events = head.advance(to: time)
        while head.state == .playing, time < .seconds(100) {
            time += .seconds(10)
            events += head.advance(to: time)
        }
        let expected: [PlayerEvent] = switch policy {
        case .skip, .browser: [.frameChanged(frame: 2), .loopCompleted(loopsDone: 1), .finished]
        default: [.frameChanged(frame: 1), .frameChanged(frame: 2), .loopCompleted(loopsDone: 1), .finished]
        }
        #expect(events == expected)
        #expect(head.currentFrame == 2)
    }
}
