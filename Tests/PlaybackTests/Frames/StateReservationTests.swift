import Foundation
@_spi(Benchmarks) import Playback
import Synchronization
import Testing

/// What the growing sources of one test really hold, summed across them,
/// and how far (at worst) that sum with the budget's frames and
/// reservations went past the budget's limit, checked at every step of
/// growth, in the middle of decodes.
final class HeldStateProbe: Sendable {
    let budget: FrameMemoryBudget
    private let held = Atomic<Int>(0)
    private let over = Atomic<Int>(0)

    init(budget: FrameMemoryBudget) { self.budget = budget }

    func add(_ bytes: Int) { held.add(bytes, ordering: .relaxed) }

    /// The most bytes past the limit seen so far (0: never passed).
    var worstOver: Int { over.load(ordering: .relaxed) }

    /// Checks the real total now: the frames and decodes' reservations the
    /// budget holds (it holds them itself, so its count is what is held)
    /// plus the state the sources hold by their own count.
    func check() {
        let statistics = budget.statistics
        let real = statistics.frameBytes + statistics.reservedBytes + held.load(ordering: .relaxed)
        let past = real - statistics.byteBudget
        if past > over.load(ordering: .relaxed) { over.store(past, ordering: .relaxed) }
    }
}

/// A source of `side` × `side` frames whose decodes grow its decoding
/// state in steps, in the middle of the decode (as a GIF's indices grow
/// on its decode thread): each step's bytes asked of its
/// ``StateAllowance`` first when `asks`, held only when granted; held
/// without asking otherwise. The steps come from `seed` and the frame.
final class StateGrowingSource: BudgetedFrameSource, StateReservingSource, @unchecked Sendable {
    let stateAllowance = StateAllowance()
    let side: Int
    let frameCount: Int
    let seed: UInt64
    let asks: Bool
    let probe: HeldStateProbe
    private let lock = NSLock()
    private var state = 0

    init(side: Int, frames: Int, seed: UInt64, asks: Bool, probe: HeldStateProbe) {
        self.side = side
        self.frameCount = frames
        self.seed = seed
        self.asks = asks
        self.probe = probe
    }

    var canvasSize: PixelSize { PixelSize(width: side, height: side) }
    var timing: FrameSourceTiming {
        FrameSourceTiming(frameDelays: Array(repeating: .milliseconds(50), count: frameCount), storedLoopCount: 0)
    }
    var decodingState: DecodingStateBytes { DecodingStateBytes(total: lock.withLock { state }, working: 0) }

    func frame(at index: Int) async throws -> RenderedFrame {
        try await frame(at: index, reusing: [], priority: .now)
    }

    func frame(at index: Int, reusing storage: consuming [UInt8], priority: FrameRequestPriority) async throws
        -> RenderedFrame
    {
        var random = SeededRandom(seed: seed &* 31 &+ UInt64(index) &+ UInt64(lock.withLock { state }))
        for _ in 0..<random.next(upTo: 5) {
            let bytes = 100 + random.next(upTo: 3_000)
            guard !asks || stateAllowance.reserve(bytes) else { continue }
            lock.withLock { state += bytes }
            probe.add(bytes)
            probe.check()
        }
        return RenderedFrame(
            index: index, width: side, height: side,
            pixels: Array(repeating: UInt8(truncatingIfNeeded: index), count: side * side * 4))
    }

    func trimDecodingState(toBytes bytes: Int) {
        let given = lock.withLock { () -> Int in
            let given = max(0, state - max(0, bytes))
            state -= given
            return given
        }
        probe.add(-given)
    }
}

@Suite("Decoding state is counted before it is held")
struct StateReservationTests {
    /// Plays random requests across sources that grow during their
    /// decodes; returns the most bytes held past the limit at any step.
    static func worstOver(seed: UInt64, asks: Bool) async throws -> Int {
        var random = SeededRandom(seed: seed)
        let budget = FrameMemoryBudget(byteBudget: 30_000)
        let probe = HeldStateProbe(budget: budget)
        var caches: [FrameCache] = []
        for number in 0..<4 {
            let source = StateGrowingSource(
                side: 10 + 10 * number, frames: 6, seed: seed &+ UInt64(number), asks: asks, probe: probe)
            // No look-ahead: one decode at a time, so every step is checked
            // with nothing else in flight.
            caches.append(FrameCache(source: source, budget: budget, lookahead: 0))
        }
        for _ in 0..<200 {
            let cache = caches[random.next(upTo: caches.count)]
            _ = try await cache.frame(at: random.next(upTo: cache.source.frameCount))
            probe.check()
        }
        return probe.worstOver
    }

    /// Sources that ask before they grow never take the budget past its
    /// limit, in the middle of a decode or after it (the budget makes room
    /// from frames, or refuses).
    @Test(arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
    func neverPassedWhileSourcesGrow(seed: UInt64) async throws {
        #expect(try await Self.worstOver(seed: seed, asks: true) == 0)
    }

    /// The check above can fail: the same sources growing without asking
    /// (counted only when the cache reads their state after the decode)
    /// pass the limit in the middle of decodes.
    @Test func sourcesThatDoNotAskPassIt() async throws {
        var passed = 0
        for seed in [1, 2, 3, 4, 5, 6] as [UInt64] where try await Self.worstOver(seed: seed, asks: false) > 0 {
            passed += 1
        }
        #expect(passed > 0)
    }
}
