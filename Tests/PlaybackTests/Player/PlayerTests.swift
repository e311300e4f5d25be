import Playback
import Testing

@Suite("Player actor: instants, callbacks and streams")
struct PlayerTests {
    @Test("Callbacks and the stream see the same events in the same order")
    func delivery() async throws {
        let clock = ManualClock()
        let start = clock.now
        let player = try Player(source: threeFrames, startingAt: start)
        let recorder = EventRecorder()
        await player.addObserver { recorder.record($0) }
        let stream = await player.events()
        #expect(player.state == .idle)
        #expect(player.currentFrame == 0)
        await player.play()
        var returned: [PlayerEvent] = []
        for step in 1...7 {
            returned += await player.advance(to: start.advanced(by: .milliseconds(100 * step)))
        }
        let expected: [PlayerEvent] = [.frameChanged(frame: 1), .frameChanged(frame: 2), .loopCompleted(loopsDone: 1), .finished]
        #expect(returned == expected)
        #expect(recorder.events == expected)
        var streamed: [PlayerEvent] = []
        for await event in stream {
            streamed.append(event)
            if streamed.count == expected.count { break }
        }
        #expect(streamed == expected)
        #expect(player.state == .finished)
        #expect(player.loopsCompleted == 1)
    }

    @Test("advance(by:), pause(at:) and play(at:) work on instants")
    func instants() async throws {
        let clock = ManualClock()
        let start = clock.now
        let player = try Player(source: threeFrames, startingAt: start)
        await player.play(at: start)
        #expect(await player.advance(by: .milliseconds(150)) == [.frameChanged(frame: 1)])
        #expect(player.now == start.advanced(by: .milliseconds(150)))
        await player.pause(at: start.advanced(by: .milliseconds(175)))
        await player.play(at: start.advanced(by: .seconds(3)))
        #expect(player.timeIntoFrame == .milliseconds(75))
        #expect(player.nextChangeInstant == start.advanced(by: .milliseconds(3125)))
        #expect(player.timeUntilNextChange == .milliseconds(125))
        await #expect(throws: PlayerError.invalidRate(-2)) { try await player.setRate(-2) }
        try await player.setRate(0.5)
        #expect(player.rate == 0.5)
        #expect(player.nextChangeInstant == start.advanced(by: .milliseconds(3250)))
        await #expect(throws: PlayerError.frameOutOfRange(9, frameCount: 3)) { try await player.seek(toFrame: 9) }
        #expect(try await player.seek(toOffset: .milliseconds(350)) == [.frameChanged(frame: 2)])
        #expect(await player.stop() == [.frameChanged(frame: 0)])
        #expect(player.snapshot.state == .idle)
    }

    @Test("A removed observer hears nothing more")
    func removeObserver() async throws {
        let player = try Player(source: threeFrames, startingAt: ManualClock().now)
        let recorder = EventRecorder()
        let token = await player.addObserver { recorder.record($0) }
        await player.play()
        await player.advance(by: .milliseconds(100))
        await player.removeObserver(token)
        await player.advance(by: .milliseconds(200))
        #expect(recorder.events == [.frameChanged(frame: 1)])
    }
}
