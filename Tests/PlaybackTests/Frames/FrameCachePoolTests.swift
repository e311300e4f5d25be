import Playback
import PlaybackTestSupport
import Testing

@Suite("Frame cache pool: players of one source share one cache")
struct FrameCachePoolTests {
    @Test("One cache per key while it is held; the source is opened once")
    func sharingByKey() async throws {
        let pool = FrameCachePool(byteBudget: 1024)
        let opened = DecodeLog()
        let open: @Sendable (Int) -> any FrameSource = { id in
            opened.record(id)
            return FakeFrameSource.milliseconds(100, 100, 100)
        }
        var first: FrameCache? = await pool.cache(for: "cat.gif") { open(1) }
        let second = await pool.cache(for: "cat.gif") { open(2) }
        let other = await pool.cache(for: "dog.gif") { open(3) }
        #expect(first === second)
        #expect(first !== other)
        #expect(opened.decoded == [1, 3])
        #expect(await pool.liveCacheCount == 2)
        first = nil
        // `second` still holds cat.gif's cache.
        #expect(await pool.liveCacheCount == 2)
        _ = second
    }

    @Test("A cache nobody holds is gone; the next request opens the source again")
    func released() async throws {
        let pool = FrameCachePool(byteBudget: 1024)
        let opened = DecodeLog()
        do {
            let cache = await pool.cache(for: "cat.gif") { opened.record(1); return FakeFrameSource.milliseconds(100) }
            _ = try await cache.frame(at: 0)
        }
        #expect(await eventually { await pool.liveCacheCount == 0 })
        _ = await pool.cache(for: "cat.gif") { opened.record(2); return FakeFrameSource.milliseconds(100) }
        #expect(opened.decoded == [1, 2])
    }

    @Test("A failing open leaves the pool unchanged")
    func failingOpen() async throws {
        struct Unreadable: Error {}
        let pool = FrameCachePool()
        await #expect(throws: Unreadable.self) {
            _ = try await pool.cache(for: "broken.gif") { throw Unreadable() }
        }
        #expect(await pool.liveCacheCount == 0)
    }

    @Test("Nine players of one GIF in step decode each frame once")
    func ninePlayersOneDecodeEach() async throws {
        let source = FakeFrameSource.milliseconds(100, 100, 100, 100, 100, 100)
        let pool = FrameCachePool(byteBudget: 1024)
        let clock = ManualClock()
        let epoch = clock.now
        var players: [Player<ManualClock.Instant>] = []
        for _ in 0..<9 {
            let cache = await pool.cache(for: "cat.gif") { source }
            let player = try Player(
                source: cache.source, configuration: .init(loop: .forever), startingAt: epoch, epoch: epoch, cache: cache)
            await player.play(at: epoch)
            players.append(player)
        }
        // One loop and a bit, every player drawing every frame.
        for step in 0...7 {
            for player in players {
                await player.advance(to: epoch.advanced(by: .milliseconds(100 * step)))
                #expect(try await player.currentImage().index == step % 6)
            }
        }
        let cache = players[0].cache
        #expect(players.allSatisfy { $0.cache === cache })
        #expect(source.log.decoded.sorted() == [0, 1, 2, 3, 4, 5])
        let statistics = await cache.statistics
        #expect(statistics.decodes == 6)
        #expect(statistics.bytesHeld == 6 * FakeFrameSource.frameBytes)
    }
}
