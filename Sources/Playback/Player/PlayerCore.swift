@_spi(Engine) import EngineSupport
import Synchronization

/// The synchronous engine under a ``Player``: its ``Playhead``, its
/// listeners, the frame it publishes for drawing, and its claim on the
/// cache, behind one lock, so that every call runs on the caller's thread.
///
/// The ``Player`` actor is a thin asynchronous layer over it. A
/// ``GroupDriver`` ticks a player's core directly, from a host's display
/// link or from its own loop, with no hop to the player's actor: a tick is
/// a lock, the playhead's step, the events delivered, and the look-ahead
/// handed to the drawer; a host's tick before the next change is a lock and
/// a comparison.
///
/// It measures time as host time, a `Duration` from the player's origin,
/// so nothing in it depends on the clock's instant type: a tick costs no
/// generic metadata lookups.
///
/// Events are posted under the lock and reach observers, streams and
/// change watchers after it is released (``deliverEvents()``; see
/// ``EventHub``): one thread delivers at a time, in the order the changes
/// were made, whichever threads made them. So a listener may call back into
/// the player, or into the ``GroupDriver`` ticking it, from its callback:
/// no lock of the library's is held around it. A call's events are
/// delivered before it returns, on its thread, unless another thread is
/// delivering this player's events (that thread then delivers them, after
/// its own) or the call comes from a listener (they follow once it
/// returns). A tick through a group's ``HostTickList`` posts only; the list
/// delivers once its own lock is released.
package final class PlayerCore: EventEngine {
    /// The cache the player reads through and tells when it plays.
    let cache: FrameCache
    /// What ``draw(into:bytesPerRow:)`` draws with.
    let drawer: any FrameDrawer

    /// The state and its listeners, behind the one lock.
    let state: LockedState<State>
    /// The frame a tick published for drawing. This and the two late-draw
    /// figures are the drawing side's own atomics, so a draw never waits for
    /// a tick and takes no lock of the player's.
    private let shownFrame = Atomic<Int>(0)
    /// The draws that were late.
    private let lateDraws = Atomic<Int>(0)
    /// A frame drawn late and not reported yet as
    /// ``PlayerEvent/drawnLate(frame:)``, or -1.
    private let unreportedLate = Atomic<Int>(-1)
    /// Whether the latest draw was late, so that the buffer still owes the
    /// frame shown: a host's tick names the player as changed until a draw
    /// gets through (see ``hostTick(to:)``).
    private let owesDraw = Atomic<Bool>(false)
    /// The task that hands a progressive source's timings in.
    private let growth = TimingSubscription()
    /// What ``Player/currentImage(isolation:)`` draws with, made at its first call
    /// (`.some(nil)`: the source cannot draw, and images come from the
    /// cache).
    private let images = Mutex<DrawnImages??>(nil)
    /// What the draws made of the frames published, for a group's pacing.
    let tally = DrawTally()

    struct State: HubState {
        var playhead: Playhead
        /// Observers, event streams, driver wake-ups and change watchers.
        var hub = EventHub<PlayerEvent>()
        /// The events of the latest advance, reused from call to call.
        var events: [PlayerEvent] = []
        /// The look-ahead list handed to the drawer, reused from call to call.
        var upcoming: [Int] = []
        /// The one event a late draw reports, reused.
        var lateEvent: [PlayerEvent] = [.drawnLate(frame: 0)]
        /// Whether this player has told its cache it plays.
        var claimsPlaying = false
        /// The host time (nanoseconds) of the next change the latest tick
        /// found, or `nil` when none is scheduled: until then a tick changes
        /// nothing but the playhead's time, while `nextChangeHolds`.
        var nextChange: Int64?
        /// Whether nothing but time changed the player since the tick that
        /// found `nextChange`.
        var nextChangeHolds = false
    }

    /// A core playing `playhead` through `cache`, drawing with `drawer`
    /// (`nil`: the cache's, see ``FrameCache/makeDrawer()``) and taking a
    /// progressive source's `updates`.
    package init(
        playhead: Playhead, cache: FrameCache, drawer: (any FrameDrawer)? = nil,
        updates: AsyncStream<FrameSourceTiming>? = nil
    ) {
        self.cache = cache
        self.drawer = drawer ?? cache.makeDrawer()
        self.state = LockedState(State(playhead: playhead))
        state.withLock { state in
            shownFrame.store(state.playhead.currentFrame, ordering: .releasing)
            if state.playhead.state == .playing {
                state.claimsPlaying = true
                cache.beginPlaying()
            }
        }
        if let updates {
            growth.start { [weak self] in
                for await timing in updates {
                    guard let self else { return }
                    self.sourceGrew(timing)
                }
            }
        }
    }

    deinit {
        growth.cancel()
        state.withLock { state in
            if state.claimsPlaying { cache.endPlaying() }
            state.hub.finishStreams()
        }
    }

    // MARK: Reading

    /// `body`'s answer about the playhead as it stands.
    package func read<Result>(_ body: (borrowing Playhead) -> Result) -> Result {
        state.withLock { body($0.playhead) }
    }

    // MARK: Changing

    /// Applies a host's change to the playhead, delivers its events, wakes
    /// the drivers and publishes the frame shown. A change that throws
    /// changes nothing.
    package func perform<Failure: Error>(
        _ change: (inout Playhead) throws(Failure) -> [PlayerEvent]
    ) throws(Failure) -> [PlayerEvent] {
        try changing { (state) throws(Failure) -> [PlayerEvent] in
            var copy = state.playhead
            let events = try change(&copy)
            state.playhead = copy
            state.hub.post(events)
            hostChanged(&state)
            afterChange(&state)
            return events
        }
    }

    /// Applies a change that reports no events (the rate), then wakes the drivers.
    package func update<Failure: Error>(_ change: (inout Playhead) throws(Failure) -> Void) throws(Failure) {
        try state.withLock { (state) throws(Failure) in
            try change(&state.playhead)
            hostChanged(&state)
        }
    }

    /// Runs `body` with the lock held, then delivers the events it posted
    /// with the lock released (see ``LockedState/changing(_:)``).
    private func changing<Result, Failure: Error>(
        _ body: (inout State) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try state.changing(body)
    }

    // MARK: Transport: the controls ``Player`` and `DrawingPlayer` forward to

    /// Starts or resumes at host time `time`, or the playhead's time (see
    /// ``Playhead/play(at:)``).
    package func play(at time: Duration?) -> [PlayerEvent] { perform { $0.play(at: time) } }

    /// Freezes the position at host time `time` (see ``Playhead/pause(at:)``).
    package func pause(at time: Duration?) -> [PlayerEvent] { perform { $0.pause(at: time) } }

    /// Returns to frame 0, idle (see ``Playhead/stop(at:)``).
    package func stop(at time: Duration?) -> [PlayerEvent] { perform { $0.stop(at: time) } }

    /// Shows `frame` from its start (see ``Playhead/seek(toFrame:)``).
    package func seek(toFrame frame: Int) throws(PlayerError) -> [PlayerEvent] {
        try perform { (playhead) throws(PlayerError) in try playhead.seek(toFrame: frame) }
    }

    /// Moves to a media-time offset (see ``Playhead/seek(toOffset:)``).
    package func seek(toOffset offset: Duration) throws(PlayerError) -> [PlayerEvent] {
        try perform { (playhead) throws(PlayerError) in try playhead.seek(toOffset: offset) }
    }

    /// Changes the rate, keeping the position (see ``Playhead/setRate(_:)``).
    package func setRate(_ rate: Double) throws(PlayerError) {
        try update { (playhead) throws(PlayerError) in try playhead.setRate(rate) }
    }

    /// Switches reduced-motion mode (see ``Playhead/setReducedMotion(_:)``).
    package func setReducedMotion(_ on: Bool) -> [PlayerEvent] { perform { $0.setReducedMotion(on) } }

    /// Moves time forward to host time `time` (see ``Player/advance(to:)``).
    package func advance(to time: Duration) -> [PlayerEvent] {
        hostAdvance { $0.advance(to: time, into: &$1) }
    }

    /// Moves time forward by `duration` (see ``Player/advance(by:)``).
    package func advance(by duration: Duration) -> [PlayerEvent] {
        hostAdvance { $0.advance(by: duration, into: &$1) }
    }

    /// A host's advance: `move` reports into the reused event list, which
    /// is delivered, and the drivers woken.
    private func hostAdvance(_ move: (inout Playhead, inout [PlayerEvent]) -> Void) -> [PlayerEvent] {
        changing { state in
            state.events.removeAll(keepingCapacity: true)
            move(&state.playhead, &state.events)
            state.hub.post(state.events)
            hostChanged(&state)
            afterChange(&state)
            return state.events
        }
    }

    /// A driver's tick: advance to host time `time` without waking
    /// drivers, mark the wake-up under `token` consumed, and report the host
    /// time the next change is due (see ``DrivenMember/tick(to:wake:)``).
    /// A deadline already due after a tick that changed nothing means the
    /// playhead cannot move (its time has saturated): it reports `nil`, so
    /// its driver rests until the host changes something instead of waking
    /// again at once for ever.
    func tick(to time: Duration, wake token: Int) -> Duration? {
        changing { state in
            state.hub.consumeWake(token)
            let step = driverStep(&state, to: Nanoseconds.of(time))
            guard let next = step.next.map(Nanoseconds.duration), next > time || step.reported else { return nil }
            return next
        }
    }

    /// A host's tick through its ``GroupDriver``: advance to host time
    /// `time` (in nanoseconds, as the playhead keeps it: the group converts
    /// the host's instant once a tick, not once a player) without waking
    /// drivers, and say whether the frame shown changed, when the next
    /// change is due, and whether events wait: the group's list calls
    /// ``deliverEvents()`` once its lock is released.
    ///
    /// A host ticks at every refresh, and most refreshes fall before a
    /// player's next change: such a tick only moves the playhead's time, as
    /// a full step would, and leaves the look-ahead as the step that found
    /// that change asked for it, unless a late draw is left to report.
    ///
    /// While the latest draw was late, every tick names the player as moved
    /// and its next change as due at once (`time`): a host that draws the
    /// members a tick names, and sleeps until the next change, comes back
    /// at its next refresh to draw the frame it owes, with no list of owed
    /// draws of its own.
    func hostTick(to time: Int64) -> Step {
        let owed = owesDraw.load(ordering: .relaxed)
        return state.withLock { state in
            if !owed, state.nextChangeHolds, time < state.nextChange ?? .max,
               unreportedLate.load(ordering: .relaxed) < 0 {
                state.playhead.passTime(toNanos: time)
                return Step(next: state.nextChange)
            }
            let before = state.playhead.currentFrame
            var step = driverStep(&state, to: time)
            step.moved = owed || state.playhead.currentFrame != before
            if owed { step.next = min(step.next ?? time, time) }
            step.deliveryDue = state.hub.deliveryDue
            return step
        }
    }

    /// What a tick did.
    struct Step {
        /// Whether the frame shown changed.
        var moved = false
        /// Whether the tick reported events.
        var reported = false
        /// The host time the next change is due, in nanoseconds, or `nil`.
        var next: Int64?
        /// Whether posted events wait for ``deliverEvents()``.
        var deliveryDue = false
    }

    /// The advance both ticks make.
    private func driverStep(_ state: inout State, to time: Int64) -> Step {
        state.events.removeAllKeepingCapacity()
        let next = state.playhead.advanceToNextChange(from: time, into: &state.events)
        state.nextChange = next
        state.nextChangeHolds = true
        state.hub.post(state.events)
        afterChange(&state)
        return Step(reported: !state.events.isEmpty, next: next)
    }

    /// Takes on a progressive source's newer timing and wakes the drivers, so
    /// a wait ends at the clock's time. A timing that does not extend the one
    /// played is ignored.
    private func sourceGrew(_ timing: FrameSourceTiming) {
        state.withLock { state in
            let before = state.playhead.timeline
            do {
                try state.playhead.extend(to: timing)
            } catch {
                return
            }
            if state.playhead.timeline != before { hostChanged(&state) }
        }
    }

    /// A change other than time passing (the host's, or frames arriving):
    /// the next change a tick found no longer holds, and the drivers are
    /// woken to find the new one.
    private func hostChanged(_ state: inout State) {
        state.nextChangeHolds = false
        state.hub.signalWakes()
    }

    /// Publishes the frame shown for drawing, reports a late draw, asks the
    /// drawer for the frames due next (when it may lack some), and tells the
    /// cache when the player starts or stops playing (so a shared
    /// ``FrameMemoryBudget`` gives back frames of players not playing first).
    private func afterChange(_ state: inout State) {
        let frame = state.playhead.currentFrame
        if shownFrame.load(ordering: .relaxed) != frame { tally.published() }
        shownFrame.store(frame, ordering: .releasing)
        // Most ticks find no late draw: a load, and an exchange only then.
        if unreportedLate.load(ordering: .relaxed) >= 0 {
            let late = unreportedLate.exchange(-1, ordering: .acquiringAndReleasing)
            if late >= 0 {
                state.lateEvent[0] = .drawnLate(frame: late)
                state.hub.post(state.lateEvent)
            }
        }
        let playing = state.playhead.state == .playing
        if playing, drawer.needsPrefetch {
            state.playhead.upcomingFrames(cache.lookahead, into: &state.upcoming)
            state.upcoming.insert(frame, at: 0)
            drawer.prefetch(state.upcoming)
        }
        guard playing != state.claimsPlaying else { return }
        state.claimsPlaying = playing
        if playing { cache.beginPlaying() } else { cache.endPlaying() }
    }

    /// The canvases ``Player/currentImage(isolation:)`` draws into, or `nil` when the
    /// source cannot draw (see ``DrawnImages``).
    func drawnImages() -> DrawnImages? {
        images.withLock { made in
            if let made { return made }
            let store = DrawnImages(cache: cache)
            made = .some(store)
            return store
        }
    }

    /// The bytes of ``drawnImages()``'s canvases, 0 before it is made.
    var drawnImageCanvasBytes: Int { images.withLock { $0??.canvasBytes ?? 0 } }

    /// The frame shown and the frames due next, for ``Player/currentImage(isolation:)``.
    func frameAndUpcoming() -> (frame: Int, upcoming: [Int]) {
        state.withLock { state in
            state.playhead.upcomingFrames(cache.lookahead, into: &state.upcoming)
            return (state.playhead.currentFrame, state.upcoming)
        }
    }

    // MARK: Drawing

    /// See ``Player/draw(into:bytesPerRow:)``.
    package func draw(into buffer: UnsafeMutableRawBufferPointer, bytesPerRow: Int) throws(PixelBufferError) -> FrameDraw {
        let publication = tally.publication
        let frame = shownFrame.load(ordering: .acquiring)
        let result = try drawer.draw(frame: frame, into: buffer, bytesPerRow: bytesPerRow)
        tally.record(result, of: publication)
        if case .late(let late, _) = result {
            lateDraws.add(1, ordering: .relaxed)
            unreportedLate.store(late, ordering: .releasing)
            owesDraw.store(true, ordering: .relaxed)
        } else if owesDraw.load(ordering: .relaxed) {
            owesDraw.store(false, ordering: .relaxed)
        }
        return result
    }

    /// See ``Player/lateDrawCount``.
    var lateDrawCount: Int { lateDraws.load(ordering: .relaxed) }
}
