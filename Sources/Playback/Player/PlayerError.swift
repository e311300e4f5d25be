/// Invalid input that the player refuses instead of trapping.
///
/// Inputs that have an obvious safe reading are clamped rather than thrown:
/// time that runs backwards is ignored, and negative stored delays read as
/// zero.
public enum PlayerError: Error, Sendable, Hashable {
    /// The source has no frames, so there is nothing to show.
    case emptySource

    /// The source reports `frameCount` frames but `delayCount` delays.
    case mismatchedDelays(frameCount: Int, delayCount: Int)

    /// A rate that is not finite or lies outside ``PlayerConfiguration/rateRange``
    /// (zero and negative included: use `pause()` or ``PlaybackDirection``).
    case invalidRate(Double)

    /// A seek to a frame index outside `0..<frameCount`.
    case frameOutOfRange(Int, frameCount: Int)

    /// A seek to a time offset before zero or at or past the end of a finite
    /// animation (`totalDuration`, `nil` when it loops forever).
    case offsetOutOfRange(Duration, totalDuration: Duration?)

    /// A source's new timing does not extend the one being played: fewer
    /// frames than `previousFrameCount`, a changed delay, or a change after
    /// the source was complete (see ``Playhead/extend(to:)``).
    case timingNotAnExtension(frameCount: Int, previousFrameCount: Int)
}
