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

    /// Member ticks, all causes together: the driver's own and the host's
    /// (a member of a host's ``GroupDriver/tick(at:)`` counts once).
    public var ticks = 0

    /// The host's calls of ``GroupDriver/tick(at:)`` and
    /// ``GroupDriver/tickPlayers(at:)`` that ticked the members.
    public var hostTicks = 0

    /// All zero.
    public init() {}
}

/// What one ``GroupDriver/tick(at:)`` did.
public struct GroupDriverTick<Instant: InstantProtocol>: Sendable where Instant.Duration == Duration {
    /// The members whose shown frame changed (compare with
    /// `ObjectIdentifier(player)`), in the order added. The driver reuses
    /// the array's storage from tick to tick: let go of it before the next
    /// call, and steady ticking allocates nothing.
    public var changed: [ObjectIdentifier]
    /// When the next change of any member is due, or `nil` when none is
    /// scheduled.
    public var nextChange: Instant?

    @inlinable
    init(changed: [ObjectIdentifier], nextChange: Instant?) {
        self.changed = changed
        self.nextChange = nextChange
    }
}
