/// The deterministic core of playback: a value that turns host time into the
/// frame to show and the events that happened on the way.
///
/// A playhead never reads a clock. Time is a `Duration` on the host's time
/// axis (time since any fixed origin the host picks, such as an epoch
/// instant), passed in with ``advance(to:)`` or ``advance(by:)``; every
/// method that changes the position acts at the latest time passed in
/// (``now``), or first advances to the `at` time when one is given. Equal
/// inputs therefore give equal outputs, to the nanosecond.
///
/// ``Player`` wraps a playhead in an actor with event delivery, a frame cache
/// and `Clock` instants; use a playhead directly when the host runs its own
/// synchronous loop (a game, a terminal UI).
///
/// ```swift
/// let timeline = try PlaybackTimeline(frameDelays: [.milliseconds(100), .milliseconds(100)], storedLoopCount: nil)
/// var head = try Playhead(timeline: timeline)      // idle, frame 0 shown
/// head.play()                                       // at .zero
/// let events = head.advance(to: .milliseconds(100))
/// print(events)                                     // [.frameChanged(frame: 1)]
/// ```
///
/// Position is the step shown (its loop and frame) plus media time; media
/// time runs at ``rate`` times host time while playing and stands still
/// otherwise. Under ``CatchUpPolicy/carryLag`` media time may run past the
/// end of the step shown: that excess is the lag being carried.
///
/// Shared epoch: a playhead created with an `epoch` places media time zero at
/// that host time on its first `play()`, so every playhead given the same
/// epoch shows the same frame at the same host time, whenever each started
/// and however often each was ticked (under ``CatchUpPolicy/skip`` or a
/// ``CatchUpPolicy/resync(after:)`` stall shorter than its limit).
/// `pause()`, seeks and rate changes move a playhead off the shared timeline;
/// ``stop(at:)`` followed by ``play(at:)`` joins it again. Without an epoch, the
/// timeline starts when ``play(at:)`` is first called.
///
/// Progressive sources: a timeline that is not complete yet (see
/// ``PlaybackTimeline/isComplete``) plays the frames it has; when the shown
/// frame's time runs out and the next has not arrived, the playhead keeps
/// showing it, reports ``PlayerEvent/waitingForFrame(frame:)`` and
/// ``isWaiting``, and goes on under the ``WaitPolicy`` once ``extend(to:)``
/// brings more frames (at the next time passed in). No loop ends before the
/// timeline is complete.
public struct Playhead: Sendable, Hashable {
    /// The schedule being played; it grows with ``extend(to:)``.
    public internal(set) var timeline: PlaybackTimeline {
        didSet { placeStep() }
    }

    /// The policies in force. The ``PlayerConfiguration/rate`` stored here is
    /// the initial rate; ``rate`` is the current one.
    package let configuration: PlayerConfiguration

    /// The life-cycle state.
    public internal(set) var state: PlayerState

    /// The current playback rate (see ``setRate(_:)``).
    public internal(set) var rate: Double

    /// The shared epoch on the host time axis, if any.
    package let epoch: Duration?

    /// The latest host time passed in.
    public var now: Duration { Nanoseconds.duration(nowNanos) }

    var nowNanos: Int64
    /// Global step shown: loop × steps per loop + step in loop.
    var step: Int {
        didSet { placeStep() }
    }
    /// ``step``'s loop and its step within the loop, kept as the step and
    /// the timeline change: read on every tick (the frame shown, a loop
    /// crossed, the next change's time), where dividing each time cost
    /// about ten divisions a frame.
    private(set) var stepLoop = 0
    private(set) var stepInLoop = 0
    /// Host time at which media time was ``anchorMedia`` (while playing).
    var anchorHost: Int64
    /// Media time at ``anchorHost`` while playing, or the frozen media time.
    var anchorMedia: Int64
    /// While waiting for frames: the media time at which the available
    /// steps ran out; `nil` otherwise.
    var waitMedia: Int64?
    /// While waiting: the host time at which the wait began.
    var waitHost: Int64 = 0
    /// While waiting: the frame shown when the wait began.
    var waitFrame = 0
    /// While a play runs under a ``PlayerConfiguration/playTimeLimit``: the
    /// media time at which it stops; `nil` otherwise.
    var limitMedia: Int64?
    /// Idle on a still frame (reduced motion): the next `play()` starts
    /// from the beginning.
    var restartOnPlay = false

    /// Whether reduced-motion mode is on (see
    /// ``PlayerConfiguration/reducedMotion`` and ``setReducedMotion(_:)``).
    package internal(set) var reducedMotion: Bool

    /// Whether the playhead waits for a frame that has not arrived: the
    /// shown frame's time is up, the timeline is not complete and has no
    /// step after it (see ``WaitPolicy``). Stays set while paused.
    public var isWaiting: Bool { waitMedia != nil }

    /// Creates a playhead showing frame 0 of loop 0 (the first step in play
    /// order) in state ``PlayerState/idle``, or already playing when
    /// ``PlayerConfiguration/autoplay`` is on (no events are reported for that
    /// start; read ``currentFrame``). In reduced-motion mode it shows the
    /// ``PlayerConfiguration/stillFrame``, idle, whatever the autoplay.
    /// - Parameters:
    ///   - timeline: The schedule to play.
    ///   - configuration: The policies; its rate is validated.
    ///   - now: The host time at creation.
    ///   - epoch: A shared epoch on the same time axis, or `nil` to start the
    ///     timeline at the first `play()`.
    /// - Throws: ``PlayerError/invalidRate(_:)``.
    public init(
        timeline: PlaybackTimeline,
        configuration: PlayerConfiguration = .init(),
        now: Duration = .zero,
        epoch: Duration? = nil
    ) throws(PlayerError) {
        try PlayerConfiguration.validate(rate: configuration.rate)
        self.timeline = timeline
        self.configuration = configuration
        self.state = .idle
        self.rate = configuration.rate
        self.epoch = epoch
        self.nowNanos = Nanoseconds.of(now)
        self.step = 0
        self.anchorHost = nowNanos
        self.anchorMedia = 0
        self.reducedMotion = configuration.reducedMotion
        if reducedMotion {
            var ignored: [PlayerEvent] = []
            showStillFrame(&ignored)
        } else if configuration.autoplay {
            _ = play()
        }
    }

    /// Starts or resumes playback at ``now`` (after advancing to `time`, if
    /// given).
    ///
    /// - From ``PlayerState/paused``: continues at the same frame and the
    ///   same time into it, to the nanosecond.
    /// - From ``PlayerState/idle``: starts at the position shown (frame 0, or
    ///   where a seek put it); with an epoch, jumps to the frame the epoch
    ///   says (reporting `frameChanged` only, no loop events for loops that
    ///   passed before this playhead joined).
    /// - From ``PlayerState/finished`` or ``PlayerState/timeLimitReached``:
    ///   starts again from loop 0, frame 0.
    /// - From idle on a still frame (reduced motion): starts from loop 0,
    ///   frame 0, as from finished.
    /// - While playing: does nothing.
    ///
    /// A play from idle, finished or a reached limit gets the whole
    /// ``PlayerConfiguration/playTimeLimit``; a resumed one what was left.
    /// - Returns: The events, in order.
    @discardableResult
    public mutating func play(at time: Duration? = nil) -> [PlayerEvent] {
        var events = time.map { advance(to: $0) } ?? []
        switch state {
        case .playing:
            return events
        case .paused:
            anchorHost = nowNanos
            state = .playing
        case .finished, .timeLimitReached:
            moveHome(&events)
            start(&events)
        case .idle:
            if restartOnPlay { moveHome(&events) }
            start(&events)
        }
        restartOnPlay = false
        if state == .playing, limitMedia == nil, let limit = configuration.playTimeLimit {
            limitMedia = Nanoseconds.add(mediaNanos(at: nowNanos), max(0, Nanoseconds.of(limit)))
            if limit <= .zero { reachTimeLimit(&events) }
        }
        return events
    }

    /// Freezes the position at ``now`` (after advancing to `time`, if given).
    /// Only a playing playhead pauses; in other states this does nothing
    /// beyond the advance.
    /// - Returns: The events of the advance, if any.
    @discardableResult
    public mutating func pause(at time: Duration? = nil) -> [PlayerEvent] {
        let events = time.map { advance(to: $0) } ?? []
        if state == .playing {
            anchorMedia = mediaNanos(at: nowNanos)
            anchorHost = nowNanos
            state = .paused
        }
        return events
    }

    /// Returns to frame 0 of loop 0 (the first step in play order) in state
    /// ``PlayerState/idle``, reporting `frameChanged` if another frame was
    /// shown. In reduced-motion mode it shows the
    /// ``PlayerConfiguration/stillFrame`` instead (of frame 0, loop 0, for
    /// ``StillFrame/shown``).
    /// - Returns: The events, in order.
    @discardableResult
    public mutating func stop(at time: Duration? = nil) -> [PlayerEvent] {
        var events = time.map { advance(to: $0) } ?? []
        // One frameChanged at most, for the net move (moves here report
        // nothing else).
        let before = currentFrame
        var moves: [PlayerEvent] = []
        moveHome(&moves)
        state = .idle
        limitMedia = nil
        restartOnPlay = false
        if reducedMotion { showStillFrame(&moves) }
        if currentFrame != before { events.append(.frameChanged(frame: currentFrame)) }
        return events
    }

    /// Switches reduced-motion mode on or off (the host's accessibility
    /// setting changed), at ``now``.
    ///
    /// - On, while playing or paused: motion stops. The playhead goes idle
    ///   showing the ``PlayerConfiguration/stillFrame`` (reporting
    ///   `frameChanged` if another frame was shown); the next `play()`
    ///   starts from the beginning. While idle it shows the still frame
    ///   too; a finished or time-limited playhead, already still, stays.
    /// - Off: nothing moves or changes on screen; autoplay does not start.
    ///   The next `play()` starts from the beginning.
    /// - Returns: The events, in order.
    @discardableResult
    public mutating func setReducedMotion(_ on: Bool) -> [PlayerEvent] {
        guard on != reducedMotion else { return [] }
        reducedMotion = on
        var events: [PlayerEvent] = []
        guard on else { return events }
        switch state {
        case .playing, .paused:
            anchorMedia = mediaNanos(at: nowNanos)
            anchorHost = nowNanos
            state = .idle
            waitMedia = nil
            limitMedia = nil
            showStillFrame(&events)
        case .idle:
            showStillFrame(&events)
        case .finished, .timeLimitReached:
            break
        }
        return events
    }

    /// Changes the playback rate at ``now``, keeping the position: the frame
    /// and the time into it are unchanged, only what follows speeds up or
    /// slows down.
    /// - Parameter rate: The new rate, finite and in
    ///   ``PlayerConfiguration/rateRange``.
    /// - Throws: ``PlayerError/invalidRate(_:)``; the rate is then unchanged.
    public mutating func setRate(_ rate: Double) throws(PlayerError) {
        try PlayerConfiguration.validate(rate: rate)
        if state == .playing {
            anchorMedia = mediaNanos(at: nowNanos)
            anchorHost = nowNanos
        }
        self.rate = rate
    }

    // MARK: Internals shared by the extensions

    /// Sets ``stepLoop`` and ``stepInLoop`` from ``step``.
    private mutating func placeStep() {
        let perLoop = timeline.stepsPerLoop
        (stepLoop, stepInLoop) = perLoop > 0 ? step.quotientAndRemainder(dividingBy: perLoop) : (0, 0)
    }

    /// Start and end of the step shown in media nanoseconds.
    var shownStepStartNanos: Int64 { timeline.startNanos(loop: stepLoop, step: stepInLoop) }
    var shownStepEndNanos: Int64 { timeline.endNanos(loop: stepLoop, step: stepInLoop) }

    /// Media time at host time `host`: frozen unless playing (and while
    /// waiting under ``WaitPolicy/resumeFromArrival``), never negative.
    @inline(__always)
    func mediaNanos(at host: Int64) -> Int64 {
        guard state == .playing, waitMedia == nil || configuration.waiting == .keepSchedule else { return anchorMedia }
        let elapsed = Nanoseconds.subtract(host, anchorHost)
        return max(0, Nanoseconds.add(anchorMedia, Nanoseconds.media(forHost: elapsed, rate: rate)))
    }

    /// Sets state to playing with the anchor at ``now`` or at the epoch.
    private mutating func start(_ events: inout [PlayerEvent]) {
        state = .playing
        guard let epoch else {
            anchorHost = nowNanos
            if !timeline.isComplete {
                _ = waitIfOutOfFrames(&events)
            } else if timeline.loopNanos == 0 {
                finishWithoutDuration(&events)
            }
            return
        }
        // Join the shared timeline: one frameChanged for the net move, no
        // loop events for loops that passed before this playhead joined.
        let before = currentFrame
        var joined: [PlayerEvent] = []
        step = 0
        anchorHost = Nanoseconds.of(epoch)
        anchorMedia = 0
        if !timeline.isComplete, waitIfOutOfFrames(&joined) {
            // Joined where the frames run out: the last one is shown, waiting.
        } else if timeline.loopNanos == 0 {
            finishWithoutDuration(&joined)
        } else {
            skip(toMedia: mediaNanos(at: nowNanos), reportingLoops: false, &joined)
        }
        if currentFrame != before { events.append(.frameChanged(frame: currentFrame)) }
        if state == .finished { events.append(.finished) }
        if isWaiting { events.append(.waitingForFrame(frame: timeline.frameCount)) }
    }

    /// Shows the ``PlayerConfiguration/stillFrame`` in the current loop,
    /// marking that the next `play()` starts from the beginning.
    mutating func showStillFrame(_ events: inout [PlayerEvent]) {
        restartOnPlay = true
        let loopStart = stepLoop * timeline.stepsPerLoop
        let inLoop: Int?
        switch configuration.stillFrame {
        case .shown:
            inLoop = nil
        case .last:
            let available = timeline.isComplete ? timeline.stepsPerLoop : timeline.availableStepCount
            inLoop = available > 0 ? available - 1 : nil
        case .frame(let frame):
            inLoop = timeline.firstStep(showing: frame)
        }
        guard let inLoop else { return }
        move(toStep: loopStart + inLoop, reportingLoops: false, &events)
    }

    /// Host time at which the play's ``PlayerConfiguration/playTimeLimit``
    /// is reached under the current anchor, or `nil` when no limit runs or
    /// media time stands still (not playing, or waiting for frames under
    /// ``WaitPolicy/resumeFromArrival``).
    func limitHostNanos() -> Int64? {
        guard state == .playing, let limitMedia else { return nil }
        if waitMedia != nil, configuration.waiting == .resumeFromArrival { return nil }
        return hostNanos(whenMediaReaches: limitMedia)
    }

    /// Stops the play at ``now``: the still frame, state
    /// ``PlayerState/timeLimitReached``, event
    /// ``PlayerEvent/timeLimitReached``.
    mutating func reachTimeLimit(_ events: inout [PlayerEvent]) {
        anchorMedia = mediaNanos(at: nowNanos)
        anchorHost = nowNanos
        waitMedia = nil
        limitMedia = nil
        state = .timeLimitReached
        showStillFrame(&events)
        restartOnPlay = false
        events.append(.timeLimitReached)
    }

    /// A loop without duration cannot advance: a finite animation is over at
    /// once, an endless one stays on its first step.
    private mutating func finishWithoutDuration(_ events: inout [PlayerEvent]) {
        if timeline.plays != nil { finish(&events, reportingLoops: false) }
    }

    /// Moves to step 0 with media time 0, keeping the state.
    private mutating func moveHome(_ events: inout [PlayerEvent]) {
        waitMedia = nil
        anchorMedia = 0
        anchorHost = nowNanos
        move(toStep: 0, reportingLoops: false, &events)
    }
}
