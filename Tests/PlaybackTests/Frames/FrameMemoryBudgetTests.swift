import Foundation
@_spi(Benchmarks) import Playback
import Testing

/// A source of `side` × `side` frames (pixels: the frame index) that keeps
/// `stateStep` bytes of pretend decoding state per decode, up to `stateCap`,
/// and gives it back when asked.
final class StatefulFrameSource: BudgetedFrameSource, @unchecked Sendable {
    var canvasSize: PixelSize { PixelSize(width: canvasWidth, height: canvasHeight) }
    var timing: FrameSourceTiming { FrameSourceTiming(frameDelays: frameDelays, storedLoopCount: storedLoopCount) }
    var decodingState: DecodingStateBytes { DecodingStateBytes(total: decodingStateByteCount, working: workingStateByteCount) }
    func frame(at index: Int, reusing storage: consuming [UInt8], priority: FrameRequestPriority) async throws -> RenderedFrame {
        try await frame(at: index, reusing: storage)
    }
    let side: Int
    let frameCount: Int
    let stateStep: Int
    let stateCap: Int
    private let lock = NSLock()
    private var state = 0
    private var trims = 0
    private var reused = 0
    /// Called from every method a budget calls, as a host's source might
    /// read the budget there.
    let callBack: (@Sendable () -> Void)?

    init(side: Int, frames: Int, stateStep: Int = 0, stateCap: Int = 0, callBack: (@Sendable () -> Void)? = nil) {
        self.side = side
        self.frameCount = frames
        self.stateStep = stateStep
        self.stateCap = stateCap
        self.callBack = callBack
    }

    var canvasWidth: Int { callBack?(); return side }
    var canvasHeight: Int { side }
    var frameDelays: [Duration] { Array(repeating: .milliseconds(50), count: frameCount) }
    var storedLoopCount: Int? { 0 }
    var frameBytes: Int { side * side * 4 }
    var trimCount: Int { lock.withLock { trims } }
    /// The decodes handed a whole frame's storage to draw into.
    var reusedStorage: Int { lock.withLock { reused } }

    func frame(at index: Int) async throws -> RenderedFrame {
        try await frame(at: index, reusing: [])
    }

    /// Draws into `storage` when it is a whole frame (counted in
    /// ``reusedStorage``).
    func frame(at index: Int, reusing storage: consuming [UInt8]) async throws -> RenderedFrame {
        var pixels = storage
        lock.withLock {
            state = min(stateCap, state + stateStep)
            if pixels.count == frameBytes { reused += 1 }
        }
        if pixels.count == frameBytes {
            for i in pixels.indices { pixels[i] = UInt8(truncatingIfNeeded: index) }
        } else {
            pixels = Array(repeating: UInt8(truncatingIfNeeded: index), count: frameBytes)
        }
        return RenderedFrame(index: index, width: side, height: side, pixels: pixels)
    }

    var decodingStateByteCount: Int { callBack?(); return lock.withLock { state } }
    var workingStateByteCount: Int { callBack?(); return 0 }
    func releaseDecodingState() { lock.withLock { state = 0 } }
    func trimDecodingState(toBytes bytes: Int) {
        callBack?()
        lock.withLock {
            if state > bytes { state = 0; trims += 1 }
        }
    }
}

@Suite("One memory budget across caches") struct FrameMemoryBudgetTests {
    /// What the statistics say, checked against the budget's limit and
    /// against the sum of the per-cache figures (computed here).
    static func checkWithinBudget(_ budget: FrameMemoryBudget, _ step: String) {
        let statistics = budget.statistics
        #expect(statistics.bytesHeld <= statistics.byteBudget, "\(step)")
        let frames = statistics.caches.reduce(0) { $0 + $1.bytesHeld }
        let state = statistics.caches.reduce(0) { $0 + $1.decodingStateBytes }
        #expect(frames == statistics.frameBytes, "\(step)")
        #expect(state == statistics.decodingStateBytes, "\(step)")
        #expect(frames + state + statistics.reservedBytes == statistics.bytesHeld, "\(step)")
        #expect(frames + state + statistics.reservedBytes <= budget.byteBudget, "\(step)")
    }

    /// A cache the randomised test was handed, with the fake source under
    /// it, both held weakly: what is gone no longer counts.
    struct Tracked {
        weak var cache: FrameCache?
        weak var source: StatefulFrameSource?
    }

    /// The bytes really held, counted without the budget's ledger: every
    /// frame each live cache holds (asked frame by frame, at the size its
    /// source hands out) plus the pretend decoding state each live fake
    /// source reports itself. Look-ahead decodes are waited for first, so
    /// each source's state has been reported to the budget.
    static func checkHeldBytes(_ tracked: [Tracked], within limit: Int, _ step: String) async {
        // First every look-ahead, since one cache's decode can evict
        // another's frames; then the count, with nothing in flight.
        for entry in tracked { await entry.cache?.waitForPrefetch() }
        var bytes = 0
        for entry in tracked {
            guard let cache = entry.cache else { continue }
            let frameBytes = cache.source.canvasWidth * cache.source.canvasHeight * 4
            for index in 0..<cache.source.frameCount where await cache.contains(index) { bytes += frameBytes }
            bytes += entry.source?.decodingStateByteCount ?? 0
        }
        #expect(bytes <= limit, "\(step): \(bytes) bytes really held")
    }

    /// Players of sources of several sizes come and go, play, pause, draw
    /// and seek in a random order (seeded, so a failure repeats), with
    /// memory warnings in between: after every step the bytes counted stay
    /// within the budget, and a trim leaves at most what it asked.
    @Test(arguments: [1, 2, 3, 4])
    func neverExceededAcrossRandomPlayers(seed: UInt64) async throws {
        var random = SeededRandom(seed: seed)
        let budget = FrameMemoryBudget(byteBudget: 40_000)
        let pool = FrameCachePool(budget: budget, lookahead: 3)
        let clock = ManualClock()
        var players: [Player<ManualClock.Instant>] = []
        var tracked: [Tracked] = []
        for step in 0..<300 {
            switch random.next(upTo: 8) {
            case 0, 1:
                let key = random.next(upTo: 6)
                let side = [8, 16, 24, 40, 50, 90][key]   // 90 × 90 × 4 is over the whole budget
                let size: DisplaySize? = random.next(upTo: 3) == 0 ? DisplaySize(maxWidth: 12, maxHeight: 12) : nil
                let made = StatefulFrameSource(side: side, frames: 5 + key, stateStep: 500, stateCap: 3_000)
                let cache = await pool.cache(for: key, displaySize: size) { made }
                if !tracked.contains(where: { $0.cache === cache }) { tracked.append(Tracked(cache: cache, source: made)) }
                let player = try Player(source: cache.source, startingAt: clock.now, cache: cache)
                if random.next(upTo: 2) == 0 { await player.play() }
                players.append(player)
            case 2 where !players.isEmpty:
                // Its cache may go with it: let its decode end first, so no
                // decode of a cache nobody holds runs into the next trim.
                let gone = players.remove(at: random.next(upTo: players.count))
                await gone.cache.waitForPrefetch()
            case 3 where !players.isEmpty:
                let player = players[random.next(upTo: players.count)]
                if player.state == .playing { await player.pause() } else { await player.play() }
            case 4:
                let limit = random.next(upTo: 20_000)
                for player in players { await player.cache.waitForPrefetch() }
                budget.trim(to: limit)
                #expect(budget.bytesHeld <= limit, "trim at step \(step)")
                await Self.checkHeldBytes(tracked, within: limit, "trim at step \(step)")
            case 5 where !players.isEmpty:
                let player = players[random.next(upTo: players.count)]
                _ = try await player.seek(toFrame: random.next(upTo: player.source.frameCount))
            default:
                clock.advance(by: .milliseconds(random.next(upTo: 120)))
                for player in players {
                    await player.advance(to: clock.now)
                    _ = try await player.currentImage()
                }
            }
            Self.checkWithinBudget(budget, "step \(step)")
            await Self.checkHeldBytes(tracked, within: budget.byteBudget, "step \(step)")
        }
        players.removeAll()
        Self.checkWithinBudget(budget, "end")
    }

    /// Frames of a cache nobody plays go before a playing cache's, and
    /// each cache's frame 0 goes last.
    @Test func pausedFramesGoFirstAndFrameZeroLast() async throws {
        let frameBytes = 16 * 16 * 4
        let budget = FrameMemoryBudget(byteBudget: 6 * frameBytes)
        let idle = FrameCache(source: StatefulFrameSource(side: 16, frames: 8), budget: budget, lookahead: 0)
        let playing = FrameCache(source: StatefulFrameSource(side: 16, frames: 8), budget: budget, lookahead: 0)
        playing.beginPlaying()
        for index in 0..<3 { _ = try await idle.frame(at: index) }
        for index in 0..<3 { _ = try await playing.frame(at: index) }
        // Full: the next frames of the playing cache take the idle one's,
        // frame 0 of the idle cache last.
        _ = try await playing.frame(at: 3)
        _ = try await playing.frame(at: 4)
        let idleHolds = [await idle.contains(0), await idle.contains(1), await idle.contains(2)]
        #expect(idleHolds == [true, false, false])
        #expect(await idle.statistics.evictions == 2)
        // Then the playing cache's own least recently shown frame, not 0.
        _ = try await playing.frame(at: 5)
        let playingHolds = [await playing.contains(0), await playing.contains(1)]
        #expect(playingHolds == [true, false])
        // Once only frames 0 are left besides the newest, the idle one goes.
        playing.endPlaying()
        budget.trim(to: 2 * frameBytes)
        let zeros = [await idle.contains(0), await playing.contains(0)]
        #expect(zeros == [true, true])
        #expect(budget.statistics.framesHeld == 2)
        budget.trim(to: frameBytes)
        // Both frames 0 are now of caches not playing: the one shown less
        // recently goes.
        let zerosAfter = [await idle.contains(0), await playing.contains(0)]
        #expect(zerosAfter == [false, true])
        #expect(budget.bytesHeld <= frameBytes)
    }

    /// Two playing GIFs whose frames do not all fit share the budget fairly
    /// (half each here: neither needs less), as the budget's description
    /// says: once at its share, a cache makes room from its own frames,
    /// least recently shown first, and draws into their pixels; the other
    /// cache's frames stay. A cache over its share (it played alone before)
    /// gives its frames to one under its share first.
    @Test func playingCachesKeepTheirFairShare() async throws {
        let frameBytes = 16 * 16 * 4
        let budget = FrameMemoryBudget(byteBudget: 8 * frameBytes)
        let first = StatefulFrameSource(side: 16, frames: 12)
        let a = FrameCache(source: first, budget: budget, lookahead: 0)
        let b = FrameCache(source: StatefulFrameSource(side: 16, frames: 12), budget: budget, lookahead: 0)
        func holds(_ cache: FrameCache, _ indices: Range<Int>) async -> [Int] {
            var held: [Int] = []
            for index in indices where await cache.contains(index) { held.append(index) }
            return held
        }
        // b plays alone and fills the whole budget: its share, as the only
        // playing cache.
        b.beginPlaying()
        for index in 0..<8 { _ = try await b.frame(at: index) }
        #expect(await b.statistics.framesHeld == 8)
        // a starts: its share is 4 frames, so its first 4 come from b (over
        // its share), least recently shown first with frame 0 last.
        a.beginPlaying()
        for index in 0..<4 { _ = try await a.frame(at: index) }
        #expect(await holds(b, 0..<12) == [0, 5, 6, 7])
        #expect(await holds(a, 0..<12) == [0, 1, 2, 3])
        // Both at their share: a's next frames evict a's own (1, 2, 3 and
        // then 4), drawn into the pixels of the frame evicted; b keeps all.
        for index in 4..<8 { _ = try await a.frame(at: index) }
        #expect(await holds(b, 0..<12) == [0, 5, 6, 7])
        #expect(await holds(a, 0..<12) == [0, 5, 6, 7])
        // Each of a's 8 decodes drew into an evicted frame's pixels.
        #expect(first.reusedStorage == 8)
        // b at its share likewise leaves a's frames alone.
        for index in 8..<12 { _ = try await b.frame(at: index) }
        #expect(await holds(a, 0..<12) == [0, 5, 6, 7])
        #expect(await holds(b, 0..<12) == [0, 9, 10, 11])
        Self.checkWithinBudget(budget, "end")
    }

    /// Decoding state counts: a source not playing gives its state back
    /// before any frame goes.
    @Test func idleDecodingStateGoesBeforeFrames() async throws {
        let frameBytes = 16 * 16 * 4
        let budget = FrameMemoryBudget(byteBudget: 4 * frameBytes)
        let stateful = StatefulFrameSource(side: 16, frames: 4, stateStep: frameBytes, stateCap: frameBytes)
        let idle = FrameCache(source: stateful, budget: budget, lookahead: 0)
        _ = try await idle.frame(at: 1)
        #expect(budget.statistics.decodingStateBytes == frameBytes)
        let playing = FrameCache(source: StatefulFrameSource(side: 16, frames: 4), budget: budget, lookahead: 0)
        playing.beginPlaying()
        _ = try await playing.frame(at: 0)
        _ = try await playing.frame(at: 1)
        // Four frames' room: one idle frame, one state, two playing frames.
        #expect(budget.bytesHeld == 4 * frameBytes)
        _ = try await playing.frame(at: 2)
        #expect(stateful.trimCount == 1)
        #expect(await idle.contains(1))
        Self.checkWithinBudget(budget, "after the state went")
    }

    /// A host's source may report any decoding state, up to `Int.max`, and
    /// keep it when asked to trim: the budget counts each report (a negative
    /// one as 0) and stops its totals at `Int.max`, as its documentation
    /// says, and every cache still hands out its frames.
    @Test(arguments: [[Int.max], [1 << 62, 1 << 62], [1 << 62, 1 << 62, 1 << 62], [Int.min, Int.max, Int.max]])
    func anyReportedStateIsCountedWithoutOverflow(_ states: [Int]) async throws {
        let budget = FrameMemoryBudget(byteBudget: 1 << 20)
        let sources = states.map { ReportedStateSource(state: $0) }
        let caches = sources.map { FrameCache(source: $0, budget: budget, lookahead: 0) }
        caches.first?.beginPlaying()
        for cache in caches {
            for index in 0..<2 {
                let frame = try await cache.frame(at: index)
                #expect(frame.byteCount == 4 && frame.pixels[0] == UInt8(index))
            }
        }
        let reported = states.reduce(Int128(0)) { $0 + Int128(max(0, $1)) }
        let expected = reported > Int128(Int.max) ? Int.max : Int(reported)
        #expect(budget.statistics.decodingStateBytes == expected)
        #expect(budget.bytesHeld == expected)
        #expect(zip(sources, states).allSatisfy { $1 <= 0 || $0.trimRequests > 0 })
        budget.trim(to: 0)
        budget.setByteBudget(.max)
        _ = try await caches[0].frame(at: 2)
        #expect(budget.statistics.caches.map(\.decodingStateBytes) == states.map { max(0, $0) })
    }

    /// A host's source may call the budget from any of its methods (here,
    /// every property the budget reads and the trim ask for its
    /// statistics): the budget calls no source with its lock held, so
    /// trims of idle state, of a playing source's own state, a lower limit
    /// and a memory warning all complete.
    @Test func aSourceMayCallTheBudgetFromItsOwnMethods() async throws {
        let frameBytes = 16 * 16 * 4
        let budget = FrameMemoryBudget(byteBudget: 4 * frameBytes)
        let calls = LockedCount()
        let readBudget: @Sendable () -> Void = { if budget.statistics.bytesHeld >= 0 { calls.add() } }
        let idle = StatefulFrameSource(
            side: 16, frames: 4, stateStep: frameBytes, stateCap: frameBytes, callBack: readBudget)
        let idleCache = FrameCache(source: idle, budget: budget, lookahead: 0)
        _ = try await idleCache.frame(at: 1)
        // A playing source whose state grows past the limit: the idle
        // state goes first, then its own is trimmed.
        let greedy = StatefulFrameSource(
            side: 16, frames: 4, stateStep: 3 * frameBytes, stateCap: 6 * frameBytes, callBack: readBudget)
        let playing = FrameCache(source: greedy, budget: budget, lookahead: 0)
        playing.beginPlaying()
        for index in 0..<4 { _ = try await playing.frame(at: index) }
        #expect(idle.trimCount >= 1 && greedy.trimCount >= 1)
        #expect(budget.bytesHeld <= budget.byteBudget)
        budget.setByteBudget(frameBytes)
        #expect(budget.bytesHeld <= frameBytes)
        budget.trim(to: 0)
        #expect(budget.statistics.decodingStateBytes == 0)
        #expect(calls.value > 0)
    }

    /// A cache's frames at one display size are not another's: the pool's
    /// key includes the size.
    @Test func poolKeyIncludesTheDisplaySize() async throws {
        let pool = FrameCachePool(budget: FrameMemoryBudget(byteBudget: 1 << 20))
        let small = DisplaySize(maxWidth: 10, maxHeight: 10)
        let a = await pool.cache(for: "gif", displaySize: small) { StatefulFrameSource(side: 40, frames: 2) }
        let b = await pool.cache(for: "gif", displaySize: small) { StatefulFrameSource(side: 40, frames: 2) }
        let c = await pool.cache(for: "gif") { StatefulFrameSource(side: 40, frames: 2) }
        #expect(a === b && a !== c)
        #expect(a.source.canvasWidth == 10 && c.source.canvasWidth == 40)
        #expect(try await a.frame(at: 1).byteCount == 10 * 10 * 4)
        #expect(pool.memoryBudget?.statistics.caches.count == 2)
    }
}

/// A count several threads add to.
final class LockedCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

/// A 1 × 1 source that reports `state` bytes of decoding state whatever it
/// is asked to trim (counted in ``trimRequests``).
final class ReportedStateSource: BudgetedFrameSource, @unchecked Sendable {
    var canvasSize: PixelSize { PixelSize(width: canvasWidth, height: canvasHeight) }
    var timing: FrameSourceTiming { FrameSourceTiming(frameDelays: frameDelays, storedLoopCount: storedLoopCount) }
    var decodingState: DecodingStateBytes { DecodingStateBytes(total: decodingStateByteCount, working: workingStateByteCount) }
    let state: Int
    private let lock = NSLock()
    private var trims = 0

    init(state: Int) { self.state = state }

    var frameCount: Int { 4 }
    var canvasWidth: Int { 1 }
    var canvasHeight: Int { 1 }
    var frameDelays: [Duration] { Array(repeating: .milliseconds(50), count: 4) }
    var storedLoopCount: Int? { 0 }
    var trimRequests: Int { lock.withLock { trims } }
    var decodingStateByteCount: Int { state }
    var workingStateByteCount: Int { state }
    func trimDecodingState(toBytes bytes: Int) { lock.withLock { trims += 1 } }

    func frame(at index: Int) async throws -> RenderedFrame {
        RenderedFrame(index: index, width: 1, height: 1, pixels: Array(repeating: UInt8(index), count: 4))
    }
}

/// A small deterministic generator (SplitMix64), so a failing sequence
/// can be run again.
struct SeededRandom {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next(upTo bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return bound <= 0 ? 0 : Int(z % UInt64(bound))
    }
}
