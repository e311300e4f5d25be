import Foundation
import Playback
import PlaybackTestSupport
import Synchronization
import Testing

/// Moves `clock` from deadline to deadline up to `end` after `start`,
/// waiting after each move until the driver sleeps toward a later one (or
/// `done` says nothing more will come).
private func stepThroughDeadlines(
    _ clock: ManualClock, from start: ManualClock.Instant, until end: Duration,
    done: @Sendable () async -> Bool = { false }
) async {
    while true {
        let more = await eventually(watching: [clock]) {
            if !clock.pendingDeadlines.isEmpty { return true }
            return await done()
        }
        guard more, let next = clock.pendingDeadlines.first, start.duration(to: next) <= end else { return }
        clock.advance(to: next)
        _ = await eventually(watching: [clock]) {
            if let first = clock.pendingDeadlines.first { return first > next }
            return await done()
        }
    }
}

@Suite("Group driver on a manual clock")
struct GroupDriverTests {
    /// Sources of different timing: each row is one member.
    static let members: [(source: FakeFrameSource, configuration: PlayerConfiguration)] = [
        (.milliseconds(100, 200, 300, loop: 0), .init()),
        (.milliseconds(30, 70, loop: 0), .init(rate: 1.5)),
        (.milliseconds(50, 50, 50, 50, loop: 1), .init()),  // two plays, then finished
        (.milliseconds(40, 40, 40, loop: 0), .init(direction: .bounce)),
    ]

    @Test("Each member's events and their instants equal the same player's driven alone")
    func sameAsAlone() async throws {
        let horizon = Duration.milliseconds(1500)
        var alone: [[(PlayerEvent, Duration)]] = []
        for member in Self.members {
            let clock = ManualClock()
            let start = clock.now
            let player = try Player(source: member.source, configuration: member.configuration, startingAt: start)
            let recorder = EventRecorder()
            await player.addObserver { recorder.record($0, at: start.duration(to: clock.now)) }
            let task = Task { await PlaybackDriver(player: player, clock: clock).run() }
            await player.play(at: start)
            await stepThroughDeadlines(clock, from: start, until: horizon) { player.state == .finished }
            task.cancel()
            await task.value
            alone.append(recorder.timedEvents)
        }

        let clock = ManualClock()
        let start = clock.now
        let group = GroupDriver(clock: clock)
        var players: [Player<ManualClock.Instant>] = []
        var recorders: [EventRecorder] = []
        for member in Self.members {
            let player = try Player(source: member.source, configuration: member.configuration, startingAt: start)
            let recorder = EventRecorder()
            await player.addObserver { recorder.record($0, at: start.duration(to: clock.now)) }
            await group.add(player)
            players.append(player)
            recorders.append(recorder)
        }
        #expect(await group.memberCount == Self.members.count)
        let task = Task { await group.run() }
        for player in players { await player.play(at: start) }
        await stepThroughDeadlines(clock, from: start, until: horizon)
        task.cancel()
        await task.value

        for (index, recorder) in recorders.enumerated() {
            #expect(recorder.timedEvents.map(\.0) == alone[index].map(\.0), "member \(index)")
            #expect(recorder.timedEvents.map(\.1) == alone[index].map(\.1), "member \(index)")
            #expect(!alone[index].isEmpty, "member \(index)")
        }
        #expect(clock.pendingDeadlines.isEmpty)
    }

    @Test("Nine players on one epoch wake the group once per frame period")
    func nineInStep() async throws {
        let clock = ManualClock()
        let start = clock.now
        let group = GroupDriver(clock: clock)
        var players: [Player<ManualClock.Instant>] = []
        for _ in 0..<9 {
            let player = try Player(source: FakeFrameSource.milliseconds(100, 100, 100, loop: 0),
                                    startingAt: start, epoch: start)
            players.append(player)
            await group.add(player)
        }
        let task = Task { await group.run() }
        for player in players { await player.play(at: start) }
        await stepThroughDeadlines(clock, from: start, until: .milliseconds(1000))
        // Changes at 100, 200, …, 1000 ms: ten, shared by all nine.
        #expect(await group.statistics.wakeUps == 10)
        for player in players {
            #expect(player.loopsCompleted == 3)
            #expect(player.currentFrame == 1)
        }
        task.cancel()
        await task.value
    }

    @Test("A frame-rate cap bounds the wake-ups; every player still shows what the clock says")
    func cap() async throws {
        let clock = ManualClock()
        let start = clock.now
        let group = GroupDriver(clock: clock, maximumFrameRate: 30)
        #expect(group.maximumFrameRate == 30)
        var players: [Player<ManualClock.Instant>] = []
        var twins: [Player<ManualClock.Instant>] = []
        for index in 0..<9 {
            // 20 ms frames (50 per second), each player on its own phase.
            let source = FakeFrameSource.milliseconds(20, 20, 20, 20, 20, loop: 0)
            let epoch = start.advanced(by: .milliseconds(3 * index))
            let player = try Player(source: source, startingAt: start, epoch: epoch)
            players.append(player)
            twins.append(try Player(source: source, startingAt: start, epoch: epoch))
            await group.add(player)
        }
        let task = Task { await group.run() }
        for player in players + twins { await player.play(at: start) }
        let horizon = Duration.seconds(3)
        await stepThroughDeadlines(clock, from: start, until: horizon)
        let wakeUps = await group.statistics.wakeUps
        // At most one wake-up per 1/30 s over 3 s, plus the first.
        #expect(wakeUps <= 91, "\(wakeUps) wake-ups")
        #expect(wakeUps >= 85, "\(wakeUps) wake-ups")
        let slept = clock.sleepLog
        for (earlier, later) in zip(slept, slept.dropFirst()) {
            #expect(earlier.duration(to: later) >= .nanoseconds(33_333_333))
        }
        // A twin advanced by hand to the same instant shows the same position.
        for (player, twin) in zip(players, twins) {
            await twin.advance(to: player.now)
            #expect(player.currentFrame == twin.currentFrame)
            #expect(player.timeIntoFrame == twin.timeIntoFrame)
            #expect(player.loopsCompleted == twin.loopsCompleted)
        }
        task.cancel()
        await task.value
    }

    @Test("Members come and go while the group runs")
    func membership() async throws {
        let clock = ManualClock()
        let start = clock.now
        func at(_ milliseconds: Int) -> ManualClock.Instant { start.advanced(by: .milliseconds(milliseconds)) }
        let group = GroupDriver(clock: clock)
        let first = try Player(source: FakeFrameSource.milliseconds(100, 100, loop: 0), startingAt: start)
        let second = try Player(source: FakeFrameSource.milliseconds(70, 70, loop: 0), startingAt: start)
        let firstEvents = EventRecorder(), secondEvents = EventRecorder()
        await first.addObserver { firstEvents.record($0, at: start.duration(to: clock.now)) }
        await second.addObserver { secondEvents.record($0, at: start.duration(to: clock.now)) }
        await group.add(first)
        let task = Task { await group.run() }
        await first.play(at: start)
        await stepThroughDeadlines(clock, from: start, until: .milliseconds(200))
        #expect(firstEvents.events == [.frameChanged(frame: 1), .loopCompleted(loopsDone: 1), .frameChanged(frame: 0)])

        // Added while running: driven from the next turn on.
        await second.play(at: clock.now)
        await group.add(second)
        await group.add(second)  // twice: nothing more
        #expect(await group.memberCount == 2)
        #expect(await clock.waitForSleeper(at: at(270), limit: Changes.limit))
        clock.advance(to: at(270))
        #expect(await eventually { secondEvents.events == [.frameChanged(frame: 1)] })

        // Removed while running: nothing advances it any more.
        await group.remove(first)
        #expect(await group.memberCount == 1)
        await stepThroughDeadlines(clock, from: start, until: .milliseconds(700))
        #expect(first.currentFrame == 0)
        #expect(firstEvents.events.count == 3)
        #expect(secondEvents.timedEvents.last?.1 == .milliseconds(690))
        task.cancel()
        await task.value
    }

    @Test("A host ticking the group ticks the players it holds, in the order added, and not one removed")
    func hostTickedMembership() async throws {
        // The players' frames last 100 and 70 ms; the host ticks at 100 and
        // 200 ms after their start.
        let clock = ManualClock(), start = clock.now
        let players = try [100, 70].map {
            try Player(source: FakeFrameSource.milliseconds($0, $0, loop: 0), startingAt: start)
        }
        let group = GroupDriver(clock: clock)
        for player in players {
            await player.play(at: start)
            await group.add(player)
        }
        let (first, second) = (players[0], players[1])
        func at(_ milliseconds: Int) -> ManualClock.Instant { start.advanced(by: .milliseconds(milliseconds)) }
        // At 100 ms both moved on a frame (at 100 and at 70 ms); the next
        // change is the second's, at 140 ms.
        clock.advance(to: at(100))
        let both = group.tickPlayers(at: at(100))
        #expect(both.changed == [ObjectIdentifier(first), ObjectIdentifier(second)])
        #expect(both.nextChange == at(140))

        await group.remove(first)
        // At 200 ms both went back to frame 0 (the first at 200, the second
        // at 140): only the second is ticked, next due at 210 ms.
        clock.advance(to: at(200))
        let one = group.tickPlayers(at: at(200))
        #expect(one.changed == [ObjectIdentifier(second)])
        #expect(one.nextChange == at(210))
        #expect(second.currentFrame == 0)
    }

    @Test("A host ticking at every refresh shows what a player advanced alone shows, with the host's changes between ticks")
    func everyRefreshMatchesAlone() async throws {
        // Frames of 100, 60, 100 and 40 ms, ticked every 4 ms for 1.5 s. The
        // changes between ticks move the next change sooner (a faster rate,
        // a seek to a short frame) or later (a pause, a slower rate), so a
        // tick that took an earlier deadline for the next change would show
        // a frame late.
        let clock = ManualClock(), start = clock.now
        let source = FakeFrameSource.milliseconds(100, 60, 100, 40, loop: 0)
        let alone = try Player(source: source, startingAt: start)
        let grouped = try Player(source: source, startingAt: start)
        let group = GroupDriver(clock: clock)
        await group.add(grouped)
        let aloneEvents = EventRecorder(), groupedEvents = EventRecorder()
        _ = await alone.addObserver { aloneEvents.record($0) }
        _ = await grouped.addObserver { groupedEvents.record($0) }
        let both = [alone, grouped]
        for player in both { await player.play(at: start) }

        for milliseconds in stride(from: 0, through: 1500, by: 4) {
            let now = start.advanced(by: .milliseconds(milliseconds))
            for player in both {
                switch milliseconds {
                case 212: try await player.setRate(2)
                case 500: _ = try await player.seek(toFrame: 3)
                case 700: await player.pause(at: now)
                case 800: await player.play(at: now)
                case 1000: try await player.setRate(0.5)
                default: break
                }
            }
            await alone.advance(to: now)
            let before = grouped.currentFrame
            let tick = group.tickPlayers(at: now)
            let frame = grouped.currentFrame
            #expect(frame == (alone.currentFrame), "frame at \(milliseconds) ms")
            #expect(tick.changed.contains(ObjectIdentifier(grouped)) == (frame != before), "changed at \(milliseconds) ms")
            #expect(tick.nextChange == alone.nextChangeInstant, "next change at \(milliseconds) ms")
        }
        #expect(groupedEvents.events == aloneEvents.events)
        #expect(aloneEvents.events.count > 20)
        // 376 host ticks of its one member (0 to 1,500 ms, every 4 ms);
        // the driver itself never ran.
        let statistics = await group.statistics
        #expect(statistics.hostTicks == 376)
        #expect(statistics.ticks == 376)
        #expect(statistics.wakeUps == 0)
    }

    @Test("A late draw is reported at the host's next tick, though no frame is due then, and each tick names the player, due at once, until a draw gets through")
    func lateDrawReportedAtQuietTick() async throws {
        // Six frames of 100 ms whose decodes wait for the gate: the host's
        // draw of frame 0 is late.
        let clock = ManualClock(), start = clock.now, gate = Gate()
        let player = try Player(source: GatedFrameSource(gate: gate), startingAt: start)
        let group = GroupDriver(clock: clock)
        await player.play(at: start)
        await group.add(player)
        let events = EventRecorder()
        _ = await player.addObserver { events.record($0) }
        let first = group.tickPlayers(at: start.advanced(by: .milliseconds(10)))
        #expect(first.nextChange == start.advanced(by: .milliseconds(100)))

        var pixels = [UInt8](repeating: 0, count: 8)
        let drawn = try pixels.withUnsafeMutableBytes { try player.draw(into: $0, bytesPerRow: 8) }
        #expect(drawn == .late(frame: 0, shown: nil))
        #expect(events.events.isEmpty)
        let id = ObjectIdentifier(player)
        let quiet = group.tickPlayers(at: start.advanced(by: .milliseconds(20)))
        #expect(quiet.changed == [id])
        #expect(quiet.nextChange == start.advanced(by: .milliseconds(20)))
        #expect(events.events == [.drawnLate(frame: 0)])
        // Still owed at the next refresh, though no frame is due.
        let again = group.tickPlayers(at: start.advanced(by: .milliseconds(30)))
        #expect(again.changed == [id])
        #expect(again.nextChange == start.advanced(by: .milliseconds(30)))

        await gate.open()
        var result = FrameDraw.late(frame: 0, shown: nil)
        let deadline = ContinuousClock.now + Changes.limit
        while case .late = result, ContinuousClock.now < deadline {
            result = try pixels.withUnsafeMutableBytes { try player.draw(into: $0, bytesPerRow: 8) }
            if case .late = result { try await Task.sleep(for: .milliseconds(1)) }
        }
        #expect(result.shownFrame == 0)
        // Drawn: the ticks before the next frame are quiet again.
        let drawnTick = group.tickPlayers(at: start.advanced(by: .milliseconds(40)))
        #expect(drawnTick.changed.isEmpty)
        #expect(drawnTick.nextChange == start.advanced(by: .milliseconds(100)))
    }

    @Test("Frames arriving for a player that waits for them end its wait at the host's next tick")
    func arrivalEndsAWaitAtTheNextTick() async throws {
        // One frame of 100 ms so far: from 100 ms on the player waits, with
        // no change scheduled, until a second frame arrives.
        let clock = ManualClock(), start = clock.now
        let source = GrowingFrameSource(delays: [.milliseconds(100)])
        let player = try Player(source: source, startingAt: start)
        let group = GroupDriver(clock: clock)
        await player.play(at: start)
        await group.add(player)
        let waiting = group.tickPlayers(at: start.advanced(by: .milliseconds(120)))
        #expect(waiting.nextChange == nil)
        #expect(group.tickPlayers(at: start.advanced(by: .milliseconds(125))).changed.isEmpty)

        source.append(.milliseconds(100))
        #expect(await eventually(watching: [player]) { player.timeline.frameCount == 2 })
        let arrived = group.tickPlayers(at: start.advanced(by: .milliseconds(130)))
        #expect(arrived.changed == [ObjectIdentifier(player)])
        #expect(player.currentFrame == 1)
        source.finish()
    }

    @Test("A host's tick that moves a player tells the player's change watchers; one that moves nothing does not")
    func hostTickSignalsWatchers() async throws {
        // Frames of 100 ms: at 50 ms nothing is due, at 100 ms frame 1 is.
        let clock = ManualClock(), start = clock.now
        let player = try Player(source: FakeFrameSource.milliseconds(100, 100, loop: 0), startingAt: start)
        let group = GroupDriver(clock: clock)
        await player.play(at: start)
        await group.add(player)
        let signals = Mutex(0)
        let token = await player.addWatcher { signals.withLock { $0 += 1 } }
        defer { Task { await player.removeWatcher(token) } }

        let still = group.tickPlayers(at: start.advanced(by: .milliseconds(50)))
        #expect(still.changed.isEmpty)
        #expect(signals.withLock { $0 } == 0)
        let moved = group.tickPlayers(at: start.advanced(by: .milliseconds(100)))
        #expect(moved.changed == [ObjectIdentifier(player)])
        #expect(signals.withLock { $0 } > 0)
    }

    @Test("A playlist in a group plays as it does under its own PlaylistDriver")
    func playlistMember() async throws {
        @Sendable func bothReady(_ playlist: Playlist<ManualClock.Instant>) async -> Bool {
            let states = (await playlist.loadState(of: "A"), await playlist.loadState(of: "B"))
            return states.0 == .ready && states.1 == .ready
        }
        func items() -> [PlaylistItem] {
            [
                PlaylistItem(key: "A") { FakeFrameSource.milliseconds(100, 100) },
                PlaylistItem(key: "B") { FakeFrameSource.milliseconds(60, 60, 60) },
            ]
        }
        let horizon = Duration.milliseconds(1000)

        let aloneClock = ManualClock()
        let aloneStart = aloneClock.now
        let alone = try Playlist(items: items(), startingAt: aloneStart)
        let aloneEvents = PlaylistRecorder()
        await alone.addObserver { aloneEvents.record($0) }
        let aloneTask = Task { await PlaylistDriver(playlist: alone, clock: aloneClock).run() }
        // Both items loaded first, so that the loads' real-time arrival
        // cannot change what the manual clock sees.
        #expect(await eventually(watching: [alone]) { await bothReady(alone) })
        await alone.play(at: aloneStart)
        await stepThroughDeadlines(aloneClock, from: aloneStart, until: horizon)
        aloneTask.cancel()
        await aloneTask.value

        let clock = ManualClock()
        let start = clock.now
        let playlist = try Playlist(items: items(), startingAt: start)
        let events = PlaylistRecorder()
        await playlist.addObserver { events.record($0) }
        let player = try Player(source: FakeFrameSource.milliseconds(70, 70, loop: 0), startingAt: start)
        let group = GroupDriver(clock: clock)
        await group.add(playlist)
        await group.add(player)
        let task = Task { await group.run() }
        #expect(await eventually(watching: [playlist]) { await bothReady(playlist) })
        await playlist.play(at: start)
        await player.play(at: start)
        await stepThroughDeadlines(clock, from: start, until: horizon)
        task.cancel()
        await task.value

        #expect(events.playback == aloneEvents.playback)
        #expect(events.playback.contains(.itemStarted(key: "B")))
        #expect(await playlist.currentKey == alone.currentKey)
        #expect(await playlist.currentFrame == alone.currentFrame)
        // 1000 ms of 70 ms frames: 14 changes, the last at 980 ms.
        #expect(player.loopsCompleted == 7)
    }
}

/// A progressive source whose frames arrive when the test appends them
/// (pixels: the frame index repeated).
private final class GrowingFrameSource: ProgressiveFrameSource, @unchecked Sendable {
    var canvasSize: PixelSize { PixelSize(width: canvasWidth, height: canvasHeight) }
    private let lock = NSLock()
    private var delays: [Duration]
    private var complete = false
    private var listeners: [AsyncStream<FrameSourceTiming>.Continuation] = []

    init(delays: [Duration]) { self.delays = delays }

    var frameDelays: [Duration] { lock.withLock { delays } }
    var frameCount: Int { frameDelays.count }
    var canvasWidth: Int { 2 }
    var canvasHeight: Int { 1 }
    var storedLoopCount: Int? { nil }
    var isComplete: Bool { lock.withLock { complete } }
    var timing: FrameSourceTiming { lock.withLock { current } }

    func frame(at index: Int) async throws -> RenderedFrame {
        RenderedFrame(index: index, width: 2, height: 1, pixels: Array(repeating: UInt8(truncatingIfNeeded: index), count: 8))
    }

    func timingUpdates() -> AsyncStream<FrameSourceTiming> {
        let (stream, continuation) = AsyncStream.makeStream(of: FrameSourceTiming.self)
        lock.withLock {
            continuation.yield(current)
            if complete { continuation.finish() } else { listeners.append(continuation) }
        }
        return stream
    }

    /// A frame of `delay` arrives.
    func append(_ delay: Duration) {
        lock.withLock {
            delays.append(delay)
            for listener in listeners { listener.yield(current) }
        }
    }

    /// No more frames will come.
    func finish() {
        lock.withLock {
            complete = true
            for listener in listeners {
                listener.yield(current)
                listener.finish()
            }
            listeners.removeAll()
        }
    }

    /// Called with the lock held.
    private var current: FrameSourceTiming {
        FrameSourceTiming(frameDelays: delays, storedLoopCount: nil, isComplete: complete)
    }
}
