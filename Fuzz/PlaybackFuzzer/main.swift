// libFuzzer entry point: the public Playback API — players, frame
// caches and their pool, playlists (the sequencer and the actor), posters —
// driven by a script read from the input, over a FrameSource whose answers
// also come from the input: wrong frame counts and canvas sizes, frames with
// too few pixels or another frame's index, throws, and answers that change
// while the source is in use, and decoding state of any size (up to Int.max,
// negative, kept when asked to trim) counted by a memory budget the caches
// share with more sources of the same kind. Built by scripts/build-fuzzer.sh,
// run by scripts/fuzz.sh (`make fuzz`).
//
// Whatever the source answers, the library must return a typed error or a
// documented clamp and never trap; a broken invariant below is a crash on
// purpose, so libFuzzer reports it with the input that caused it.
import Dispatch
@_spi(Benchmarks) import Playback
import Synchronization

/// The running input's operation: its number in the script and its case,
/// for the watchdog's report when an input does not finish.
let progress = Mutex((operation: 0, code: 0))

/// How long an input may run before the watchdog stops the process (under
/// libFuzzer's own `-timeout`, whose report only shows the waiting thread).
let watchdogSeconds = 4

/// Bytes of the input, read in order, then zeros.
final class Script: @unchecked Sendable {
    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func next() -> UInt8 {
        defer { position += 1 }
        return position < bytes.count ? bytes[position] : 0
    }

    var isDone: Bool { position >= bytes.count }

    /// Sizes and counts, mostly small, sometimes hostile.
    func count() -> Int {
        let b = next()
        switch b % 16 {
        case 0: return 0
        case 1: return -Int(b)
        case 2: return .max
        case 3: return .min
        case 4: return Int(b) << 20
        default: return Int(b % 9)
        }
    }

    func duration() -> Duration {
        let b = next()
        switch b % 8 {
        case 0: return .zero
        case 1: return .nanoseconds(Int(b))
        case 2: return .milliseconds(Int(b) * 7)
        case 3: return .milliseconds(-Int(b))
        case 4: return .seconds(Int64.max / 2)
        case 5: return .seconds(Int(b) * 3600)
        default: return .milliseconds(Int(b) * 13)
        }
    }
}

/// What a source answers now; each field may be wrong on purpose.
struct Answers: Sendable {
    var frameCount = 3
    var delayCount = 3
    var canvasWidth = 2
    var canvasHeight = 2
    var frameWidth = 2
    var frameHeight = 2
    var byteCount = 16
    var indexShift = 0
    var throwsAt = -1
    var loopCount: Int? = nil

    /// Answers drawn from the script: sane most of the time.
    static func from(_ script: Script) -> Answers {
        var a = Answers()
        let mode = script.next()
        if mode & 1 != 0 { a.frameCount = script.count() }
        if mode & 2 != 0 { a.delayCount = script.count() } else { a.delayCount = a.frameCount }
        if mode & 4 != 0 {
            a.canvasWidth = script.count()
            a.canvasHeight = script.count()
        }
        a.frameWidth = a.canvasWidth
        a.frameHeight = a.canvasHeight
        if mode & 8 != 0 {
            a.frameWidth = script.count()
            a.frameHeight = script.count()
        }
        a.byteCount = max(0, min(a.frameWidth, 64)) * max(0, min(a.frameHeight, 64)) * 4
        if mode & 16 != 0 { a.byteCount = Int(script.next()) }
        if mode & 32 != 0 { a.indexShift = Int(Int8(bitPattern: script.next())) }
        if mode & 64 != 0 { a.throwsAt = Int(script.next() % 4) }
        if mode & 128 != 0 { a.loopCount = Int(script.next()) - 1 }
        a.frameCount = min(a.frameCount, 1 << 12)
        a.delayCount = min(max(0, a.delayCount), 1 << 12)
        return a
    }
}

struct FuzzError: Error {}

/// A source whose answers the script sets and changes.
final class FuzzSource: BudgetedFrameSource, @unchecked Sendable {
    var canvasSize: PixelSize { PixelSize(width: canvasWidth, height: canvasHeight) }
    var timing: FrameSourceTiming { FrameSourceTiming(frameDelays: frameDelays, storedLoopCount: storedLoopCount) }
    var decodingState: DecodingStateBytes { DecodingStateBytes(total: decodingStateByteCount, working: workingStateByteCount) }
    private let lock = DispatchSemaphore(value: 1)
    private var answers: Answers
    /// The decoding state reported, the part of it called working state,
    /// and whether a trim lowers it (otherwise it stays as reported).
    private var state = 0
    private var working = 0
    private var trims = true

    init(_ answers: Answers) { self.answers = answers }

    func setState(_ bytes: Int, working: Int, trims: Bool) {
        lock.wait()
        (state, self.working, self.trims) = (bytes, working, trims)
        lock.signal()
    }

    var decodingStateByteCount: Int {
        lock.wait()
        defer { lock.signal() }
        return state
    }

    var workingStateByteCount: Int {
        lock.wait()
        defer { lock.signal() }
        return working
    }

    func trimDecodingState(toBytes bytes: Int) {
        lock.wait()
        if trims { state = min(state, max(0, bytes)) }
        lock.signal()
    }

    func change(to new: Answers) {
        lock.wait()
        answers = new
        lock.signal()
    }

    private var now: Answers {
        lock.wait()
        defer { lock.signal() }
        return answers
    }

    var frameCount: Int { now.frameCount }
    var canvasWidth: Int { now.canvasWidth }
    var canvasHeight: Int { now.canvasHeight }
    var frameDelays: [Duration] {
        let a = now
        return (0..<a.delayCount).map { .milliseconds(($0 * 37) % 120 - 5) }
    }
    var storedLoopCount: Int? { now.loopCount }

    func frame(at index: Int) async throws -> RenderedFrame {
        let a = now
        if a.throwsAt == index { throw FuzzError() }
        // Never allocate more than a few KiB, whatever the claimed size.
        return RenderedFrame(
            index: index &+ a.indexShift, width: a.frameWidth, height: a.frameHeight,
            pixels: Array(repeating: UInt8(truncatingIfNeeded: index), count: min(a.byteCount, 1 << 16)))
    }
}

/// A clock whose instants the script moves. Offsets stay within ±2⁶³
/// seconds, so sums of two never overflow `Duration` (the fuzzer's own
/// arithmetic must not trap; the library's is what is tested).
struct Instant: InstantProtocol {
    var offset: Duration
    static let limit = Duration.seconds(Int64.max)
    func advanced(by duration: Duration) -> Instant {
        Instant(offset: min(max(offset + duration, .zero - Self.limit), Self.limit))
    }
    func duration(to other: Instant) -> Duration { other.offset - offset }
    static func < (a: Instant, b: Instant) -> Bool { a.offset < b.offset }
}

/// The checks every frame the library hands out must pass.
func checkFrame(_ frame: RenderedFrame, of source: FuzzSource) {
    precondition(frame.width >= 0 && frame.height >= 0, "negative size")
    precondition(frame.pixels.count == frame.width * frame.height * 4, "short frame handed out")
}

func checkPoster(_ poster: RenderedFrame, maxWidth: Int, maxHeight: Int) {
    precondition(poster.pixels.count == poster.width * poster.height * 4, "poster size")
    precondition(poster.width <= max(1, maxWidth), "poster too wide")
    precondition(poster.height <= max(1, maxHeight), "poster too tall")
}

/// The checks a shared budget's totals must pass, whatever its sources report.
func checkBudget(_ budget: FrameMemoryBudget) {
    let statistics = budget.statistics
    precondition(statistics.bytesHeld >= 0 && statistics.decodingStateBytes >= 0, "negative total")
    precondition(statistics.frameBytes >= 0 && statistics.reservedBytes >= 0, "negative frames")
    precondition(statistics.caches.allSatisfy { $0.decodingStateBytes >= 0 }, "negative state")
}

func run(_ script: Script) async {
    let source = FuzzSource(Answers.from(script))
    // A budget shared with the caches of `others` (sources whose answers and
    // state also come from the script), or each cache's own.
    let budget = FrameMemoryBudget(byteBudget: Int(script.next()) * 64)
    let shared = script.next() & 1 != 0
    let lookahead = Int(script.next() % 6)
    let pool = shared
        ? FrameCachePool(budget: budget, lookahead: lookahead)
        : FrameCachePool(byteBudget: budget.byteBudget, lookahead: lookahead)
    var others: [FrameCache] = []
    var cache = await pool.cache(for: 0) { source }
    var player: Player<Instant>?
    var clock = Instant(offset: .zero)
    var sequencer = try? PlaylistSequencer(items: [])
    let playlist = try? Playlist(items: [], startingAt: clock)
    var operations = 0

    func items(_ keys: UInt8) -> [PlaylistItem] {
        (0..<Int(keys % 4)).map { i in
            let key = "k\((Int(keys) >> 2 &+ i) % 5)"
            return PlaylistItem(key: key, loops: i == 0 ? nil : i - 2) {
                if keys & 0x80 != 0, i == 1 { throw FuzzError() }
                return source
            }
        }
    }

    while !script.isDone, operations < 64 {
        operations += 1
        let op = script.next()
        progress.withLock { $0 = (operations, Int(op % 17)) }
        switch op % 17 {
        case 0:
            var configuration = PlayerConfiguration()
            configuration.direction = [.forward, .reverse, .bounce][Int(script.next() % 3)]
            configuration.loop = [.fromSource, .forever, .count(Int(script.next()) - 1)][Int(script.next() % 3)]
            player = try? Player(source: source, configuration: configuration, startingAt: clock, cache: cache)
        case 1:
            if let player {
                switch script.next() % 3 {
                case 0: await player.play()
                case 1: await player.pause()
                default: await player.stop()
                }
            }
        case 2:
            clock = clock.advanced(by: script.duration())
            if let player {
                _ = await player.advance(to: clock)
                let frame = player.currentFrame
                let frameCount = player.timeline.frameCount  // it grows with a progressive source
                precondition((0..<frameCount).contains(frame), "player frame \(frame)")
                if let wait = player.timeUntilNextChange { precondition(wait >= .zero) }
            }
        case 3:
            if let player { _ = try? await player.seek(toFrame: script.count()) }
        case 4:
            if let player, let image = try? await player.currentImage() {
                // Well formed; its size is the canvas's when it was decoded
                // (the source may have changed since).
                checkFrame(image, of: source)
            }
        case 5:
            let maxWidth = script.count(), maxHeight = script.count()
            if let poster = try? await Poster.make(from: source, frame: script.count(), maxWidth: maxWidth, maxHeight: maxHeight) {
                checkPoster(poster, maxWidth: maxWidth, maxHeight: maxHeight)
            }
        case 6:
            let frame = RenderedFrame(
                index: 0, width: script.count(), height: script.count(),
                pixels: Array(repeating: script.next(), count: Int(script.next()) * 4))
            // One side may be anything (clamped to Poster.maxSide); the other
            // stays small so that an input costs milliseconds, not a 256 MiB
            // poster.
            let width = script.count(), height = min(script.count(), 16)
            let filtered = Poster.boxFilter(frame, width: width, height: height)
            precondition(filtered.pixels.count == filtered.width * filtered.height * 4)
            precondition(filtered.width <= Poster.maxSide && filtered.height <= Poster.maxSide)
            let scaled = Poster.downscale(frame, maxWidth: width, maxHeight: height)
            precondition(scaled.pixels.count == scaled.width * scaled.height * 4 || scaled == frame)
            _ = Poster.fit(width: frame.width, height: frame.height, maxWidth: width, maxHeight: height)
        case 7:
            if let image = try? await cache.frame(at: script.count()) { checkFrame(image, of: source) }
        case 8:
            await cache.prefetch((0..<Int(script.next() % 6)).map { _ in script.count() })
            if script.next() & 1 == 0 { await cache.waitForPrefetch() }
        case 9:
            switch script.next() % 3 {
            case 0: await cache.setByteBudget(script.count())
            case 1: await cache.purge()
            default: cache = await pool.cache(for: Int(script.next() % 3)) { source }
            }
            let statistics = await cache.statistics
            precondition(statistics.bytesHeld <= statistics.byteBudget, "over budget")
            precondition(statistics.bytesHeld >= 0 && statistics.framesHeld >= 0)
        case 10:
            source.change(to: Answers.from(script))
        case 11:
            guard var current = sequencer else { break }
            let events: [PlaylistEvent]
            switch script.next() % 5 {
            case 0: events = current.replace(items: items(script.next()))
            case 1: events = current.play()
            case 2: events = current.pause()
            default: events = current.advance(by: script.duration())
            }
            _ = events
            for request in current.takeLoadRequests() {
                if script.next() & 1 == 0 {
                    let result: Result<any FrameSource, any Error> = script.next() & 1 == 0 ? .success(source) : .failure(FuzzError())
                    _ = current.finishLoad(request, result: result)
                }
            }
            if let frame = current.currentFrame, let head = current.currentPlayhead {
                precondition((0..<head.timeline.frameCount).contains(frame), "playlist frame \(frame)")
            }
            if let wait = current.timeUntilNextChange { precondition(wait >= .zero) }
            sequencer = current
        case 12:
            guard let playlist else { break }
            switch script.next() % 4 {
            case 0: await playlist.replace(items: items(script.next()))
            case 1: await playlist.play()
            case 2:
                clock = clock.advanced(by: script.duration())
                await playlist.advance(to: clock)
            default:
                if let image = try? await playlist.currentImage() { checkFrame(image, of: source) }
            }
            let running = await playlist.runningLoadCount
            precondition(running <= 5, "loads pile up: \(running)")
        case 14:
            let pick = Int(script.next())
            let target = pick < others.count ? others[pick].source as? FuzzSource ?? source : source
            target.setState(script.count(), working: script.count(), trims: script.next() & 1 != 0)
        case 15:
            if others.count < 3 {
                let other = FuzzSource(Answers.from(script))
                other.setState(script.count(), working: script.count(), trims: script.next() & 1 != 0)
                others.append(FrameCache(source: other, budget: budget, lookahead: Int(script.next() % 3)))
            }
            let cache = others[Int(script.next()) % others.count]
            if script.next() & 1 == 0 { cache.beginPlaying() } else { cache.endPlaying() }
            if let image = try? await cache.frame(at: script.count()) { precondition(image.pixels.count == image.width * image.height * 4) }
            checkBudget(budget)
        case 16:
            switch script.next() % 3 {
            case 0: budget.trim(to: script.count())
            case 1: budget.setByteBudget(script.count())
            default: if !others.isEmpty { others.removeFirst() }
            }
            checkBudget(budget)
        default:
            let live = await pool.liveCacheCount, entries = await pool.entryCount
            precondition(live <= entries && entries < 64, "pool entries \(live) of \(entries)")
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let done = DispatchSemaphore(value: 0)
    let script = Script(bytes)
    progress.withLock { $0 = (0, 0) }
    Task {
        await run(script)
        done.signal()
    }
    if done.wait(timeout: .now() + .seconds(watchdogSeconds)) == .timedOut {
        let stuck = progress.withLock { $0 }
        fatalError("input still running after \(watchdogSeconds) s, in operation \(stuck.operation) (case \(stuck.code))")
    }
    return 0
}
