/// The schedule of one animation under a configuration: display durations,
/// the play order of one loop, start offsets, loop and total duration.
///
/// A timeline is pure data derived from a ``FrameSource``'s timing and a
/// ``PlayerConfiguration``; it does not change while a player runs. *Steps*
/// are the positions of one loop in play order (for ``PlaybackDirection/bounce``
/// a frame appears twice per loop); *media time* is time measured along the
/// timeline from the start of loop 0, before the playback rate applies.
///
/// A timeline of a ``ProgressiveFrameSource`` that is not complete yet
/// (`isComplete` is `false`) holds the frames available so far: forward
/// and bounce play them in order (the start of the final play order); a
/// reverse order starts at the last frame, so it has no step available
/// until the source is complete (it shows frame 0 meanwhile). Its
/// ``plays`` follow the loop count stored so far, but no loop ends before
/// the source is complete, and ``totalDuration`` is `nil` until then.
public struct PlaybackTimeline: Sendable, Hashable {
    /// Each frame's display duration after the ``DelayPolicy``, by frame index.
    @_spi(Benchmarks) public let frameDurations: [Duration]

    /// The frame indices of one loop in play order.
    @_spi(Benchmarks) public let playOrder: [Int]

    /// The number of plays in all, or `nil` for forever (after ``LoopPolicy``).
    public let plays: Int?

    /// The loop count as the source stores it (see
    /// `storedLoopCount`), kept next to the effective ``plays``.
    package let storedLoopCount: Int?

    /// Whether every frame is known; `false` while a ``ProgressiveFrameSource``
    /// still expects frames.
    public let isComplete: Bool

    /// The steps that can be shown: all of ``playOrder`` once complete, the
    /// frames arrived so far before.
    package let availableStepCount: Int

    let stepNanos: [Int64]
    let stepStartNanos: [Int64]
    let loopNanos: Int64
    /// Media time at which the available steps run out (``loopNanos`` once
    /// complete).
    let availableEndNanos: Int64

    /// Builds the timeline from raw timing facts.
    /// - Parameters:
    ///   - frameDelays: The stored delay of each frame.
    ///   - storedLoopCount: The stored loop count (`nil`: no extension).
    ///   - loop: How many plays in all.
    ///   - delay: How stored delays become display durations.
    ///   - direction: The play order of one loop.
    ///   - isComplete: Whether every frame is known (`false` for the frames
    ///     of a ``ProgressiveFrameSource`` so far).
    /// - Throws: ``PlayerError/emptySource`` when there are no delays.
    public init(
        frameDelays: [Duration],
        storedLoopCount: Int?,
        loop: LoopPolicy = .fromSource,
        delay: DelayPolicy = .browser,
        direction: PlaybackDirection = .forward,
        isComplete: Bool = true
    ) throws(PlayerError) {
        guard !frameDelays.isEmpty else { throw .emptySource }
        let durations = frameDelays.map { delay.displayDuration(forStoredDelay: $0) }
        let order: [Int]
        let available: Int
        switch (isComplete, direction) {
        case (true, _):
            order = direction.playOrder(frameCount: durations.count)
            available = order.count
        case (false, .reverse):
            // The reverse order starts at a frame not known yet.
            order = [0]
            available = 0
        case (false, .forward), (false, .bounce):
            order = Array(0..<durations.count)
            available = order.count
        }
        let frameNanos = durations.map(Nanoseconds.of)
        var starts: [Int64] = []
        var total: Int64 = 0
        for frame in order {
            starts.append(total)
            total = Nanoseconds.add(total, frameNanos[frame])
        }
        self.frameDurations = durations
        self.playOrder = order
        self.plays = loop.plays(storedLoopCount: storedLoopCount)
        self.storedLoopCount = storedLoopCount
        self.stepNanos = order.map { frameNanos[$0] }
        self.stepStartNanos = starts
        self.loopNanos = total
        self.isComplete = isComplete
        self.availableStepCount = available
        self.availableEndNanos = available < starts.count ? starts[available] : total
    }

    /// Builds the timeline of `source` under `configuration`.
    /// - Throws: ``PlayerError/emptySource`` or
    ///   ``PlayerError/mismatchedDelays(frameCount:delayCount:)``.
    package init(source: some FrameSource, configuration: PlayerConfiguration = .init()) throws(PlayerError) {
        if source is any ProgressiveFrameSource {
            // Frames may arrive between reads: only the snapshot is consistent.
            try self.init(timing: source.timing, configuration: configuration)
            return
        }
        guard source.frameCount > 0 else { throw .emptySource }
        guard source.frameDelays.count == source.frameCount else {
            throw .mismatchedDelays(frameCount: source.frameCount, delayCount: source.frameDelays.count)
        }
        try self.init(timing: source.timing, configuration: configuration)
    }

    /// Builds the timeline of a source's `timing` under `configuration`.
    /// - Throws: ``PlayerError/emptySource`` when no frame is available.
    package init(timing: FrameSourceTiming, configuration: PlayerConfiguration = .init()) throws(PlayerError) {
        try self.init(
            frameDelays: timing.frameDelays,
            storedLoopCount: timing.storedLoopCount,
            loop: configuration.loop,
            delay: configuration.delay,
            direction: configuration.direction,
            isComplete: timing.isComplete
        )
    }

    /// The number of frames in the source.
    public var frameCount: Int { frameDurations.count }

    /// The number of steps in one loop (`2n - 2` for a bounce of `n > 2`).
    package var stepsPerLoop: Int { playOrder.count }

    /// Each step's display duration, in play order.
    package var stepDurations: [Duration] { stepNanos.map(Nanoseconds.duration) }

    /// Each step's start offset from the start of its loop, in play order.
    package var stepStartOffsets: [Duration] { stepStartNanos.map(Nanoseconds.duration) }

    /// The start offset within a loop of the first step that shows `frame`,
    /// or `nil` when `frame` is out of range.
    /// - Parameter frame: A frame index.
    package func startOffset(ofFrame frame: Int) -> Duration? {
        firstStep(showing: frame).map { Nanoseconds.duration(stepStartNanos[$0]) }
    }

    /// The duration of one loop: the sum of its step durations.
    public var loopDuration: Duration { Nanoseconds.duration(loopNanos) }

    /// The duration of all plays, or `nil` when the animation loops forever
    /// or is not complete yet.
    public var totalDuration: Duration? { totalNanos.map(Nanoseconds.duration) }

    var totalNanos: Int64? {
        guard isComplete else { return nil }
        return plays.map { Nanoseconds.multiply(Int64(clamping: $0), loopNanos) }
    }

    /// The global index of the last step of the last loop (finite plays only).
    /// Saturates: `plays × stepsPerLoop` past `Int.max` (`LoopPolicy.count(.max)`)
    /// is `Int.max`, not a wrapped value that would end playback at once.
    var lastStep: Int? {
        guard isComplete else { return nil }
        return plays.map { plays in
            let (steps, overflow) = plays.multipliedReportingOverflow(by: stepsPerLoop)
            return overflow ? Int.max : max(0, steps - 1)
        }
    }

    func firstStep(showing frame: Int) -> Int? {
        playOrder.prefix(availableStepCount).firstIndex(of: frame)
    }

    /// Whether `newer` is this timeline grown: at least as many frames with
    /// the same durations for those known, and no change once complete.
    func isExtended(by newer: PlaybackTimeline) -> Bool {
        if isComplete { return newer == self }
        return newer.frameCount >= frameCount
            && newer.frameDurations.prefix(frameCount).elementsEqual(frameDurations)
    }

    /// Start of global step `step` in media nanoseconds.
    func startNanos(ofStep step: Int) -> Int64 {
        startNanos(loop: step / stepsPerLoop, step: step % stepsPerLoop)
    }

    /// End of global step `step` in media nanoseconds.
    func endNanos(ofStep step: Int) -> Int64 {
        endNanos(loop: step / stepsPerLoop, step: step % stepsPerLoop)
    }

    /// Start of step `within` of loop `loop` in media nanoseconds.
    func startNanos(loop: Int, step within: Int) -> Int64 {
        Nanoseconds.add(Nanoseconds.multiply(Int64(loop), loopNanos), stepStartNanos[within])
    }

    /// End of step `within` of loop `loop` in media nanoseconds.
    func endNanos(loop: Int, step within: Int) -> Int64 {
        Nanoseconds.add(startNanos(loop: loop, step: within), stepNanos[within])
    }

    /// The global step whose interval contains media time `media` (ignoring
    /// the end of a finite animation), or 0 when the loop has no duration.
    /// A player stepping on passes the step it shows within its loop as
    /// `hint`: that step and the one after it are tried before a binary
    /// search, whose mispredicted branches a player would otherwise pay at
    /// every tick.
    func step(containing media: Int64, near hint: Int? = nil) -> Int {
        guard loopNanos > 0 else { return 0 }
        let loop = max(0, media) / loopNanos
        let within = max(0, media) % loopNanos
        // Largest step whose start is at or before `within`: zero-length steps
        // share their start with the next step and so are never chosen.
        // Step `i` is that step when `within` lies in its interval.
        func contains(_ i: Int) -> Bool {
            stepStartNanos[i] <= within && (i + 1 == stepsPerLoop || within < stepStartNanos[i + 1])
        }
        var low = 0
        if let hint, (0..<stepsPerLoop).contains(hint), contains(hint) {
            low = hint
        } else if let hint, (0..<stepsPerLoop).contains(hint), case let guess = hint + 1 == stepsPerLoop ? 0 : hint + 1,
                  contains(guess) {
            low = guess
        } else {
            var high = stepsPerLoop - 1
            while low < high {
                let middle = (low + high + 1) / 2
                if stepStartNanos[middle] <= within { low = middle } else { high = middle - 1 }
            }
        }
        let base = Int(clamping: loop).multipliedReportingOverflow(by: stepsPerLoop)
        return base.overflow ? Int.max - stepsPerLoop : base.partialValue + low
    }
}
