/// What a ``GroupDriver`` has done since it was made: read it twice and
/// subtract to get rates over an interval.
public struct GroupDriverStatistics: Sendable, Hashable {
    /// Wake-ups at a deadline: how often the driver's sleeper woke it to
    /// tick the members whose next change had come. Under a
    /// ``GroupDriver/maximumFrameRate`` this is at most the rate times the
    /// time driven, plus one.
    public var wakeUps = 0

    /// Wake-ups because the host changed a member's schedule (play, pause,
    /// seek, rate, a load that arrived); each ticks that member alone.
    public var scheduleChanges = 0

    /// Member ticks, all causes together.
    public var ticks = 0

    /// All zero.
    public init() {}
}
