import EngineSupport

/// Plays a ``FrameSource`` on a host-owned clock: the deterministic
/// ``Playhead`` in an actor, with `Clock` instants, event delivery and a
/// ``FrameCache`` for pixels.
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
/// let pixels = try await player.currentImage()
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
    public var timeline: PlaybackTimeline { playhead.timeline }

    /// The source the frames come from.
    public nonisolated let source: any FrameSource

    /// The cache ``currentImage()`` reads through and prefetches into.
    public nonisolated let cache: FrameCache

    /// The instant host time is measured from: the epoch, or creation time.
    public nonisolated let origin: Instant

    /// What ``draw(into:bytesPerRow:)`` draws with: the source's own drawer
    /// (a GIF's composites from stored indices), or one that copies frames
    /// the ``cache`` holds.
    public nonisolated let drawer: any FrameDrawer

    /// The frame shown and the late draws, for ``draw(into:bytesPerRow:)``,
    /// which runs on the host's thread without waiting for the actor.
    private nonisolated let shown = LockedState(Shown())

    /// What the actor publishes for drawing, and what drawing reports back.
    private struct Shown {
        var frame = 0
        var lateDraws = 0
        /// A frame drawn late and not reported yet as ``PlayerEvent/drawnLate(frame:)``.
        var unreportedLate: Int?
    }

    var playhead: Playhead
    /// Observers, event streams and driver wake-ups.
    package var hub = EventHub<PlayerEvent>()
    /// The events of the latest ``advance(to:)``, reused from call to call.
    var eventBuffer: [PlayerEvent] = []
    /// The look-ahead list handed to the cache, reused from call to call.
    var upcoming: [Int] = []
    /// The one event a late draw reports, reused.
    private var lateEvent: [PlayerEvent] = [.drawnLate(frame: 0)]
    /// The task that hands a progressive source's timings in.
    private nonisolated let growth = TimingSubscription()
    /// Whether this player has told its cache it plays (``FrameCache/beginPlaying()``).
    private var claimsPlaying = false

    /// The cache budget used when no cache is passed in: 32 MiB.
    public static var defaultCacheBudget: Int { FrameCache.defaultByteBudget }

    /// Creates a player showing frame 0, idle unless autoplay is on.
    /// - Parameters:
    ///   - source: What to play.
    ///   - configuration: Policies; all default to browser behaviour.
    ///   - now: The clock's instant now (the player never reads the clock).
    ///   - epoch: A shared epoch: players given the same one stay in step.
    ///   - cache: A frame cache to read through (share one between players of
    ///     the same source), or `nil` for a private one with
    ///     ``defaultCacheBudget``.
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
        if let cache {
            self.source = source
            self.cache = cache
        } else {
            let shown = displaySize.map { source.displaying(at: $0) } ?? source
            self.source = shown
            self.cache = FrameCache(source: shown, byteBudget: Self.defaultCacheBudget)
        }
        self.origin = origin
        self.drawer = self.cache.makeDrawer()
        self.playhead = try Playhead(
            timeline: timeline,
            configuration: configuration,
            now: origin.duration(to: now),
            epoch: epoch == nil ? nil : .zero
        )
        if playhead.state == .playing {
            claimsPlaying = true
            self.cache.beginPlaying()
        }
        let first = playhead.currentFrame
        shown.withLock { $0.frame = first }
        if let updates {
            growth.start { [weak self] in
                for await timing in updates {
                    guard let self else { return }
                    await self.sourceGrew(timing)
                }
            }
        }
    }

    /// Ends every event stream still open, so consumers iterating
    /// ``events()`` finish when the player goes away.
    deinit {
        if claimsPlaying { cache.endPlaying() }
        growth.cancel()
        hub.finishStreams()
    }

    /// Whether the player waits for a frame that has not arrived (see
    /// ``Playhead/isWaiting``): the host may show that it is buffering.
    public var isWaiting: Bool { playhead.isWaiting }

    /// Takes on a progressive source's newer timing and wakes the drivers, so
    /// a wait ends at the clock's time. A timing that does not extend the
    /// one played is ignored.
    private func sourceGrew(_ timing: FrameSourceTiming) {
        let before = playhead.timeline
        do {
            try playhead.extend(to: timing)
        } catch {
            return
        }
        if playhead.timeline != before { hub.signalWakes() }
    }

    /// A copy of the deterministic state, for inspection or tests.
    public var snapshot: Playhead { playhead }

    /// The life-cycle state.
    public var state: PlayerState { playhead.state }

    /// The index of the frame shown now.
    public var currentFrame: Int { playhead.currentFrame }

    /// Loops fully played so far.
    public var loopsCompleted: Int { playhead.loopsCompleted }

    /// The current playback rate.
    public var rate: Double { playhead.rate }

    /// The latest instant passed in.
    public var now: Instant { origin.advanced(by: playhead.now) }

    /// Media time since the start of loop 0 (see ``Playhead/elapsed``).
    public var elapsed: Duration { playhead.elapsed }

    /// Media time spent in the shown frame (see ``Playhead/timeIntoFrame``).
    public var timeIntoFrame: Duration { playhead.timeIntoFrame }

    /// Host time until the next change, or `nil` when nothing is scheduled.
    public var timeUntilNextChange: Duration? { playhead.timeUntilNextChange }

    /// The instant the next change is due, or `nil` when nothing is scheduled;
    /// computed from the anchor, so sleeping until it accumulates no error.
    public var nextChangeInstant: Instant? {
        playhead.nextChangeTime.map { origin.advanced(by: $0) }
    }

    /// Starts or resumes (see ``Playhead/play(at:)``) at `instant` or ``now``.
    @discardableResult
    public func play(at instant: Instant? = nil) -> [PlayerEvent] {
        perform { $0.play(at: instant.map(hostTime)) }
    }

    /// Freezes the position (see ``Playhead/pause(at:)``).
    @discardableResult
    public func pause(at instant: Instant? = nil) -> [PlayerEvent] {
        perform { $0.pause(at: instant.map(hostTime)) }
    }

    /// Returns to frame 0, idle (see ``Playhead/stop(at:)``).
    @discardableResult
    public func stop(at instant: Instant? = nil) -> [PlayerEvent] {
        perform { $0.stop(at: instant.map(hostTime)) }
    }

    /// Shows `frame` from its start (see ``Playhead/seek(toFrame:)``).
    @discardableResult
    public func seek(toFrame frame: Int) throws(PlayerError) -> [PlayerEvent] {
        var copy = playhead
        let events = try copy.seek(toFrame: frame)
        return perform { $0 = copy; return events }
    }

    /// Moves to a media-time offset (see ``Playhead/seek(toOffset:)``).
    @discardableResult
    public func seek(toOffset offset: Duration) throws(PlayerError) -> [PlayerEvent] {
        var copy = playhead
        let events = try copy.seek(toOffset: offset)
        return perform { $0 = copy; return events }
    }

    /// Whether reduced-motion mode is on (see
    /// ``PlayerConfiguration/reducedMotion``).
    public var reducedMotion: Bool { playhead.reducedMotion }

    /// Switches reduced-motion mode on or off when the host's accessibility
    /// setting changes (see ``Playhead/setReducedMotion(_:)``): switched on
    /// mid-play, the player stops on its ``PlayerConfiguration/stillFrame``,
    /// idle; `play()` still plays on demand, from the beginning.
    @discardableResult
    public func setReducedMotion(_ on: Bool) -> [PlayerEvent] {
        perform { $0.setReducedMotion(on) }
    }

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
        let frame = shown.withLock { $0.frame }
        let result = try drawer.draw(frame: frame, into: buffer, bytesPerRow: bytesPerRow)
        if case .late(let late, _) = result {
            shown.withLock { shown in
                shown.lateDraws += 1
                shown.unreportedLate = late
            }
        }
        return result
    }

    /// The draws so far that found their frame not decoded yet (see
    /// ``draw(into:bytesPerRow:)``).
    public nonisolated var lateDrawCount: Int { shown.withLock { $0.lateDraws } }

    /// Publishes the frame shown for drawing, reports a late draw, and asks
    /// the drawer for the frames due next.
    private func publishShown() {
        let frame = playhead.currentFrame
        let late = shown.withLock { shown -> Int? in
            shown.frame = frame
            defer { shown.unreportedLate = nil }
            return shown.unreportedLate
        }
        if let late {
            lateEvent[0] = .drawnLate(frame: late)
            hub.deliver(lateEvent)
        }
        guard playhead.state == .playing else { return }
        playhead.upcomingFrames(cache.lookahead, into: &upcoming)
        upcoming.insert(frame, at: 0)
        drawer.prefetch(upcoming)
    }

    /// Changes the rate, keeping the position (see ``Playhead/setRate(_:)``).
    public func setRate(_ rate: Double) throws(PlayerError) {
        try playhead.setRate(rate)
        hub.signalWakes()
    }

    /// Moves time forward to `instant`; earlier instants are ignored.
    ///
    /// Allocates nothing when no frame changes, nor when the caller lets go
    /// of the returned events before the next call.
    @discardableResult
    public func advance(to instant: Instant) -> [PlayerEvent] {
        eventBuffer.removeAll(keepingCapacity: true)
        playhead.advance(to: hostTime(instant), into: &eventBuffer)
        hub.deliver(eventBuffer)
        hub.signalWakes()
        syncPlaying()
        return eventBuffer
    }

    /// Moves time forward by `duration`; negative durations are ignored.
    @discardableResult
    public func advance(by duration: Duration) -> [PlayerEvent] {
        eventBuffer.removeAll(keepingCapacity: true)
        playhead.advance(by: duration, into: &eventBuffer)
        hub.deliver(eventBuffer)
        hub.signalWakes()
        syncPlaying()
        return eventBuffer
    }

    /// A driver's tick (see ``DrivenMember``): advance without waking
    /// drivers, then report when the next change is due.
    func tick(to instant: Instant, wake token: Int) -> Instant? {
        hub.consumeWake(token)
        eventBuffer.removeAll(keepingCapacity: true)
        playhead.advance(to: hostTime(instant), into: &eventBuffer)
        hub.deliver(eventBuffer)
        syncPlaying()
        return Self.deadline(nextChangeInstant, afterTickTo: instant, moved: !eventBuffer.isEmpty)
    }

    /// A host's tick through its ``GroupDriver`` (see
    /// ``GroupDriver/tick(at:)``): advance without waking drivers, and say
    /// whether the frame shown changed.
    func hostTick(to instant: Instant) -> (moved: Bool, next: Instant?) {
        let before = playhead.currentFrame
        eventBuffer.removeAll(keepingCapacity: true)
        playhead.advance(to: hostTime(instant), into: &eventBuffer)
        hub.deliver(eventBuffer)
        syncPlaying()
        return (playhead.currentFrame != before, nextChangeInstant)
    }

    private nonisolated func hostTime(_ instant: Instant) -> Duration {
        origin.duration(to: instant)
    }

    private func perform(_ change: (inout Playhead) -> [PlayerEvent]) -> [PlayerEvent] {
        let events = change(&playhead)
        hub.deliver(events)
        hub.signalWakes()
        syncPlaying()
        return events
    }

    /// Tells the cache when the player starts or stops playing, so a shared
    /// ``FrameMemoryBudget`` gives back frames of players not playing first;
    /// publishes the frame shown for ``draw(into:bytesPerRow:)`` and asks
    /// the drawer to decode the frames due next.
    private func syncPlaying() {
        publishShown()
        let playing = playhead.state == .playing
        guard playing != claimsPlaying else { return }
        claimsPlaying = playing
        if playing { cache.beginPlaying() } else { cache.endPlaying() }
    }
}
