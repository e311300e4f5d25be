extension Playhead {
    /// Moves host time forward to `time` and plays whatever happened by then
    /// under the ``CatchUpPolicy``.
    ///
    /// Time never runs backwards: a `time` before ``now`` is ignored (no
    /// change, no events). The same time twice is harmless.
    /// - Parameter time: The host time now.
    /// - Returns: The events, in the order documented on ``PlayerEvent``.
    @discardableResult
    public mutating func advance(to time: Duration) -> [PlayerEvent] {
        var events: [PlayerEvent] = []
        advance(to: time, into: &events)
        return events
    }

    /// ``advance(to:)``, appending the events to `events`: a player reuses
    /// one buffer so that a frame change allocates nothing.
    mutating func advance(to time: Duration, into events: inout [PlayerEvent]) {
        advance(toNanos: Nanoseconds.of(time), into: &events)
    }

    /// ``advance(to:into:)`` to host time `host` in nanoseconds.
    mutating func advance(toNanos host: Int64, into events: inout [PlayerEvent]) {
        guard host >= nowNanos else { return }
        // A play-time limit within reach: play up to its instant, and stop
        // there if it still holds (a wait that ended on the way moves it).
        while let limit = limitHostNanos(), limit <= host {
            advanceFreely(to: max(nowNanos, limit), into: &events)
            if let again = limitHostNanos(), again <= nowNanos {
                reachTimeLimit(&events)
                break
            }
            guard let again = limitHostNanos(), again > nowNanos else { break }
        }
        advanceFreely(to: host, into: &events)
    }

    /// ``advance(to:into:)`` to host time `host` when no change is due
    /// before it (``nextChangeTime`` is later, or `nil`): the playhead's time
    /// moves and nothing else does.
    mutating func passTime(toNanos host: Int64) {
        if host > nowNanos { nowNanos = host }
    }

    /// ``advance(to:into:)``, then ``nextChangeTime``, read in place: a
    /// driver's tick, which reading it from outside would copy the
    /// playhead for.
    mutating func advanceToNextChange(from time: Int64, into events: inout [PlayerEvent]) -> Int64? {
        advance(toNanos: time, into: &events)
        return nextChangeNanos
    }

    /// ``advance(to:into:)`` without the play-time limit: `host` is at or
    /// after ``now``.
    private mutating func advanceFreely(to host: Int64, into events: inout [PlayerEvent]) {
        nowNanos = host
        guard state == .playing else { return }
        // A progressive timeline: wait where the frames run out, go on once more came.
        guard endWaitIfArrived(&events), !waitIfOutOfFrames(&events) else { return }
        guard timeline.loopNanos > 0 else { return }
        let media = mediaNanos(at: host)
        switch configuration.catchUp {
        case .skip:
            skip(toMedia: media, reportingLoops: true, &events)
        case .carryLag:
            // A step that ends where media time saturates never ends:
            // stepping past it each tick would play on at the end of time.
            let end = shownStepEndNanos
            if media >= end, end < .max {
                stepOnce(&events)
            }
        case .resync(let limit):
            let end = shownStepEndNanos
            let due = hostNanos(whenMediaReaches: end)
            if media >= end, end < .max, Nanoseconds.subtract(host, due) > Nanoseconds.of(limit) {
                stepOnce(&events)
                if state == .playing {
                    anchorHost = host
                    anchorMedia = shownStepStartNanos
                }
            } else {
                skip(toMedia: media, reportingLoops: true, &events)
            }
        }
    }

    /// Moves host time forward by `duration` (ignored when negative).
    /// - Parameter duration: Host time passed since ``now``.
    /// - Returns: The events, in order.
    @discardableResult
    public mutating func advance(by duration: Duration) -> [PlayerEvent] {
        var events: [PlayerEvent] = []
        advance(by: duration, into: &events)
        return events
    }

    /// ``advance(by:)``, appending the events to `events`.
    mutating func advance(by duration: Duration, into events: inout [PlayerEvent]) {
        guard duration > .zero else { return }
        advance(to: Nanoseconds.duration(Nanoseconds.add(nowNanos, Nanoseconds.of(duration))), into: &events)
    }

    /// Host time at which media time reaches `media` under the current anchor.
    @inline(__always)
    func hostNanos(whenMediaReaches media: Int64) -> Int64 {
        Nanoseconds.add(anchorHost, Nanoseconds.host(forMedia: Nanoseconds.subtract(media, anchorMedia), rate: rate))
    }

    /// Jumps to the step containing `media`, or finishes past the end.
    mutating func skip(toMedia media: Int64, reportingLoops: Bool, _ events: inout [PlayerEvent]) {
        if let total = timeline.totalNanos, media >= total {
            finish(&events, reportingLoops: reportingLoops)
            return
        }
        let target = timeline.step(containing: media, near: stepInLoop)
        if target > step {
            move(toStep: target, reportingLoops: reportingLoops, &events)
        }
    }

    /// Advances exactly one step, or finishes after the last one.
    mutating func stepOnce(_ events: inout [PlayerEvent]) {
        let next = step + 1
        if let last = timeline.lastStep, next > last {
            finish(&events, reportingLoops: true)
        } else {
            move(toStep: next, reportingLoops: true, &events)
        }
    }

    /// Shows the last step, reports the final loop and finishes.
    mutating func finish(_ events: inout [PlayerEvent], reportingLoops: Bool) {
        guard let last = timeline.lastStep, let plays = timeline.plays else { return }
        waitMedia = nil
        limitMedia = nil
        move(toStep: last, reportingLoops: false, &events)
        if reportingLoops { events.append(.loopCompleted(loopsDone: plays)) }
        anchorMedia = timeline.totalNanos ?? anchorMedia
        anchorHost = nowNanos
        state = .finished
        events.append(.finished)
    }

    /// Shows global step `target`, reporting a crossed loop boundary and a
    /// changed frame index in that order.
    mutating func move(toStep target: Int, reportingLoops: Bool, _ events: inout [PlayerEvent]) {
        guard target != step else { return }
        let oldLoop = stepLoop
        let oldFrame = currentFrame
        step = target
        if reportingLoops, stepLoop > oldLoop {
            events.append(.loopCompleted(loopsDone: stepLoop))
        }
        if currentFrame != oldFrame {
            events.append(.frameChanged(frame: currentFrame))
        }
    }
}
