import EngineSupport

/// Plays a ``FrameSource`` on a host-owned clock: the deterministic
/// ``Playhead``, with `Clock` instants, event delivery and a ``FrameCache``
/// for pixels.
///
/// The actor is a thin asynchronous layer over a synchronous engine that
/// keeps the playhead, the listeners and the frame published for drawing
/// behind one lock. Its calls take the lock and return; a ``GroupDriver``
/// ticks the engine on its own thread, with no hop to the actor, and
/// ``draw(into:bytesPerRow:)`` runs on the host's thread. Events reach
/// observers and streams in the order the changes were made.
///
/// The generic parameter is the clock's instant type, inferred from the
/// `startingAt:` argument: `Player<ContinuousClock.Instant>` for real time,
/// a test clock's instant in tests.
///
/// Nothing happens on its own: the host passes time in with
/// ``advance(to:)`` / ``advance(by:)``, or lets a ``PlaybackDriver`` do it.
/// Autoplay is off by default, so a new player shows frame 0 and waits for
/// ``play(at:)``.
///
/// ```swift
/// let clock = ContinuousClock()
/// let player = try Player(source: source, startingAt: clock.now)
/// await player.play()
/// await player.advance(to: clock.now)
/// let shown = try await player.currentImage()
/// show(shown.pixels, PixelSize(width: shown.width, height: shown.height))
/// ```
///
/// Time axis: the player measures host time from its `epoch` when one is
/// given (see ``Playhead`` for what sharing an epoch means) or else from the
/// instant it was made. All policies and event rules are those of
/// ``Playhead``.
///
/// A ``ProgressiveFrameSource`` (a file still downloading) plays as its frames
/// arrive: the player listens to its ``ProgressiveFrameSource/timingUpdates()``,
/// waits on the last frame it has when the next is late (reporting
/// ``PlayerEvent/waitingForFrame(frame:)``, see ``WaitPolicy``), and wakes
/// its driver when frames arrive.
public actor Player<Instant: InstantProtocol> where Instant.Duration == Duration {
    /// The schedule being played; it grows with a ``ProgressiveFrameSource``.
    public nonisolated var timeline: PlaybackTimeline { playerCore.read { $0.timeline } }

    /// The source the frames come from.
    public nonisolated let source: any FrameSource

    /// The cache ``currentImage(isolation:)`` reads through and prefetches into.
    public nonisolated var cache: FrameCache { playerCore.cache }

    /// The instant host time is measured from: the epoch, or creation time.
    public nonisolated let origin: Instant

    /// What ``draw(into:bytesPerRow:)`` draws with: the source's own drawer
    /// (a GIF's composites from stored indices), or one that copies frames
    /// the ``cache`` holds.
    public nonisolated var drawer: any FrameDrawer { playerCore.drawer }

    /// The synchronous engine this actor is a layer over: a ``GroupDriver``
    /// ticks it on the caller's thread.
    nonisolated let playerCore: PlayerCore

    /// The cache budget used when no cache is passed in: 32 MiB.
    package static var defaultCacheBudget: Int { FrameCache.defaultByteBudget }

    /// Creates a player showing frame 0, idle unless autoplay is on.
    /// - Parameters:
    ///   - source: What to play.
    ///   - configuration: Policies; all default to browser behaviour.
    ///   - now: The clock's instant now (the player never reads the clock).
    ///   - epoch: A shared epoch: players given the same one stay in step.
    ///   - cache: A frame cache to read through (share one between players of
    ///     the same source), or `nil` for a private one with
    ///     `defaultCacheBudget`.
    ///   - displaySize: For a private cache, the largest frame the host
    ///     draws: the player reads `source.displaying(at:)` (see
    ///     ``FrameSource/displaying(at:)``), so only small frames are cached.
    ///     Ignored when `cache` is given: its source decides the frame size
    ///     (``FrameCachePool/cache(for:displaySize:source:)`` makes one).
    /// - Throws: ``PlayerError/emptySource``,
    ///   ``PlayerError/mismatchedDelays(frameCount:delayCount:)`` or
    ///   ``PlayerError/invalidRate(_:)``.
    public init(
        source: some FrameSource,
        configuration: PlayerConfiguration = .init(),
        startingAt now: Instant,
        epoch: Instant? = nil,
        cache: FrameCache? = nil,
        displaySize: DisplaySize? = nil
    ) throws(PlayerError) {
        // Subscribed before the timeline is read: no arrival falls in between.
        let updates = (source as? any ProgressiveFrameSource)?.timingUpdates()
        let timeline = try PlaybackTimeline(source: source, configuration: configuration)
        let origin = epoch ?? now
        let playing: FrameCache
        if let cache {
            self.source = source
            playing = cache
        } else {
            let shown = displaySize.map { source.displaying(at: $0) } ?? source
            self.source = shown
            playing = FrameCache(source: shown, byteBudget: Self.defaultCacheBudget)
        }
        let playhead = try Playhead(
            timeline: timeline,
            configuration: configuration,
            now: origin.duration(to: now),
            epoch: epoch == nil ? nil : .zero
        )
        self.origin = origin
        playerCore = PlayerCore(playhead: playhead, cache: playing, updates: updates)
    }

    /// Whether the player waits for a frame that has not arrived (see
    /// ``Playhead/isWaiting``): the host may show that it is buffering.
    public nonisolated var isWaiting: Bool { playerCore.read { $0.isWaiting } }

    /// A copy of the deterministic state, for inspection or tests.
    package nonisolated var snapshot: Playhead { playerCore.read { copy $0 } }

    /// The life-cycle state.
    public nonisolated var state: PlayerState { playerCore.read { $0.state } }

    /// The index of the frame shown now.
    public nonisolated var currentFrame: Int { playerCore.read { $0.currentFrame } }

    /// Loops fully played so far.
    public nonisolated var loopsCompleted: Int { playerCore.read { $0.loopsCompleted } }

    /// The current playback rate.
    public nonisolated var rate: Double { playerCore.read { $0.rate } }

    /// The latest instant passed in.
    public nonisolated var now: Instant { origin.advanced(by: playerCore.read { $0.now }) }

    /// Media time since the start of loop 0 (see ``Playhead/elapsed``).
    public nonisolated var elapsed: Duration { playerCore.read { $0.elapsed } }

    /// Media time spent in the shown frame (see ``Playhead/timeIntoFrame``).
    public nonisolated var timeIntoFrame: Duration { playerCore.read { $0.timeIntoFrame } }

    /// Host time until the next change, or `nil` when nothing is scheduled.
    public nonisolated var timeUntilNextChange: Duration? { playerCore.read { $0.timeUntilNextChange } }

    /// The instant the next change is due, or `nil` when nothing is scheduled;
    /// computed from the anchor, so sleeping until it accumulates no error.
    /// Read without waiting for the actor (it takes the playhead's lock), so
    /// that a display link's callback can pause the link until then.
    public nonisolated var nextChangeInstant: Instant? {
        playerCore.read { $0.nextChangeTime }.map { origin.advanced(by: $0) }
    }

    /// Starts or resumes (see ``Playhead/play(at:)``) at `instant` or ``now``.
    @discardableResult
    public func play(at instant: Instant? = nil) -> [PlayerEvent] { playerCore.play(at: instant.map(hostTime)) }

    /// Freezes the position (see ``Playhead/pause(at:)``).
    @discardableResult
    public func pause(at instant: Instant? = nil) -> [PlayerEvent] { playerCore.pause(at: instant.map(hostTime)) }

    /// Returns to frame 0, idle (see ``Playhead/stop(at:)``).
    @discardableResult
    public func stop(at instant: Instant? = nil) -> [PlayerEvent] { playerCore.stop(at: instant.map(hostTime)) }

    /// Shows `frame` from its start (see ``Playhead/seek(toFrame:)``).
    @discardableResult
    public func seek(toFrame frame: Int) throws(PlayerError) -> [PlayerEvent] { try playerCore.seek(toFrame: frame) }

    /// Moves to a media-time offset (see ``Playhead/seek(toOffset:)``).
    @discardableResult
    public func seek(toOffset offset: Duration) throws(PlayerError) -> [PlayerEvent] {
        try playerCore.seek(toOffset: offset)
    }

    /// Whether reduced-motion mode is on (see
    /// ``PlayerConfiguration/reducedMotion``).
    public nonisolated var reducedMotion: Bool { playerCore.read { $0.reducedMotion } }

    /// Switches reduced-motion mode on or off when the host's accessibility
    /// setting changes (see ``Playhead/setReducedMotion(_:)``): switched on
    /// mid-play, the player stops on its ``PlayerConfiguration/stillFrame``,
    /// idle; `play()` still plays on demand, from the beginning.
    @discardableResult
    public func setReducedMotion(_ on: Bool) -> [PlayerEvent] { playerCore.setReducedMotion(on) }

    /// Writes the frame the player shows into `buffer`, memory the host owns
    /// (a bitmap context's, a texture upload buffer's), `bytesPerRow` bytes
    /// from one row's start to the next, in ``FrameDrawer/pixelFormat``, at
    /// ``FrameDrawer/width`` × ``FrameDrawer/height`` (the display size's,
    /// when the player has one). Only what changed since the last draw is
    /// written; bytes past `width × 4` in a row are never touched.
    ///
    /// Runs on the calling thread and never waits: not for the actor (it
    /// reads the frame the player's last change of position published), and
    /// not for a decode. When the frame is not decoded yet, the buffer keeps
    /// the frame shown before, the draw returns ``FrameDraw/late(frame:shown:)``,
    /// ``lateDrawCount`` grows and ``PlayerEvent/drawnLate(frame:)`` is
    /// reported; the decode runs on the source's threads, and a later draw
    /// catches up. The buffer must keep what the last draw left; when it
    /// does not, call ``FrameDrawer/invalidate()`` on ``drawer``.
    /// - Returns: What was written.
    /// - Throws: `PixelBufferError` for a buffer too small for the frame
    ///   or a stride that overflows, or when another thread is drawing this
    ///   player; nothing is written then.
    public nonisolated func draw(
        into buffer: UnsafeMutableRawBufferPointer, bytesPerRow: Int
    ) throws(PixelBufferError) -> FrameDraw {
        try playerCore.draw(into: buffer, bytesPerRow: bytesPerRow)
    }

    /// The draws so far that found their frame not decoded yet (see
    /// ``draw(into:bytesPerRow:)``).
    public nonisolated var lateDrawCount: Int { playerCore.lateDrawCount }

    /// Changes the rate, keeping the position (see ``Playhead/setRate(_:)``).
    public func setRate(_ rate: Double) throws(PlayerError) { try playerCore.setRate(rate) }

    /// Moves time forward to `instant`; earlier instants are ignored.
    ///
    /// Allocates nothing when no frame changes, nor when the caller lets go
    /// of the returned events before the next call.
    ///
    /// Called from synchronous code (a display link's callback, a host's
    /// render loop), this runs on the calling thread with no hop to the
    /// actor: it takes the player's lock, as a ``GroupDriver``'s tick does.
    /// From asynchronous code, `await player.advance(to:)` calls the
    /// actor's overload, which does the same.
    @discardableResult
    public nonisolated func advance(to instant: Instant) -> [PlayerEvent] {
        playerCore.advance(to: hostTime(instant))
    }

    /// Moves time forward to `instant` (see the synchronous overload):
    /// what `await player.advance(to:)` calls, on the caller's executor.
    @discardableResult
    public func advance(
        to instant: Instant, isolation: isolated (any Actor)? = #isolation
    ) async -> [PlayerEvent] {
        playerCore.advance(to: hostTime(instant))
    }

    /// Moves time forward by `duration`; negative durations are ignored.
    /// Called from synchronous code, it runs on the calling thread, with no
    /// hop to the actor.
    @discardableResult
    public nonisolated func advance(by duration: Duration) -> [PlayerEvent] {
        playerCore.advance(by: duration)
    }

    /// Moves time forward by `duration` (see the synchronous overload):
    /// what `await player.advance(by:)` calls, on the caller's executor.
    @discardableResult
    public func advance(
        by duration: Duration, isolation: isolated (any Actor)? = #isolation
    ) async -> [PlayerEvent] {
        playerCore.advance(by: duration)
    }

    private nonisolated func hostTime(_ instant: Instant) -> Duration {
        origin.duration(to: instant)
    }
}
