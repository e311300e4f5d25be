/// What a driver needs of what it drives (a ``Player`` or a ``Playlist``):
/// an engine it ticks to an instant, which says when the next change is due,
/// and a wake-up the host's changes call (see ``EventHub``).
protocol DrivenMember<Instant>: Actor {
    associatedtype Instant: InstantProtocol where Instant.Duration == Duration

    /// The instant the member measures host time from.
    nonisolated var origin: Instant { get }

    /// What the driver advances: a player's or a playlist's synchronous
    /// engine, ticked on the driver's own thread without a hop to the
    /// member's actor.
    nonisolated var engine: DrivenEngine { get }
}

/// How a driver advances a member: its engine, in host time from the
/// member's ``DrivenMember/origin``.
enum DrivenEngine {
    /// A player's engine.
    case core(PlayerCore)
    /// A playlist's engine.
    case playlist(PlaylistCore)
}

extension DrivenMember {
    /// Registers a driver's wake-up in the member's engine, called when the
    /// host changes the schedule (see ``EventHub/addWake(_:)``); returns
    /// its token.
    func addWake(_ wake: @escaping @Sendable () -> Void) -> Int {
        switch engine {
        case .core(let core): core.addWake(wake)
        case .playlist(let core): core.addWake(wake)
        }
    }

    /// Forgets the driver wake-up registered under `token`.
    func removeWake(_ token: Int) {
        switch engine {
        case .core(let core): core.removeWake(token)
        case .playlist(let core): core.removeWake(token)
        }
    }
}

extension Player: DrivenMember {
    nonisolated var engine: DrivenEngine { .core(playerCore) }
}

extension Playlist: DrivenMember {
    nonisolated var engine: DrivenEngine { .playlist(core) }
}
