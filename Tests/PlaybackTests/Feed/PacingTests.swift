import Playback
import Synchronization
import Testing

/// A drawer whose draws are late by a rule, so a test knows each frame's
/// fate in advance.
private final class RuledDrawer: FrameDrawer {
    enum Rule {
        /// Frame 1 late at its first draw after another frame, frame 3
        /// late at every draw, the others through.
        case script
        /// Late unless `spacing` of the clock passed since the last draw
        /// that got through: a host that keeps up with one frame per
        /// `spacing` at most.
        case capacity(Duration)
        /// Never late.
        case fast
    }

    private struct State {
        var rule: Rule
        var shown: Int?
        var lastAttempt: Int?
        var lastThrough: ManualClock.Instant?
    }

    private let clock: ManualClock
    private let state: Mutex<State>

    init(_ rule: Rule, clock: ManualClock) {
        self.clock = clock
        state = Mutex(State(rule: rule))
    }

    func setRule(_ rule: Rule) { state.withLock { $0.rule = rule } }

    var width: Int { 1 }
    var height: Int { 1 }
    var pixelFormat: PixelFormat { .rgba8 }
    var byteCount: Int { 0 }
    func prefetch(_ frames: [Int]) {}
    func invalidate() { state.withLock { $0.shown = nil } }

    func draw(frame index: Int, into buffer: UnsafeMutableRawBufferPointer, bytesPerRow: Int) throws(PixelBufferError)
        -> FrameDraw
    {
        let now = clock.now
        return state.withLock { state in
            defer { state.lastAttempt = index }
            let late: Bool =
                switch state.rule {
                case .script: index == 3 || (index == 1 && state.lastAttempt != 1)
                case .capacity(let spacing): state.lastThrough.map { $0.duration(to: now) < spacing } ?? false
                case .fast: false
                }
            if late { return .late(frame: index, shown: state.shown) }
            state.lastThrough = now
            defer { state.shown = index }
            if state.shown == index { return .unchanged(frame: index) }
            return .drawn(frame: index, changed: PixelRect(x: 0, y: 0, width: 1, height: 1), isComplete: true)
        }
    }
}

/// Four frames of 100 ms, looping, drawn by a ``RuledDrawer``.
private struct RuledSource: FrameSource {
    let drawer: RuledDrawer
    var frameCount: Int { 4 }
    var canvasSize: PixelSize { PixelSize(width: 1, height: 1) }
    var timing: FrameSourceTiming {
        FrameSourceTiming(frameDelays: Array(repeating: .milliseconds(100), count: 4), storedLoopCount: 0)
    }

    func frame(at index: Int) async throws -> RenderedFrame {
        RenderedFrame(index: index, width: 1, height: 1, pixels: [UInt8](repeating: UInt8(index), count: 4))
    }

    func makeDrawer(notifying decoded: (@Sendable () -> Void)?) -> (any FrameDrawer)? { drawer }
}

@Suite("Group driver: draw counters and frame-rate policy")
struct PacingTests {
    /// One player in a group on a manual clock, ticked by its host every
    /// 10 ms, which draws whenever a tick names it.
    private struct Host {
        let clock = ManualClock()
        let start: ManualClock.Instant
        let drawer: RuledDrawer
        let player: Player<ManualClock.Instant>
        let group: GroupDriver<ManualClock>
        var elapsed = Duration.zero

        init(_ rule: RuledDrawer.Rule, policy: FrameRatePolicy?) async throws {
            start = clock.now
            drawer = RuledDrawer(rule, clock: clock)
            player = try Player(source: RuledSource(drawer: drawer), startingAt: start)
            group = GroupDriver(clock: clock, frameRatePolicy: policy)
            await group.add(player)
            await player.play(at: start)
            // The host draws the first frame before the first tick.
            var pixel = [UInt8](repeating: 0, count: 4)
            _ = try pixel.withUnsafeMutableBytes { try player.draw(into: $0, bytesPerRow: 4) }
        }

        /// Ticks and draws every 10 ms for `duration`, the tick at the end
        /// excluded.
        mutating func run(for duration: Duration) throws {
            var pixel = [UInt8](repeating: 0, count: 4)
            let end = elapsed + duration
            while elapsed < end {
                let now = start.advanced(by: elapsed)
                clock.advance(to: now)
                let tick = group.tickPlayers(at: now)
                if tick.changed.contains(ObjectIdentifier(player)) {
                    _ = try pixel.withUnsafeMutableBytes { try player.draw(into: $0, bytesPerRow: 4) }
                }
                elapsed += .milliseconds(10)
            }
        }

        /// The same host asking for each change with `currentImage()`.
        mutating func runWithImages(for duration: Duration) async throws {
            let end = elapsed + duration
            while elapsed < end {
                let now = start.advanced(by: elapsed)
                clock.advance(to: now)
                let tick = group.tickPlayers(at: now)
                if tick.changed.contains(ObjectIdentifier(player)) { _ = try await player.currentImage() }
                elapsed += .milliseconds(10)
            }
        }

        var statistics: MemberPlaybackStatistics {
            get throws { try #require(group.statistics(of: player)) }
        }
    }

    @Test("Each frame counts once: on time, late, or skipped, as the drawer's rule makes it")
    func countsFollowTheRule() async throws {
        // Ticks from 0 to 4 s, 100 ms frames: ten loops of frames 0-3 and
        // frame 0 again. Frame 1 is late at its first draw and drawn at the
        // next tick; frame 3 is never drawn, so it counts as skipped when
        // frame 0 follows. Frame 0 is drawn 11 times, frame 2 ten times. A
        // policy that never lowers, over one 4 s window, to read its share.
        var host = try await Host(.script, policy: FrameRatePolicy(missThreshold: 1, window: .seconds(4)))
        try host.run(for: .milliseconds(4010))
        let statistics = try host.statistics
        #expect(statistics.framesOnTime == 21)
        #expect(statistics.framesLate == 10)
        #expect(statistics.framesSkipped == 10)
        // The window closes at the 4 s tick, before its draw: of the frames
        // after the first, 19 on time, 10 late, 9 skipped.
        #expect(statistics.recentMissedShare == 0.5)
        #expect(statistics.frameRate == nil)
    }

    @Test("Images from currentImage() count as draws: a drawer never late makes every frame on time")
    func imagesCountAsDraws() async throws {
        // Ticks from 0 to 4 s, 100 ms frames: frames 0 to 40 are published,
        // frame 0 drawn before the first tick with draw(into:).
        var host = try await Host(.fast, policy: nil)
        try await host.runWithImages(for: .milliseconds(4010))
        let statistics = try host.statistics
        #expect(statistics.framesOnTime == 41)
        #expect(statistics.framesLate == 0)
        #expect(statistics.framesSkipped == 0)
    }

    @Test("Under the policy a host that keeps up with 5 frames a second gets a lowered rate and then misses at most 10 %")
    func policyLowersTheRate() async throws {
        let policy = FrameRatePolicy.standard
        var host = try await Host(.capacity(.milliseconds(200)), policy: policy)
        try host.run(for: .seconds(20))
        let settled = try host.statistics
        let rate = try #require(settled.frameRate)
        // From 10 frames a second, lowered in steps of 20 %.
        #expect(rate <= 10 * (1 - policy.step) + 1e-9)
        try host.run(for: .seconds(40))
        let after = try host.statistics
        let shown = after.framesOnTime - settled.framesOnTime
        let missed = after.framesLate - settled.framesLate + after.framesSkipped - settled.framesSkipped
        #expect(shown > 0)
        #expect(Double(missed) <= policy.missThreshold * Double(shown + missed), "\(missed) of \(shown + missed)")

        // The host keeps up again: the cap rises in steps until it is lifted.
        host.drawer.setRule(.fast)
        try host.run(for: .seconds(30))
        #expect(try host.statistics.frameRate == nil)
        let restored = try host.statistics
        try host.run(for: .seconds(4))
        let end = try host.statistics
        // 4 s at 10 frames a second, all on time.
        #expect(end.framesOnTime - restored.framesOnTime == 40)
        #expect(end.framesLate == restored.framesLate)
        #expect(end.framesSkipped == restored.framesSkipped)
    }

    @Test("With no policy the same host keeps missing half the frames, and turning a policy off lifts the cap")
    func noPolicyNoCap() async throws {
        var host = try await Host(.capacity(.milliseconds(200)), policy: nil)
        try host.run(for: .seconds(6))
        #expect(try host.statistics.frameRate == nil)
        #expect(try host.statistics.recentMissedShare == 0.5)

        host.group.setFrameRatePolicy(.standard)
        try host.run(for: .seconds(6))
        #expect(try host.statistics.frameRate != nil)
        host.group.setFrameRatePolicy(nil)
        #expect(host.group.frameRatePolicy == nil)
        #expect(try host.statistics.frameRate == nil)
    }

    @Test("A grid feed turns the standard policy on for its driver unless told otherwise")
    func gridFeedTurnsItOn() {
        let clock = ManualClock()
        let on = GroupDriver(clock: clock), off = GroupDriver(clock: clock, frameRatePolicy: .standard)
        _ = GridFeed(driver: on, pool: FrameCachePool(byteBudget: 1 << 20), startingAt: clock.now) { _ in
            throw PlayerError.emptySource
        }
        _ = GridFeed(
            driver: off, pool: FrameCachePool(byteBudget: 1 << 20), startingAt: clock.now, frameRatePolicy: nil
        ) { _ in throw PlayerError.emptySource }
        #expect(on.frameRatePolicy == .standard)
        #expect(off.frameRatePolicy == nil)
    }
}
