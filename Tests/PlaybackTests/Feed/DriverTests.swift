import Playback
import PlaybackTestSupport
import Testing

@Suite("Real-time driver on a manual clock")
struct DriverTests {
    @Test("The driver wakes exactly at each deadline and rests when nothing is due")
    func wakesAtDeadlines() async throws {
        let clock = ManualClock()
        let start = clock.now
        func at(_ milliseconds: Int) -> ManualClock.Instant { start.advanced(by: .milliseconds(milliseconds)) }
        let player = try Player(source: threeFrames, startingAt: start)
        let recorder = EventRecorder()
        await player.addObserver { recorder.record($0, at: start.duration(to: clock.now)) }
        let driver = PlaybackDriver(player: player, clock: clock)
        let task = Task { await driver.run() }

        // Idle: no deadline, so no sleep at all.
        try await Task.sleep(for: .milliseconds(20))
        #expect(clock.pendingDeadlines.isEmpty)

        await player.play(at: clock.now)
        #expect(await clock.waitForSleeper(at: at(100), limit: Changes.limit))
        clock.advance(to: at(100))
        #expect(await clock.waitForSleeper(at: at(300), limit: Changes.limit))
        // A late wake-up (50 ms) does not shift the next deadline.
        clock.advance(to: at(350))
        #expect(await clock.waitForSleeper(at: at(600), limit: Changes.limit))
        clock.advance(to: at(600))
        #expect(await eventually { recorder.events.last == .finished })
        try await Task.sleep(for: .milliseconds(20))
        #expect(clock.pendingDeadlines.isEmpty)

        let expected: [(PlayerEvent, Duration)] = [
            (.frameChanged(frame: 1), .milliseconds(100)),
            (.frameChanged(frame: 2), .milliseconds(350)),
            (.loopCompleted(loopsDone: 1), .milliseconds(600)),
            (.finished, .milliseconds(600)),
        ]
        #expect(recorder.timedEvents.map(\.0) == expected.map(\.0))
        #expect(recorder.timedEvents.map(\.1) == expected.map(\.1))
        #expect(Set(clock.sleepLog) == [at(100), at(300), at(600)])
        task.cancel()
        await task.value
    }

    @Test("Pause cancels the sleep; resume sleeps until the remaining time")
    func pauseResume() async throws {
        let clock = ManualClock()
        let start = clock.now
        func at(_ milliseconds: Int) -> ManualClock.Instant { start.advanced(by: .milliseconds(milliseconds)) }
        let player = try Player(source: FakeFrameSource.milliseconds(100, 200, 300, loop: 0), startingAt: start)
        let driver = PlaybackDriver(player: player, clock: clock)
        let task = Task { await driver.run() }
        await player.play(at: start)
        #expect(await clock.waitForSleeper(at: at(100), limit: Changes.limit))
        clock.advance(to: at(40))
        await player.pause(at: clock.now)
        #expect(await clock.waitForSleepers(limit: Changes.limit) { $0.isEmpty })
        clock.advance(to: at(5000))
        await player.play(at: clock.now)
        // 60 ms of frame 0 remain.
        #expect(await clock.waitForSleeper(at: at(5060), limit: Changes.limit))
        clock.advance(to: at(5060))
        #expect(await eventually(watching: [player]) { player.currentFrame == 1 })
        #expect(await clock.waitForSleeper(at: at(5260), limit: Changes.limit))
        // A seek moves the deadline at once.
        try await player.seek(toFrame: 2)
        #expect(await clock.waitForSleeper(at: at(5360), limit: Changes.limit))
        task.cancel()
        await task.value
        #expect(clock.pendingDeadlines.isEmpty)
    }

    @Test("Deadlines come from the epoch, so a long run accumulates no error")
    func noDrift() async throws {
        let clock = ManualClock()
        let start = clock.now
        // 1/3 s frames cannot be summed exactly in whole milliseconds.
        let source = FakeFrameSource(frameDelays: [.nanoseconds(333_333_333), .nanoseconds(333_333_334)], storedLoopCount: 0)
        let player = try Player(source: source, configuration: PlayerConfiguration(rate: 0.75), startingAt: start)
        let driver = PlaybackDriver(player: player, clock: clock)
        let task = Task { await driver.run() }
        await player.play(at: start)
        for _ in 0..<120 {
            guard let deadline = player.nextChangeInstant else { break }
            #expect(await clock.waitForSleeper(at: deadline, limit: Changes.limit))
            clock.advance(to: deadline)
            // Let the driver tick before moving on.
            _ = await eventually(watching: [player]) { player.nextChangeInstant != deadline }
        }
        // 120 steps = 60 loops of 666,666,667 ns media = 40,000,000,020 ns,
        // at 0.75×: 53,333,333,360 ns of host time.
        #expect(start.duration(to: clock.now) == .nanoseconds(53_333_333_360))
        #expect(player.loopsCompleted == 60)
        #expect(player.timeIntoFrame == .zero)
        task.cancel()
        await task.value
    }

    /// host time past ~292 years saturates the playhead's
    /// nanoseconds, and so does media time at a rate above 1, so the next
    /// change seemed due forever and the driver woke again at once, at full
    /// CPU. A driver that rests sleeps no more than once here; one that spins
    /// sleeps thousands of times in the real-time pauses below.
    @Test("A player whose epoch lies centuries back does not make its driver spin",
          arguments: [(300, 1.0), (200, 2.0), (100, 4.0)], [CatchUpPolicy.skip, .carryLag, .browser])
    func ancientEpoch(_ age: (years: Int64, rate: Double), catchUp: CatchUpPolicy) async throws {
        let clock = ManualClock()
        let start = clock.now
        let epoch = start.advanced(by: .seconds(-age.years * 365 * 86_400))
        let configuration = PlayerConfiguration(catchUp: catchUp, rate: age.rate)
        let player = try Player(source: FakeFrameSource.milliseconds(100, 200, 300, loop: 0),
                                configuration: configuration, startingAt: start, epoch: epoch)
        let driver = PlaybackDriver(player: player, clock: clock)
        let task = Task { await driver.run() }
        await player.play(at: start)
        try await Task.sleep(for: .milliseconds(50))
        clock.advance(by: .seconds(1))
        try await Task.sleep(for: .milliseconds(50))
        #expect(clock.sleepLog.count <= 1, "\(clock.sleepLog.count) sleeps")
        #expect((0..<3).contains(player.currentFrame))
        // The host can still pause and play it.
        await player.pause(at: clock.now)
        await player.play(at: clock.now)
        try await Task.sleep(for: .milliseconds(20))
        #expect(clock.sleepLog.count <= 2, "\(clock.sleepLog.count) sleeps")
        task.cancel()
        await task.value
    }
}
