/// How stored frame delays become display durations.
///
/// Many GIFs store a delay of 0 or 1 centisecond, which no display can show.
/// Browsers show such frames for 100 ms instead; ``browser`` does the same.
public enum DelayPolicy: Sendable, Hashable {
    /// Browser rule: a delay of 10 ms or less (0 or 1 cs) is shown for 100 ms;
    /// longer delays are kept.
    case browser

    /// Keep every stored delay as it is, zero included. A frame with a zero
    /// delay is then never shown while playing (the clock passes straight
    /// through it); a loop whose delays are all zero cannot advance (see
    /// ``Playhead``).
    case raw

    /// Raise any delay below `minimum` to `minimum`; longer delays are kept.
    case minimum(Duration)

    /// The threshold at or below which ``browser`` substitutes
    /// ``browserSubstitute``: 10 ms.
    package static let browserThreshold = Duration.milliseconds(10)

    /// The duration ``browser`` shows a too-short frame for: 100 ms.
    package static let browserSubstitute = Duration.milliseconds(100)

    /// The display duration for one stored delay.
    ///
    /// Negative stored delays are read as zero before the policy applies.
    /// - Parameter stored: The delay as stored in the source.
    package func displayDuration(forStoredDelay stored: Duration) -> Duration {
        let delay = max(stored, .zero)
        switch self {
        case .browser:
            return delay <= Self.browserThreshold ? Self.browserSubstitute : delay
        case .raw:
            return delay
        case .minimum(let minimum):
            return max(delay, minimum)
        }
    }
}
