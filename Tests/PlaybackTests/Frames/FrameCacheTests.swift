@_spi(Benchmarks) import Playback
import PlaybackTestSupport
import Testing

@Suite("Frame cache: budget, hits, misses, purge")
struct FrameCacheTests {
    let source = FakeFrameSource.milliseconds(100, 100, 100, 100, 100, 100)

    @Test("A miss decodes, a repeat hits")
    func hitAndMiss() async throws {
        let cache = FrameCache(source: source, byteBudget: 3 * FakeFrameSource.frameBytes)
        let first = try await cache.frame(at: 0)
        #expect(first.pixels == Array(repeating: 0, count: 8))
        #expect(first.byteCount == FakeFrameSource.frameBytes)
        _ = try await cache.frame(at: 0)
        #expect(await cache.statistics == statistics {
            ($0.hits, $0.misses, $0.decodes, $0.bytesHeld, $0.framesHeld, $0.byteBudget) = (1, 1, 1, 8, 1, 24)
        })
        #expect(source.log.decoded == [0])
    }

    @Test("Prefetch decodes ahead within the budget without evicting its own list")
    func prefetchBudget() async throws {
        let cache = FrameCache(source: source, byteBudget: 3 * FakeFrameSource.frameBytes)
        _ = try await cache.frame(at: 0)
        await cache.prefetch([1, 2, 3, 4])
        await cache.waitForPrefetch()
        // 1 and 2 fit, 3 evicts frame 0; for 4 nothing is left to evict, so it
        // is not decoded and the list stops.
        #expect(source.log.decoded == [0, 1, 2, 3])
        #expect(await cache.statistics == statistics {
            ($0.hits, $0.misses, $0.decodes, $0.evictions, $0.bytesHeld, $0.framesHeld, $0.byteBudget) =
                (0, 1, 4, 1, 24, 3, 24)
        })
        #expect(await cache.contains(0) == false)
        #expect(await cache.contains(4) == false)
        _ = try await cache.frame(at: 1)
        _ = try await cache.frame(at: 5)
        // Least recently used: 2 goes, 3, 1 and 5 stay.
        #expect(await cache.contains(2) == false)
        #expect(await cache.contains(3))
        #expect(await cache.contains(1))
        #expect(await cache.statistics.hits == 1)
        #expect(await cache.statistics.misses == 2)
    }

    @Test("Purge frees everything at once; the budget can shrink")
    func purgeAndBudget() async throws {
        let cache = FrameCache(source: source, byteBudget: 100)
        await cache.prefetch([0, 1, 2, 3])
        await cache.waitForPrefetch()
        #expect(await cache.statistics.bytesHeld == 32)
        await cache.setByteBudget(16)
        #expect(await cache.statistics.framesHeld == 2)
        #expect(await cache.contains(3))
        await cache.purge()
        #expect(await cache.statistics.bytesHeld == 0)
        #expect(await cache.statistics.framesHeld == 0)
        #expect(await cache.statistics.decodes == 4)
    }

    @Test("A frame bigger than the budget is returned but not kept; bad indices throw")
    func oversized() async throws {
        let cache = FrameCache(source: source, byteBudget: 4)
        _ = try await cache.frame(at: 2)
        #expect(await cache.statistics.bytesHeld == 0)
        await #expect(throws: PlayerError.frameOutOfRange(6, frameCount: 6)) { try await cache.frame(at: 6) }
    }

    @Test("Requests for a frame being decoded wait for that decode")
    func oneDecodePerFrame() async throws {
        let gate = Gate()
        let source = GatedFrameSource(gate: gate)
        let cache = FrameCache(source: source, byteBudget: 1024)
        async let first = cache.frame(at: 3)
        async let second = cache.frame(at: 3)
        async let third = cache.frame(at: 3)
        // All three have asked (three misses) before the source answers.
        #expect(await eventually(watching: [cache]) { await cache.statistics.misses == 3 })
        await gate.open()
        let frames = try await [first, second, third]
        #expect(frames.map(\.index) == [3, 3, 3])
        #expect(source.log.decoded == [3])
        #expect(await cache.statistics.decodes == 1)
    }

    @Test("The pixels of an evicted frame are handed to the next decode")
    func evictedPixelsAreReused() async throws {
        let source = RecyclingFrameSource()
        let cache = FrameCache(source: source, byteBudget: 2 * FakeFrameSource.frameBytes)
        for index in 0..<4 {
            let frame = try await cache.frame(at: index)
            #expect(frame.pixels == Array(repeating: UInt8(index), count: FakeFrameSource.frameBytes))
        }
        // Frames 0 and 1 fit; 2 evicts 0 and is drawn into its pixels, 3 into 1's.
        #expect(source.storageSizes == [0, 0, 8, 8])
        #expect(await cache.statistics.evictions == 2)
    }

    @Test("A cache that goes away tells its source to drop its decoding state")
    func releaseOnDeinit() async throws {
        let source = RecyclingFrameSource()
        do {
            let cache = FrameCache(source: source, byteBudget: 1024)
            _ = try await cache.frame(at: 1)
            #expect(source.releaseCount == 0)
        }
        #expect(await eventually { source.releaseCount == 1 })
    }

    @Test("The player reads through its cache, prefetching the frames that come next")
    func playerPrefetch() async throws {
        let clock = ManualClock()
        let cache = FrameCache(source: source, byteBudget: 1024, lookahead: 2)
        let player = try Player(source: source, startingAt: clock.now, cache: cache)
        #expect(try await player.currentImage().index == 0)
        await cache.waitForPrefetch()
        #expect(await cache.contains(1))
        #expect(await cache.contains(2))
        await player.play()
        await player.advance(by: .milliseconds(100))
        #expect(try await player.currentImage().index == 1)
        let stats = await cache.statistics
        #expect(stats.misses == 1)
        #expect(stats.hits == 1)
    }
}

/// Statistics with the counters `set` gives, every other zero.
private func statistics(_ set: (inout FrameCacheStatistics) -> Void) -> FrameCacheStatistics {
    var statistics = FrameCacheStatistics()
    set(&statistics)
    return statistics
}
