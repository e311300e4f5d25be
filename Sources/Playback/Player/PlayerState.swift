/// Where a player is in its life cycle.
public enum PlayerState: Sendable, Hashable {
    /// Never started (or stopped): frame 0 of loop 0 is shown, waiting for
    /// `play()`. New players start here unless autoplay is on.
    case idle

    /// Time passed in moves the animation.
    case playing

    /// Frozen at the exact position of `pause()`, to the nanosecond;
    /// `play()` continues from there.
    case paused

    /// Every loop has been played; the last frame in play order stays shown.
    /// `play()` starts again from the beginning.
    case finished

    /// The play ran for its ``PlayerConfiguration/playTimeLimit`` and
    /// stopped there, showing the ``PlayerConfiguration/stillFrame``.
    /// `play()` starts again from the beginning, with a new allowance.
    case timeLimitReached
}
