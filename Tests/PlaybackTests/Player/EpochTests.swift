import Playback
import Testing

@Suite("Shared epoch")
struct EpochTests {
    let source = FakeFrameSource.milliseconds(100, 200, 300, loop: 0)

    @Test("Two playheads on one epoch show the same frame after different tick patterns")
    func sameFrame() throws {
        var steady = try makeHead(source, now: .zero, epoch: .zero)
        steady.play()
        var time = Duration.zero
        while time < .seconds(5) {
            time += .milliseconds(16)
            steady.advance(to: min(time, .seconds(5)))
        }
        var late = try makeHead(source, now: .milliseconds(1334), epoch: .zero)
        // Joining at 1.334 s = loop 2 + 134 ms: frame 1, and no loop events.
        #expect(late.play() == [.frameChanged(frame: 1)])
        late.advance(to: .milliseconds(1371))
        late.advance(to: .milliseconds(3999))
        late.advance(to: .milliseconds(4003))
        late.advance(to: .seconds(5))
        // 5 s = loop 8 + 200 ms: frame 1, 100 ms in.
        for head in [steady, late] {
            #expect(head.currentFrame == 1)
            #expect(head.loopIndex == 8)
            #expect(head.timeIntoFrame == .milliseconds(100))
            #expect(head.nextChangeTime == .milliseconds(5100))
        }
    }

    @Test("A future epoch holds frame 0 until it arrives")
    func futureEpoch() throws {
        var head = try makeHead(source, now: .zero, epoch: .seconds(1))
        head.play()
        #expect(head.nextChangeTime == .milliseconds(1100))
        #expect(head.advance(to: .milliseconds(1099)) == [])
        #expect(head.advance(to: .milliseconds(1100)) == [.frameChanged(frame: 1)])
    }

    @Test("Players given one epoch instant stay in step")
    func players() async throws {
        let clock = ManualClock()
        let epoch = clock.now
        let first = try Player(source: source, startingAt: epoch, epoch: epoch)
        await first.play()
        clock.advance(to: epoch.advanced(by: .milliseconds(700)))
        let second = try Player(source: source, startingAt: clock.now, epoch: epoch)
        await second.play()
        for step in [13, 250, 1, 999] {
            clock.advance(by: .milliseconds(step))
            await first.advance(to: clock.now)
        }
        await second.advance(to: clock.now)
        #expect(first.currentFrame == second.currentFrame)
        #expect(first.timeIntoFrame == second.timeIntoFrame)
        // 1963 ms = loop 3 + 163 ms: frame 1.
        #expect(second.currentFrame == 1)
        #expect(second.timeIntoFrame == .milliseconds(63))
    }
}
