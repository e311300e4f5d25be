/// Something the host may want to react to, reported in a defined order.
///
/// Order within one call that reports several events (an `advance` that
/// crosses a loop boundary, a skip after a stall):
///
/// 1. ``loopCompleted(loopsDone:)`` when a loop boundary was crossed before
///    the newly shown frame began, then
/// 2. ``frameChanged(frame:)`` for the frame now shown, and on the last loop
///    instead:
/// 3. ``frameChanged(frame:)`` if the last frame was not yet shown, then
///    ``loopCompleted(loopsDone:)`` with the total, then ``finished``.
///
/// When a call reaches the ``PlayerConfiguration/playTimeLimit``, the events
/// of the time before the limit come first, then ``frameChanged(frame:)``
/// if the still frame differs from the one shown, then
/// ``timeLimitReached``; nothing follows in that call.
///
/// One call reports at most one `loopCompleted` before a frame change: after
/// a stall that skipped several loops it carries the latest count.
public enum PlayerEvent: Sendable, Hashable {
    /// The frame shown changed; `frame` is its index in the source. Sent only
    /// when the index differs from the one shown before (a one-frame loop
    /// repeating does not send it), including after ``Playhead/stop(at:)``
    /// and seeks.
    case frameChanged(frame: Int)

    /// A loop ended: the last step's display duration has fully elapsed.
    /// `loopsDone` counts loops completed since the start (1 for the first).
    case loopCompleted(loopsDone: Int)

    /// Playback ended after the final loop; the last frame stays shown.
    case finished

    /// The play reached its ``PlayerConfiguration/playTimeLimit`` and
    /// stopped (``PlayerState/timeLimitReached``), showing the
    /// ``PlayerConfiguration/stillFrame``.
    case timeLimitReached

    /// The shown frame's time is up but the next frame has not arrived (a
    /// ``ProgressiveFrameSource`` still loading): the shown frame stays, and the
    /// host may show that it is buffering. `frame` is the first frame, in
    /// file order, that has not arrived. Reported once per wait, after any
    /// `frameChanged` of the same call; see ``WaitPolicy``.
    case waitingForFrame(frame: Int)

    /// The wait reported by ``waitingForFrame(frame:)`` is over: frames
    /// arrived (or the source completed), and `waited` is the host time from
    /// when the shown frame's time ran out to the call that ended the wait.
    /// Comes before the events of what follows (`frameChanged`,
    /// `loopCompleted`).
    case waitEnded(waited: Duration)

    /// A ``Player/draw(into:bytesPerRow:)`` found `frame` not decoded yet
    /// and left the frame shown before in the host's buffer (see
    /// ``FrameDraw/late(frame:shown:)``); the decode was asked for and a
    /// later draw catches up. Reported at the player's next change of
    /// position, once per frame that was late; ``Player/lateDrawCount``
    /// counts every late draw.
    case drawnLate(frame: Int)
}
