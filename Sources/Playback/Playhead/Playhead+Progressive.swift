extension Playhead {
    /// Takes on the timeline of a source's newer `timing` under this
    /// playhead's configuration: more frames, and once complete the final
    /// loop count (see ``ProgressiveFrameSource``).
    ///
    /// Nothing moves at once: the position, the state and ``now`` stay. A
    /// playhead waiting for frames that the new timing brings (or waiting at
    /// the end of a timeline now complete) is due: ``nextChangeTime`` is
    /// ``now``, and the next ``advance(to:)`` ends the wait at its time,
    /// reporting ``PlayerEvent/waitEnded(waited:)`` and what follows under
    /// the ``WaitPolicy``. So a host, or a driver woken by the arrival,
    /// resumes at the real time of the arrival, not at its last tick.
    /// - Parameter timing: The source's timing now; it must extend the one
    ///   played (the same delays for the frames known, at least as many
    ///   frames, no change once complete).
    /// - Throws: ``PlayerError/emptySource`` or
    ///   ``PlayerError/timingNotAnExtension(frameCount:previousFrameCount:)``;
    ///   nothing changes then.
    public mutating func extend(to timing: FrameSourceTiming) throws(PlayerError) {
        let grown = try PlaybackTimeline(timing: timing, configuration: configuration)
        guard timeline.isExtended(by: grown) else {
            throw .timingNotAnExtension(frameCount: grown.frameCount, previousFrameCount: timeline.frameCount)
        }
        timeline = grown
    }

    /// Whether frames have arrived for the wait in progress.
    var waitIsOver: Bool {
        guard let waitMedia else { return false }
        return timeline.isComplete || timeline.availableEndNanos > waitMedia
    }

    /// Ends the wait at ``now`` when frames have arrived for it; `false`
    /// (nothing changes) while still waiting.
    mutating func endWaitIfArrived(_ events: inout [PlayerEvent]) -> Bool {
        guard waitMedia != nil else { return true }
        guard waitIsOver else { return false }
        if configuration.waiting == .resumeFromArrival {
            // Media time stood at the end of the last step: it runs on from now.
            anchorHost = nowNanos
        }
        events.append(.waitEnded(waited: Nanoseconds.duration(Nanoseconds.subtract(nowNanos, waitHost))))
        // A reverse order completed: its first step is the last frame.
        if currentFrame != waitFrame { events.append(.frameChanged(frame: currentFrame)) }
        waitMedia = nil
        return true
    }

    /// When the media time at ``now`` has run past the steps available,
    /// shows the last of them and starts waiting; `true` if waiting now
    /// (or, under ``CatchUpPolicy/carryLag``, if it stepped once toward it).
    mutating func waitIfOutOfFrames(_ events: inout [PlayerEvent]) -> Bool {
        guard !timeline.isComplete, waitMedia == nil else { return waitMedia != nil }
        let end = timeline.availableEndNanos
        guard mediaNanos(at: nowNanos) >= end else { return false }
        let last = timeline.availableStepCount - 1
        if case .carryLag = configuration.catchUp, step < last {
            move(toStep: step + 1, reportingLoops: true, &events)
            return true
        }
        if last >= 0 { move(toStep: last, reportingLoops: true, &events) }
        waitHost = min(nowNanos, hostNanos(whenMediaReaches: end))
        waitMedia = end
        waitFrame = currentFrame
        if configuration.waiting == .resumeFromArrival {
            anchorMedia = end
            anchorHost = waitHost
        }
        events.append(.waitingForFrame(frame: timeline.frameCount))
        return true
    }
}
