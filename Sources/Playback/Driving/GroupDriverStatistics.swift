/// What a ``GroupDriver`` has done since it was made: read it twice and
/// subtract to get rates over an interval.
public struct GroupDriverStatistics: Sendable, Hashable {
    /// Wake-ups at a deadline: how often the driver's sleeper woke it to
    /// tick the members whose next change had come. Under a
    /// `GroupDriver.maximumFrameRate` this is at most the rate times the
    /// time driven, plus one.
    public var wakeUps = 0

    /// Wake-ups because the host changed a member's schedule (play, pause,
    /// seek, rate, a load that arrived); each ticks that member alone.
    package var scheduleChanges = 0

    /// Member ticks, all causes together: the driver's own and the host's
    /// (a member of a host's ``GroupDriver/tick(at:)`` counts once).
    public var ticks = 0

    /// The host's calls of ``GroupDriver/tick(at:)`` and
    /// ``GroupDriver/tickPlayers(at:)`` that ticked the members.
    public var hostTicks = 0

    /// All zero.
    package init() {}
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

/// What the host's draws made of one member's frames, and its pacing under
/// the group's ``FrameRatePolicy`` (see
/// ``GroupDriver/statistics(of:)``).
///
/// Every frame a tick publishes for drawing ends up in one count: drawn on
/// time (its first draw got through), drawn late (a draw of it was
/// ``FrameDraw/late(frame:shown:)`` first), or skipped (the next frame came
/// before any draw of it got through). The frame on show is counted once a
/// draw of it gets through, or once the next one comes. Frames the member's
/// playhead passed over between ticks (a `GroupDriver.maximumFrameRate`,
/// a lowered ``frameRate``, a late host) are not published and not counted.
/// An image from ``Player/currentImage(isolation:)`` counts as a draw: on
/// time when it did not wait for the frame's decode, late when it did.
public struct MemberPlaybackStatistics: Sendable, Hashable {
    /// Frames whose first draw got through.
    public var framesOnTime: Int
    /// Frames drawn after a late draw of them.
    public var framesLate: Int
    /// Frames no draw got through for before the next one came.
    public var framesSkipped: Int
    /// The share of frames that missed (late or skipped) in the last whole
    /// window of the policy (1 s with no policy), 0 before one ends or when
    /// nothing was drawn in it.
    package var recentMissedShare: Double
    /// The member's rate cap, in frames per second, or `nil` when it plays
    /// at its own pace (and the group's cap).
    public var frameRate: Double?

    /// Creates statistics from their counts.
    /// - Parameters:
    ///   - framesOnTime: Frames whose first draw got through.
    ///   - framesLate: Frames drawn after a late draw.
    ///   - framesSkipped: Frames never drawn.
    ///   - recentMissedShare: The last window's share missed.
    ///   - frameRate: The rate cap, or `nil`.
    package init(
        framesOnTime: Int = 0, framesLate: Int = 0, framesSkipped: Int = 0, recentMissedShare: Double = 0,
        frameRate: Double? = nil
    ) {
        self.framesOnTime = framesOnTime
        self.framesLate = framesLate
        self.framesSkipped = framesSkipped
        self.recentMissedShare = recentMissedShare
        self.frameRate = frameRate
    }
}
