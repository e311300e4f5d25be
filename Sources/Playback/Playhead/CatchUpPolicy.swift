/// What the player does when the host advances time late, so that more than
/// the current frame's remaining duration has passed since the last tick.
///
/// The "lag" is how far the clock is past the moment the current frame should
/// have been replaced (measured in host time).
public enum CatchUpPolicy: Sendable, Hashable {
    /// Jump straight to the frame the clock says, skipping frames that were
    /// due during the stall (as FLAnimatedImage and browsers do). Players
    /// sharing an epoch stay in step under this policy whatever their ticks.
    case skip

    /// Advance at most one frame per tick and carry the lag: the frame after
    /// the stall is shown, and the time already owed stays on the books, so
    /// following ticks step one frame each until the player has caught up
    /// (the Gifu display-link model). Frames are never skipped; while the
    /// player lags, ``Playhead/timeUntilNextChange`` is zero.
    case carryLag

    /// Skip like ``skip`` when the lag is at most `limit`; after a longer
    /// stall, do not catch up: show the next frame and restart the timeline
    /// from the moment of the tick, forgetting the stall (Chromium does this
    /// with a 5-minute cutoff).
    case resync(after: Duration)

    /// Chromium's behaviour and the default: ``resync(after:)`` with a
    /// 5-minute cutoff, so ordinary stalls skip frames.
    public static let browser = CatchUpPolicy.resync(after: .seconds(300))
}
