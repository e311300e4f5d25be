import Foundation
import Playback
import PlaybackTestSupport
import Testing

/// A loader the test completes by hand.
final class LoadGate: @unchecked Sendable {
    private let lock = NSLock()
    private var waiting: CheckedContinuation<any FrameSource, any Error>?
    private var result: Result<any FrameSource, any Error>?

    func load() async throws -> any FrameSource {
        try await withCheckedThrowingContinuation { continuation in
            let ready = lock.withLock { () -> Result<any FrameSource, any Error>? in
                if result == nil { waiting = continuation }
                return result
            }
            if let ready { continuation.resume(with: ready) }
        }
    }

    func open(_ result: Result<any FrameSource, any Error>) {
        let continuation = lock.withLock { () -> CheckedContinuation<any FrameSource, any Error>? in
            self.result = result
            defer { waiting = nil }
            return waiting
        }
        continuation?.resume(with: result)
    }
}

/// Collects playlist events, in order.
final class PlaylistRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var records: [PlaylistEvent] = []
    func record(_ event: PlaylistEvent) { lock.withLock { records.append(event) } }
    var events: [PlaylistEvent] { lock.withLock { records } }
    /// Without the load results, whose timing depends on the loaders' tasks.
    var playback: [PlaylistEvent] {
        events.filter { if case .loadFinished = $0 { false } else { true } }
    }
}

@Suite("Playlist actor: real loader tasks, instants, driver")
struct PlaylistActorTests {
    static let twoFrames = FakeFrameSource.milliseconds(100, 100)

    @Test("Loaders run on the playlist's tasks; failed and slow items are handled on a manual clock")
    func loaders() async throws {
        let clock = ManualClock()
        let start = clock.now
        func at(_ ms: Int) -> ManualClock.Instant { start.advanced(by: .milliseconds(ms)) }
        let gate = LoadGate()
        let items = [
            PlaylistItem(key: "A") { Self.twoFrames },
            PlaylistItem(key: "B") { throw FakeLoadError(key: "B") },
            PlaylistItem(key: "C") { try await gate.load() },
        ]
        let playlist = try Playlist(items: items, startingAt: start)
        let recorder = PlaylistRecorder()
        await playlist.addObserver { recorder.record($0) }
        #expect(await eventually(watching: [playlist]) { await playlist.loadState(of: "C") == .loading })
        #expect(await playlist.loadState(of: "A") == .ready)
        #expect(await playlist.loadState(of: "B") == .failed(FakeLoadError(key: "B")))
        #expect(try await playlist.currentImage()?.pixels == Array(repeating: 0, count: 8))

        #expect(await playlist.play(at: at(0)) == [.itemStarted(key: "A")])
        #expect(await playlist.advance(to: at(250)).suffix(3) == [
            .itemFinished(key: "A"), .itemSkipped(key: "B", reason: .loadFailed(FakeLoadError(key: "B"))),
            .waitingForItem(key: "C"),
        ])
        #expect(await playlist.nextChangeInstant == at(5200))
        gate.open(.success(Self.twoFrames))
        #expect(await eventually(watching: [playlist]) { await playlist.loadState(of: "C") == .ready })
        #expect(await playlist.nextChangeInstant == at(250))  // due: starts at the next instant passed in
        #expect(await playlist.advance(to: at(900)) == [.itemStarted(key: "C")])
        #expect(await playlist.advance(to: at(1000)) == [.player(key: "C", event: .frameChanged(frame: 1))])
        #expect(try await playlist.currentImage()?.pixels == Array(repeating: 1, count: 8))
        #expect(recorder.playback.last == .player(key: "C", event: .frameChanged(frame: 1)))
        #expect(recorder.events.contains(.loadFinished(key: "C", state: .ready)))
    }

    @Test("The driver wakes when an item waited for arrives and starts it at the clock's time")
    func driverWakesOnArrival() async throws {
        let clock = ManualClock()
        let start = clock.now
        func at(_ ms: Int) -> ManualClock.Instant { start.advanced(by: .milliseconds(ms)) }
        let gate = LoadGate()
        let playlist = try Playlist(
            items: [PlaylistItem(key: "A") { try await gate.load() }, PlaylistItem(key: "B") { Self.twoFrames }],
            startingAt: start)
        let recorder = PlaylistRecorder()
        await playlist.addObserver { recorder.record($0) }
        let task = Task { await PlaylistDriver(playlist: playlist, clock: clock).run() }
        await playlist.play(at: start)
        #expect(await clock.waitForSleeper(at: at(5000), limit: Changes.limit))  // the load timeout
        clock.advance(to: at(300))
        gate.open(.success(Self.twoFrames))
        #expect(await clock.waitForSleeper(at: at(400), limit: Changes.limit))   // A started at 300: frame 1 due at 400
        clock.advance(to: at(500))
        #expect(await clock.waitForSleeper(at: at(600), limit: Changes.limit))   // B started at 500: frame 1 due at 600
        #expect(recorder.playback == [
            .waitingForItem(key: "A"), .itemStarted(key: "A"), .player(key: "A", event: .frameChanged(frame: 1)),
            .player(key: "A", event: .loopCompleted(loopsDone: 1)), .player(key: "A", event: .finished),
            .itemFinished(key: "A"), .itemStarted(key: "B"),
        ])
        task.cancel()
        await task.value
    }
}
