import Foundation
import Playback
import PlaybackTestSupport
import Testing

/// Counts loaders started, loaders that saw their task cancelled, and
/// loaders that returned.
final class LoaderCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var counts = (started: 0, cancelled: 0, returned: 0)

    var started: Int { lock.withLock { counts.started } }
    var cancelled: Int { lock.withLock { counts.cancelled } }
    var returned: Int { lock.withLock { counts.returned } }

    /// A loader that waits until its task is cancelled, then throws
    /// `CancellationError`, as a well-behaved network load would.
    func cancellableLoad() async throws -> any FrameSource {
        count { $0.started += 1 }
        defer { count { $0.returned += 1 } }
        while !Task.isCancelled {
            try? await Task.sleep(for: .seconds(3600))
        }
        count { $0.cancelled += 1 }
        throw CancellationError()
    }

    private func count(_ change: (inout (started: Int, cancelled: Int, returned: Int)) -> Void) {
        lock.withLock { change(&counts) }
        Changes.shared.signal()
    }
}

/// bookkeeping stays bounded however the host churns.
@Suite("Bookkeeping: loads of removed items are cancelled; the pool stays O(1) per key")
struct BookkeepingTests {
    @Test("20,000 replaces leave only the wanted loads running; every other loader sees its cancellation")
    func replacesCancelLoads() async throws {
        let counter = LoaderCounter()
        func items(_ round: Int) -> [PlaylistItem] {
            // Two fresh keys each round: the current item and the one preloaded.
            (0..<2).map { i in PlaylistItem(key: "\(round)-\(i)") { try await counter.cancellableLoad() } }
        }
        let clock = ManualClock()
        let playlist = try Playlist(items: items(0), startingAt: clock.now)
        let rounds = 20_000
        for round in 1...rounds {
            await playlist.replace(items: items(round))
        }
        // The last list's two loads are wanted; all 40,000 before were cancelled.
        #expect(await playlist.runningLoadCount == 2)
        #expect(await playlist.cancelledLoadCount == 2 * rounds)
        #expect(await eventually { counter.started == 2 * rounds + 2 })
        #expect(await eventually { counter.cancelled == 2 * rounds })
        #expect(await eventually(watching: [playlist]) { await playlist.abandonedLoadCount == 0 })
        #expect(counter.returned == 2 * rounds)
        #expect(await playlist.loadState(of: "\(rounds)-0") == .loading)
    }

    @Test("A loader that ignores cancellation is abandoned and counted, not awaited; its late result is dropped")
    func loaderIgnoringCancellation() async throws {
        let gate = LoadGate()  // waits for `open`, cancelled or not
        let clock = ManualClock()
        let playlist = try Playlist(items: [PlaylistItem(key: "stubborn") { try await gate.load() }], startingAt: clock.now)
        #expect(await eventually(watching: [playlist]) { await playlist.runningLoadCount == 1 })
        await playlist.replace(items: [PlaylistItem(key: "next") { FakeFrameSource.milliseconds(100) }])
        #expect(await playlist.cancelledLoadCount == 1)
        #expect(await playlist.abandonedLoadCount == 1)
        // The playlist goes on without it.
        #expect(await eventually(watching: [playlist]) { await playlist.loadState(of: "next") == .ready })
        #expect(await playlist.currentKey == "next")
        gate.open(.success(FakeFrameSource.milliseconds(100, 100)))
        #expect(await eventually(watching: [playlist]) { await playlist.abandonedLoadCount == 0 })
        #expect(await playlist.loadState(of: "stubborn") == nil)
        #expect(await playlist.runningLoadCount == 0)
    }

    @Test("Items kept across a replace keep their loads")
    func keptItemsKeepLoads() async throws {
        let counter = LoaderCounter()
        let clock = ManualClock()
        let a = PlaylistItem(key: "A") { try await counter.cancellableLoad() }
        let b = PlaylistItem(key: "B") { try await counter.cancellableLoad() }
        let playlist = try Playlist(items: [a, b], startingAt: clock.now)
        #expect(await eventually { counter.started == 2 })
        // A relay: the new list is a subset holding the current item.
        await playlist.replace(items: [a])
        #expect(await playlist.runningLoadCount == 1)
        #expect(await playlist.cancelledLoadCount == 1)
        #expect(await eventually { counter.cancelled == 1 })
        #expect(await playlist.loadState(of: "A") == .loading)
    }

    @Test("The pool makes 100,000 keys' caches visiting at most two entries per cache made")
    func poolWithManyKeys() async throws {
        let pool = FrameCachePool(byteBudget: 64)
        let keys = 100_000
        var held: [FrameCache] = []
        held.reserveCapacity(keys / 10)
        for key in 0..<keys {
            let cache = await pool.cache(for: key) { FakeFrameSource.milliseconds(100) }
            if key % 10 == 0 { held.append(cache) }
        }
        // One cache in ten is still held.
        #expect(await pool.liveCacheCount == keys / 10)
        // Sweeps of dead entries visited at most 2 per cache made: O(1)
        // amortised, where one sweep per request visited up to n entries.
        let swept = await pool.entriesSwept
        #expect(swept <= 2 * keys)
        #expect(swept > 0)
        // Dead entries never pile up past twice what the last sweep kept.
        #expect(await pool.entryCount < max(64, 2 * (keys / 10 + 64)))
        // A held key still gets its cache back, without a new source.
        let again = await pool.cache(for: 50_000) { Issue.record("opened again"); return FakeFrameSource.milliseconds(1) }
        #expect(again === held[5_000])
    }
}
