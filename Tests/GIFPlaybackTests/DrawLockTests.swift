import Foundation
import GIF
import GIFPlayback
import Playback
import PlaybackTestSupport
import Testing

/// A draw into the host's buffer takes its own drawer's lock and no other:
/// what it changes in the shared memory budget's count is settled away
/// from the drawing thread, so another drawer busy drawing (or stuck)
/// cannot hold it up.
@Suite struct DrawLockTests {
    typealias Instant = ManualClock.Instant

    /// Whether `condition` holds within the test wait limit, checked every
    /// millisecond: what it waits for (a budget's count, a trim on a decode
    /// thread) signals nothing a test could wait on.
    static func within(_ condition: () async -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + Changes.limit
        while ContinuousClock.now < deadline {
            if await condition() { return true }
            try? await Task.sleep(for: .milliseconds(1))
        }
        return await condition()
    }

    /// Draws `frames` in turn into one buffer on the calling thread, each
    /// again while it is late (its indices not decoded yet), and returns
    /// the last draw of each.
    static func draw(_ frames: [Int], with drawer: any FrameDrawer) -> [FrameDraw] {
        var buffer = [UInt8](repeating: 0, count: drawer.width * drawer.height * 4)
        let bytesPerRow = drawer.width * 4
        let deadline = ContinuousClock.now + Changes.limit
        return frames.map { frame in
            while true {
                let result = try? buffer.withUnsafeMutableBytes {
                    try drawer.draw(frame: frame, into: $0, bytesPerRow: bytesPerRow)
                }
                guard let result else { return .failed(frame: frame, shown: nil, reason: "bad buffer") }
                guard case .late = result, ContinuousClock.now < deadline else { return result }
                Thread.sleep(forTimeInterval: 0.001)
            }
        }
    }

    /// Two sources of one GIF under one budget. B has drawn two loops, so
    /// it holds its recorded changes, and its player is not playing: the
    /// first thing the budget takes back. A's indices are stored, and with
    /// them the room for its drawer's canvases is counted (asked before
    /// the drawer holds them). The budget's limit is then what it counts,
    /// and a thread holds B's drawer's lock, blocked. A draws its first
    /// loop on a thread of its own: its canvases were counted before, and
    /// the recorded changes it would add are refused from frames alone, so
    /// the draws return while B's lock is still held and nothing is taken
    /// from B: its recorded changes stay.
    @Test func aDrawReturnsWhileAnotherDrawersLockIsHeld() async throws {
        // Fixtures/README.md: demo.gif is 240 frames of 160 × 120, whose
        // indices fit the default index budget.
        let image = try GIFImage(contentsOf: GIFFrameSourceTests.fixture("demo.gif"))
        let count = image.info.frameCount
        let budget = FrameMemoryBudget(byteBudget: 1 << 30)
        // Each source decodes on a thread of its own: A's settling with the
        // budget may wait there for B's lock without holding up B's decodes.
        let a = GIFFrameSource(image: image, executor: FrameDecodeExecutor(threadCount: 1))
        let b = GIFFrameSource(image: image, executor: FrameDecodeExecutor(threadCount: 1))
        let caches = [a, b].map { FrameCache(source: $0, budget: budget, lookahead: 0) }
        let players = try caches.map { try Player(source: $0.source, startingAt: Instant(offset: .zero), cache: $0) }
        let (drawerA, drawerB) = (players[0].drawer, players[1].drawer)
        let lockB = try #require(drawerB as? any DrawerLockHolding)

        // B's two loops, and frame 0 again: its set of changes is sealed.
        let loops = Array(0..<count) + Array(0..<count) + [0]
        #expect(Self.draw(loops, with: drawerB).allSatisfy { if case .drawn = $0 { true } else { false } })
        #expect(b.drawsFromRecordedChanges, "B recorded no changes")
        weak let recordedB = b.recordedChangesObject
        // Every index of A stored, without a draw of A.
        drawerA.prefetch(Array(0..<count))
        #expect(await Self.within { !drawerA.needsPrefetch && !drawerB.needsPrefetch })
        // The budget counts each source's state as it stands.
        for (cache, source) in zip(caches, [a, b]) {
            #expect(await Self.within { await cache.statistics.decodingStateBytes == source.decodingStateByteCount })
        }
        budget.setByteBudget(budget.bytesHeld)
        #expect(b.drawsFromRecordedChanges, "B's recorded changes went before A drew")

        let holding = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let holder = Thread { lockB.withLockHeld { holding.signal(); release.wait() } }
        holder.start()
        holding.wait()
        let drawn = Outcome<[FrameDraw]>()
        let drawer = Thread {
            drawn.set(Self.draw(Array(0..<count) + [0], with: drawerA))
            Changes.shared.signal()
        }
        drawer.start()
        let returned = await Changes.until { drawn.value != nil }
        release.signal()
        #expect(returned, "A's draws waited for B's lock")
        #expect(await Changes.until { drawn.value != nil })
        let results = drawn.value ?? []
        #expect(results.count == count + 1)
        #expect(results.allSatisfy { if case .drawn = $0 { true } else { false } }, "\(results.prefix(3))")
        // A's canvases were counted before they were held: the budget,
        // told of A's draws, had nothing to take from B.
        for (cache, source) in zip(caches, [a, b]) {
            #expect(await Self.within { await cache.statistics.decodingStateBytes == source.decodingStateByteCount })
        }
        #expect(budget.bytesHeld <= budget.byteBudget)
        #expect(recordedB != nil && b.drawsFromRecordedChanges)
    }
}

/// A value a thread sets once and a test reads.
final class Outcome<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    /// Read and written with `lock` held.
    private var stored: Value?

    /// The value, once set.
    var value: Value? { lock.withLock { stored } }

    /// Sets the value.
    func set(_ value: Value) { lock.withLock { stored = value } }
}
