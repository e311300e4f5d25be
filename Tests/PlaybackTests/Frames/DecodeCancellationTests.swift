import Foundation
@_spi(Benchmarks) import Playback
import PlaybackTestSupport
import Testing

/// decode work nobody wants any more is cancelled.
@Suite("Decode cancellation")
struct DecodeCancellationTests {
    /// A source whose decodes wait for a gate, recording each request and
    /// whether its task had been cancelled by the time the gate opened.
    final class GatedCountingSource: BudgetedFrameSource, @unchecked Sendable {
        var canvasSize: PixelSize { PixelSize(width: canvasWidth, height: canvasHeight) }
        var timing: FrameSourceTiming { FrameSourceTiming(frameDelays: frameDelays, storedLoopCount: storedLoopCount) }
        func trimDecodingState(toBytes bytes: Int) { if bytes <= 0 || decodingStateByteCount > bytes { releaseDecodingState() } }
        let gate = Gate()
        private let lock = NSLock()
        private var startedIndices: [Int] = []
        private var finished: [(index: Int, cancelled: Bool)] = []
        private var releases = 0
        var frameCount: Int { 6 }
        var canvasWidth: Int { 2 }
        var canvasHeight: Int { 1 }
        var frameDelays: [Duration] { Array(repeating: .milliseconds(100), count: 6) }
        var storedLoopCount: Int? { 0 }

        var started: [Int] { lock.withLock { startedIndices } }
        var ended: [(index: Int, cancelled: Bool)] { lock.withLock { finished } }
        var releaseCount: Int { lock.withLock { releases } }

        func releaseDecodingState() {
            lock.withLock { releases += 1 }
            Changes.shared.signal()
        }

        func frame(at index: Int) async throws -> RenderedFrame {
            lock.withLock { startedIndices.append(index) }
            Changes.shared.signal()
            await gate.wait()
            let cancelled = Task.isCancelled
            lock.withLock { finished.append((index, cancelled)) }
            Changes.shared.signal()
            if cancelled { throw CancellationError() }
            return RenderedFrame(index: index, width: 2, height: 1, pixels: Array(repeating: UInt8(index), count: 8))
        }
    }

    @Test("Decode work for a player that went away is cancelled, and nothing after it is asked for")
    func playerGoneAway() async throws {
        let source = GatedCountingSource()
        let clock = ManualClock()
        var player: Player<ManualClock.Instant>? = try Player(source: source, startingAt: clock.now)
        await player?.cache.prefetch([1, 2, 3, 4])
        #expect(await eventually { source.started == [1] })
        player = nil
        // The cache went with the player, while its look-ahead decode waited.
        #expect(await eventually { source.releaseCount == 1 })
        await source.gate.open()
        #expect(await eventually { source.ended.count == 1 })
        #expect(source.ended.first?.cancelled == true)
        try await Task.sleep(for: .milliseconds(50))
        #expect(source.started == [1])
    }

    @Test("A look-ahead decode of a frame no longer wanted is cancelled; the new list is decoded")
    func listReplaced() async throws {
        let source = GatedCountingSource()
        let cache = FrameCache(source: source, byteBudget: 1 << 20)
        await cache.prefetch([1, 2])
        #expect(await eventually { source.started == [1] })
        await cache.prefetch([3, 4])
        await source.gate.open()
        await cache.waitForPrefetch()
        #expect(source.started == [1, 3, 4])
        #expect(source.ended.first { $0.index == 1 }?.cancelled == true)
        let held = [await cache.contains(1), await cache.contains(2), await cache.contains(3), await cache.contains(4)]
        #expect(held == [false, false, true, true])
        let statistics = await cache.statistics
        #expect(statistics.failures == 0)
        #expect(statistics.decodes == 2)
    }

    @Test("A miss asks the source with priority now, the look-ahead with prefetch")
    func priorities() async throws {
        final class PriorityLog: BudgetedFrameSource, @unchecked Sendable {
            var canvasSize: PixelSize { PixelSize(width: canvasWidth, height: canvasHeight) }
            var timing: FrameSourceTiming { FrameSourceTiming(frameDelays: frameDelays, storedLoopCount: storedLoopCount) }
            private let lock = NSLock()
            private var log: [(Int, FrameRequestPriority)] = []
            var requests: [(Int, FrameRequestPriority)] { lock.withLock { log } }
            var frameCount: Int { 6 }
            var canvasWidth: Int { 2 }
            var canvasHeight: Int { 1 }
            var frameDelays: [Duration] { Array(repeating: .milliseconds(100), count: 6) }
            var storedLoopCount: Int? { 0 }
            func frame(at index: Int) async throws -> RenderedFrame {
                try await frame(at: index, reusing: [], priority: .background)
            }
            func frame(
                at index: Int, reusing storage: consuming [UInt8], priority: FrameRequestPriority
            ) async throws -> RenderedFrame {
                lock.withLock { log.append((index, priority)) }
                return RenderedFrame(index: index, width: 2, height: 1, pixels: Array(repeating: 0, count: 8))
            }
        }
        let source = PriorityLog()
        let cache = FrameCache(source: source, byteBudget: 1 << 20)
        _ = try await cache.frame(at: 0)
        await cache.prefetch([1])
        await cache.waitForPrefetch()
        #expect(source.requests.map(\.0) == [0, 1])
        #expect(source.requests.map(\.1) == [.now, .prefetch])
    }
}
