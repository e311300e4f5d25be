import Foundation
@_spi(Benchmarks) import GIF
@_spi(Benchmarks) import GIFPlayback
@_spi(Benchmarks) import Playback
import PlaybackTestSupport
import Testing

/// Events with the manual clock's time when each was delivered.
final class TimedEvents<Event: Sendable>: Sendable {
    private let lock = NSLock()
    nonisolated(unsafe) private var records: [(Event, Duration)] = []
    func record(_ event: Event, at time: Duration) {
        lock.withLock { records.append((event, time)) }
        Changes.shared.signal()
    }
    var all: [(Event, Duration)] { lock.withLock { records } }
}

/// A player on the public ManualClock, driven by a PlaybackDriver, playing
/// demo.gif while its bytes arrive on a schedule.
///
/// Fixtures/README.md: demo.gif's frame 0 shows for 20 cs, frames 1–39 for
/// 4 cs each (kept by the browser delay rule). So with all bytes in, frame
/// 1 starts at 200 ms, frame 2 at 240, frame 3 at 280, frame 4 at 320.
/// Bytes are cut at frames' last data bytes (`FrameInfo.dataEnd`).
@Suite("Progressive playback on a manual clock")
struct ProgressivePlaybackTests {
    struct Run {
        let bytes: [UInt8]
        let whole: GIFImage
        let source = ProgressiveGIFFrameSource()
        let clock = ManualClock()
        let events = TimedEvents<PlayerEvent>()

        init() throws {
            bytes = try fixtureBytes("demo.gif")
            whole = try GIFImage(bytes: bytes)
        }

        func at(_ milliseconds: Int) -> ManualClock.Instant { .init(offset: .milliseconds(milliseconds)) }

        /// Appends the bytes up to the end of frame `frame`'s data.
        func feed(through frame: Int, from start: Int) throws -> Int {
            let end = whole.info.frames[frame].dataEnd
            try source.append(bytes[start..<end])
            return end
        }

        func count(_ event: PlayerEvent) -> Int { events.all.filter { $0.0 == event }.count }

        /// A playlist of one item, "demo", whose loader hands the source
        /// back as soon as frame 0 is in, and its events with their times.
        func playlist(loops: Int?) async throws -> (Playlist<ManualClock.Instant>, TimedEvents<PlaylistEvent>) {
            let item = PlaylistItem(key: "demo", loops: loops) { [source] in
                try await source.waitUntilPlayable()
                return source
            }
            let playlist = try Playlist(items: [item], startingAt: clock.now)
            let events = TimedEvents<PlaylistEvent>()
            await playlist.addObserver { [clock] in events.record($0, at: clock.now.offset) }
            return (playlist, events)
        }

        var waitsEnded: Int {
            events.all.filter { if case .waitEnded = $0.0 { true } else { false } }.count
        }
    }

    /// Plays the first frames with frames 0–1 in hand, then 2–3 arriving at
    /// 300 ms and the rest at 1,000 ms; returns the events with their times.
    func play(_ policy: WaitPolicy, _ run: Run) async throws -> [(PlayerEvent, Duration)] {
        var fed = try run.feed(through: 1, from: 0)
        let player = try Player(
            source: run.source, configuration: PlayerConfiguration(waiting: policy), startingAt: run.clock.now)
        let clock = run.clock
        await player.addObserver { [events = run.events] in events.record($0, at: clock.now.offset) }
        let driving = Task { await PlaybackDriver(player: player, clock: clock).run() }
        await player.play(at: clock.now)
        #expect(await clock.waitForSleeper(at: run.at(200), limit: Changes.limit))
        clock.advance(to: run.at(200))
        #expect(await clock.waitForSleeper(at: run.at(240), limit: Changes.limit))
        clock.advance(to: run.at(240))
        // Frame 2 has not arrived: the driver rests, the player waits.
        #expect(await eventually { run.count(.waitingForFrame(frame: 2)) == 1 })
        #expect(await clock.waitForSleepers(limit: Changes.limit) { $0.isEmpty })
        #expect(player.isWaiting)
        #expect(player.currentFrame == 1)
        clock.advance(to: run.at(300))
        fed = try run.feed(through: 3, from: fed)
        // The arrival wakes the driver: the player goes on at 300 ms.
        #expect(await eventually(watching: [player]) { !player.isWaiting })
        let shown = player.currentFrame
        #expect(try await player.currentImage().pixels == (try run.whole.frame(at: shown).pixels))
        // On to the end of frame 3, deadline by deadline.
        while run.count(.waitingForFrame(frame: 4)) == 0 {
            let next = try #require(player.nextChangeInstant)
            #expect(await clock.waitForSleeper(at: next, limit: Changes.limit))
            clock.advance(to: next)
            #expect(await eventually(watching: [player]) { player.nextChangeInstant != next })
        }
        clock.advance(to: run.at(1000))
        try run.source.append(run.bytes[fed...])
        #expect(await eventually { run.waitsEnded == 2 })
        #expect(player.timeline.isComplete)
        #expect(player.timeline.plays == nil)  // demo.gif loops forever
        driving.cancel()
        await driving.value
        return run.events.all
    }

    @Test("Resume from arrival: each late frame is shown in full from the instant it arrives")
    func resumeFromArrival() async throws {
        let events = try await play(.resumeFromArrival, Run())
        let expected: [(PlayerEvent, Duration)] = [
            (.frameChanged(frame: 1), .milliseconds(200)),
            (.waitingForFrame(frame: 2), .milliseconds(240)),
            (.waitEnded(waited: .milliseconds(60)), .milliseconds(300)),
            (.frameChanged(frame: 2), .milliseconds(300)),
            (.frameChanged(frame: 3), .milliseconds(340)),
            (.waitingForFrame(frame: 4), .milliseconds(380)),
            (.waitEnded(waited: .milliseconds(620)), .milliseconds(1000)),
            (.frameChanged(frame: 4), .milliseconds(1000)),
        ]
        #expect(events.map(\.0) == expected.map(\.0))
        #expect(events.map(\.1) == expected.map(\.1))
    }

    @Test("Keep the schedule: a late arrival skips to the frame the clock says")
    func keepSchedule() async throws {
        let events = try await play(.keepSchedule, Run())
        // Frame k ≥ 1 is scheduled at 200 + (k − 1) × 40 ms. At 300 ms the
        // schedule is in frame 3 (280–320); frame 4 is due at 320 and
        // arrives at 1,000, when frame 21 starts.
        let expected: [(PlayerEvent, Duration)] = [
            (.frameChanged(frame: 1), .milliseconds(200)),
            (.waitingForFrame(frame: 2), .milliseconds(240)),
            (.waitEnded(waited: .milliseconds(60)), .milliseconds(300)),
            (.frameChanged(frame: 3), .milliseconds(300)),
            (.waitingForFrame(frame: 4), .milliseconds(320)),
            (.waitEnded(waited: .milliseconds(680)), .milliseconds(1000)),
            (.frameChanged(frame: 21), .milliseconds(1000)),
        ]
        #expect(events.map(\.0) == expected.map(\.0))
        #expect(events.map(\.1) == expected.map(\.1))
    }

    @Test("A playlist item starts playing before its loader has all the bytes, and waits for the rest")
    func playlistStartsBeforeLoadFinished() async throws {
        let run = try Run()
        let fed = try run.feed(through: 1, from: 0)
        let clock = run.clock
        let (playlist, events) = try await run.playlist(loops: nil)
        await playlist.play(at: clock.now)
        #expect(await eventually(watching: [playlist]) { await playlist.loadState(of: "demo") == .ready })
        #expect(!run.source.isComplete)
        await playlist.advance(to: clock.now)
        clock.advance(to: run.at(240))
        await playlist.advance(to: clock.now)
        #expect(await playlist.currentFrame == 1)
        clock.advance(to: run.at(300))
        try run.source.append(run.bytes[fed...])
        #expect(await eventually(watching: [playlist]) { await playlist.currentPlayhead?.timeline.isComplete == true })
        await playlist.advance(to: clock.now)
        #expect(await playlist.currentFrame == 2)
        let expected: [(PlaylistEvent, Duration)] = [
            (.waitingForItem(key: "demo"), .zero),
            (.loadFinished(key: "demo", state: .ready), .zero),
            (.itemStarted(key: "demo"), .zero),
            (.player(key: "demo", event: .frameChanged(frame: 1)), .milliseconds(240)),
            (.player(key: "demo", event: .waitingForFrame(frame: 2)), .milliseconds(240)),
            (.player(key: "demo", event: .waitEnded(waited: .milliseconds(60))), .milliseconds(300)),
            (.player(key: "demo", event: .frameChanged(frame: 2)), .milliseconds(300)),
        ]
        #expect(events.all.map(\.0) == expected.map(\.0))
        #expect(events.all.map(\.1) == expected.map(\.1))
    }

    @Test("A playlist that waited for its last frame finishes when the rest arrives, and wraps",
          .timeLimit(.minutes(1)))
    func playlistFinishesAfterWaitingForTheLastFrame() async throws {
        let run = try Run()
        let last = run.whole.info.frames.count - 1
        let fed = try run.feed(through: last - 1, from: 0)
        let clock = run.clock
        let (playlist, events) = try await run.playlist(loops: 1)
        let driving = Task { await PlaylistDriver(playlist: playlist, clock: clock).run() }
        await playlist.play(at: clock.now)
        let waiting = PlaylistEvent.player(key: "demo", event: .waitingForFrame(frame: last))
        func saw(_ event: PlaylistEvent) -> Bool { events.all.contains { $0.0 == event } }
        /// Moves the clock to the driver's next deadline, once it sleeps
        /// toward one; `false` when it rests with none.
        func step() async -> Bool {
            guard await clock.waitForSleepers(limit: .milliseconds(500), until: { !$0.isEmpty }),
                  let next = clock.pendingDeadlines.first else { return false }
            clock.advance(to: next)
            return await clock.waitForSleepers(limit: Changes.limit) { ($0.first ?? next.advanced(by: .seconds(1))) > next }
        }
        // Deadline by deadline to the wait for the last frame (each of the
        // 40 frames is one deadline).
        for _ in 0..<(2 * last) where !saw(waiting) { _ = await step() }
        #expect(saw(waiting))
        clock.advance(by: .seconds(1))
        try run.source.append(run.bytes[fed...])
        try run.source.finish()
        // The last frame shows for its delay; then the one loop is done.
        for _ in 0..<4 where !saw(.playlistWrapped(lapsDone: 1)) { _ = await step() }
        #expect(saw(.playlistWrapped(lapsDone: 1)), "events: \(events.all.suffix(4).map(\.0))")
        driving.cancel()
        await driving.value
    }
}
