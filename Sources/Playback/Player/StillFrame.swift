/// The frame a player shows when motion stops on a policy: at its
/// ``PlayerConfiguration/playTimeLimit``, and in reduced-motion mode
/// (``PlayerConfiguration/reducedMotion``).
///
/// ```swift
/// var configuration = PlayerConfiguration()
/// configuration.playTimeLimit = .seconds(5)   // WCAG 2.2.2
/// configuration.stillFrame = .last            // end on the last frame
/// let player = try Player(source: source, configuration: configuration, startingAt: clock.now)
/// await player.play()
/// ```
public enum StillFrame: Sendable, Hashable {
    /// The frame on screen when motion stops: the animation freezes where
    /// it is.
    case shown

    /// The last frame in play order (what a finished animation leaves), or
    /// for a source still loading the last frame arrived so far.
    case last

    /// Frame `index` of the source, a poster frame the host chose. An index
    /// that is out of range (or whose frame has not arrived yet) reads as
    /// ``shown``.
    case frame(Int)

    /// Frame 0, the picture a player shows before it plays: the default.
    public static let first = StillFrame.frame(0)
}
