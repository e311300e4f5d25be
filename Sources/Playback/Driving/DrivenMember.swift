/// What a driver needs of what it drives (a ``Player`` or a ``Playlist``):
/// an engine it ticks to an instant, which says when the next change is due,
/// and a wake-up the host's changes call (see ``EventHub``).
protocol DrivenMember<Instant>: Actor {
    associatedtype Instant: InstantProtocol where Instant.Duration == Duration

    /// Registers a driver's wake-up, called when the host changes the
    /// schedule; returns its token.
    func addWake(_ wake: @escaping @Sendable () -> Void) -> Int

    /// Forgets the driver wake-up registered under `token`.
    func removeWake(_ token: Int)

    /// The instant the member measures host time from.
    nonisolated var origin: Instant { get }

    /// What the driver advances: a player's synchronous engine, ticked on
    /// the driver's own thread without a hop to the player's actor, or a
    /// playlist, ticked on its actor.
    nonisolated var engine: DrivenEngine<Instant> { get }
}

/// How a driver advances a member.
enum DrivenEngine<Instant: InstantProtocol> where Instant.Duration == Duration {
    /// A player's engine, in host time from the member's ``DrivenMember/origin``.
    case core(PlayerCore)
    /// A member ticked on its own actor.
    case actor(any ActorDrivenMember<Instant>)
}

/// A member ticked on its actor: a ``Playlist``, whose sequencing lives there.
protocol ActorDrivenMember<Instant>: DrivenMember {
    /// Advances to `instant` without signalling drivers, marks the wake-up
    /// registered under `token` as consumed, and returns the instant the next
    /// change is due, or `nil` when nothing is scheduled.
    func tick(to instant: Instant, wake token: Int) -> Instant?

    /// Advances to `instant` for a host ticking the driver itself (see
    /// ``GroupDriver/tick(at:)``), without signalling drivers, and returns
    /// whether what the member shows changed and when its next change is
    /// due.
    func hostTick(to instant: Instant) -> (moved: Bool, next: Instant?)
}

extension DrivenMember {
    /// The deadline a tick to `instant` reports: `next`, except that a
    /// deadline already due after a tick that changed nothing means the
    /// member cannot move (its time has saturated), so it reports `nil` and
    /// its driver rests until the host changes something, instead of waking
    /// again at once for ever.
    static func deadline(_ next: Instant?, afterTickTo instant: Instant, moved: Bool) -> Instant? {
        guard let next, next > instant || moved else { return nil }
        return next
    }
}

extension Player: DrivenMember {
    nonisolated var engine: DrivenEngine<Instant> { .core(playerCore) }
}

extension Playlist: ActorDrivenMember {
    nonisolated var engine: DrivenEngine<Instant> { .actor(self) }
}
