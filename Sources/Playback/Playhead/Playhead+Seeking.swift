extension Playhead {
    /// Shows `frame` from its start, in the current loop, keeping the state
    /// (a finished or time-limited playhead becomes paused there, so
    /// `play()` continues, with a new ``PlayerConfiguration/playTimeLimit``
    /// allowance).
    ///
    /// Under ``PlaybackDirection/bounce`` a frame appears twice per loop; the
    /// seek goes to its first appearance. A playing playhead continues from
    /// the new position at ``now``.
    /// - Parameter frame: A frame index in `0..<frameCount`.
    /// - Throws: ``PlayerError/frameOutOfRange(_:frameCount:)``; nothing changes.
    /// - Returns: `frameChanged` if another frame is now shown.
    @discardableResult
    public mutating func seek(toFrame frame: Int) throws(PlayerError) -> [PlayerEvent] {
        guard let inLoop = timeline.firstStep(showing: frame) else {
            throw .frameOutOfRange(frame, frameCount: timeline.frameCount)
        }
        let loopStart = stepLoop * timeline.stepsPerLoop
        let target = loopStart + inLoop
        return reposition(toStep: target, media: timeline.startNanos(ofStep: target))
    }

    /// Moves to media time `offset` from the start of loop 0 (timeline time,
    /// before the rate applies; it may reach into later loops), keeping the
    /// state as ``seek(toFrame:)`` does.
    /// - Parameter offset: At least zero and, for a finite animation, less
    ///   than ``PlaybackTimeline/totalDuration``.
    /// - Throws: ``PlayerError/offsetOutOfRange(_:totalDuration:)``; nothing changes.
    /// - Returns: `frameChanged` if another frame is now shown.
    @discardableResult
    public mutating func seek(toOffset offset: Duration) throws(PlayerError) -> [PlayerEvent] {
        let media = Nanoseconds.of(offset)
        let end = timeline.isComplete ? timeline.totalNanos : timeline.availableEndNanos
        if media < 0 || (end.map { media >= $0 } ?? false) {
            throw .offsetOutOfRange(offset, totalDuration: timeline.totalDuration)
        }
        return reposition(toStep: timeline.step(containing: media), media: media)
    }

    private mutating func reposition(toStep target: Int, media: Int64) -> [PlayerEvent] {
        var events: [PlayerEvent] = []
        // A play-time limit moves with the position: the same media time
        // played before it is reached.
        if let limit = limitMedia {
            limitMedia = Nanoseconds.add(limit, Nanoseconds.subtract(media, mediaNanos(at: nowNanos)))
        }
        restartOnPlay = false
        move(toStep: target, reportingLoops: false, &events)
        // `move` ignores a same-step target, so set the step here as well.
        step = target
        waitMedia = nil
        anchorMedia = media
        anchorHost = nowNanos
        if state == .finished || state == .timeLimitReached { state = .paused }
        return events
    }
}
