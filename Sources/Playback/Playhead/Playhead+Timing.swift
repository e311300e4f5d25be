extension Playhead {
    /// The index (in the source) of the frame shown now.
    public var currentFrame: Int {
        timeline.playOrder[stepInLoop]
    }

    /// The step shown now within its loop (an index into
    /// ``PlaybackTimeline/playOrder``).
    package var currentStep: Int { stepInLoop }

    /// The zero-based loop the shown step belongs to.
    package var loopIndex: Int { stepLoop }

    /// Loops fully played: `loopIndex` while running, all plays once
    /// finished.
    package var loopsCompleted: Int {
        state == .finished ? (timeline.plays ?? loopIndex) : loopIndex
    }

    /// Media time elapsed since the start of loop 0 at ``now``: the position
    /// on the timeline, across loops, before the rate applies.
    public var elapsed: Duration { Nanoseconds.duration(mediaNanos(at: nowNanos)) }

    /// Media time spent in the shown frame so far. Under
    /// ``CatchUpPolicy/carryLag`` this can exceed the frame's duration by the
    /// lag being carried.
    public var timeIntoFrame: Duration {
        Nanoseconds.duration(Nanoseconds.subtract(mediaNanos(at: nowNanos), shownStepStartNanos))
    }

    /// The host time at which the shown step ends and the next change is due,
    /// or `nil` when nothing will change without a call from the host
    /// (idle, paused, finished, or a loop without duration).
    ///
    /// Computed from the anchor (the epoch or the last play, seek or rate
    /// change), never by adding up frame durations tick after tick, so a host
    /// that sleeps until this time accumulates no error. It may lie before
    /// ``now`` while a ``CatchUpPolicy/carryLag`` lag is being worked off.
    ///
    /// Also `nil` at the end of representable time: once host time has
    /// saturated (about 292 years after the origin), or when the shown step
    /// ends where media time saturates (an epoch centuries back, a high
    /// rate), nothing moves any more, and a driver must rest instead of
    /// waking again at once for a change that never comes.
    ///
    /// While waiting for frames (``isWaiting``): `nil` until frames arrive
    /// (``extend(to:)``), then ``now``, due at once.
    ///
    /// Under a ``PlayerConfiguration/playTimeLimit``, the instant the limit
    /// is reached when that comes first (also while waiting under
    /// ``WaitPolicy/keepSchedule``, whose clock runs on).
    public var nextChangeTime: Duration? { nextChangeNanos.map(Nanoseconds.duration) }

    /// ``nextChangeTime`` in host nanoseconds, inlined into a driver's tick
    /// (``advanceToNextChange(from:into:)``), which a call would pass a
    /// copy of the playhead.
    @inline(__always)
    var nextChangeNanos: Int64? {
        guard state == .playing, nowNanos < .max else { return nil }
        let limit = limitHostNanos()
        if isWaiting { return waitIsOver ? nowNanos : limit }
        guard timeline.loopNanos > 0 || !timeline.isComplete else { return limit }
        let end = shownStepEndNanos
        guard end < .max else { return limit }
        let change = hostNanos(whenMediaReaches: end)
        return limit.map { min($0, change) } ?? change
    }

    /// Host time from ``now`` until ``nextChangeTime`` (zero when it is
    /// already due), or `nil` when nothing is scheduled: the host's next
    /// wake-up.
    public var timeUntilNextChange: Duration? {
        nextChangeTime.map { max(.zero, $0 - now) }
    }

    /// The frames the next `count` steps will show, in play order, stopping
    /// at the end of a finite animation; a frame cache decodes these ahead.
    /// - Parameter count: How many steps to look ahead.
    package func upcomingFrames(_ count: Int) -> [Int] {
        var frames: [Int] = []
        upcomingFrames(count, into: &frames)
        return frames
    }

    /// ``upcomingFrames(_:)`` written over `frames`, reusing its storage.
    func upcomingFrames(_ count: Int, into frames: inout [Int]) {
        frames.removeAllKeepingCapacity()
        guard count > 0, state != .finished else { return }
        let last = timeline.isComplete ? (timeline.lastStep ?? Int.max) : timeline.availableStepCount - 1
        var next = step
        while frames.count < count, next < last {
            next += 1
            frames.append(timeline.playOrder[next % timeline.stepsPerLoop])
        }
    }
}
