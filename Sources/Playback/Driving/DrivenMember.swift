/// What a driver needs of what it drives (a ``Player`` or a ``Playlist``):
/// a tick that advances to an instant and says when the next change is due,
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

    /// The synchronous engine a driver ticks on its own thread, without a
    /// hop to the member's actor, in host time from ``origin``; `nil` when
    /// the member has none.
    nonisolated var core: PlayerCore? { get }

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
    nonisolated var core: PlayerCore? { playerCore }
}

extension Playlist: DrivenMember {
    nonisolated var core: PlayerCore? { nil }
}
