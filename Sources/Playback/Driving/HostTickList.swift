import EngineSupport

/// A ``GroupDriver``'s members as its host's ``GroupDriver/tick(at:)`` ticks
/// them, in host time from the driver's reference instant.
///
/// Nothing here is generic over the clock, so a tick that reaches only
/// players (each one lock and the playhead's step, on the calling thread)
/// makes no type metadata lookups and no asynchronous calls: the driver
/// turns the host's instant into host time once, and the next deadline back
/// into an instant once.
final class HostTickList: Sendable {
    /// One member.
    struct Entry: Sendable {
        let id: ObjectIdentifier
        /// A player's engine, ticked on the calling thread; `nil` for a
        /// playlist.
        let core: PlayerCore?
        /// Where the member's own host time starts, in the driver's host
        /// time.
        let offset: Duration
        /// A playlist's tick (one call to its actor), in the driver's host
        /// time; `nil` for a player.
        let tick: (@Sendable (Duration) async -> (moved: Bool, next: Duration?))?
    }

    private struct State {
        /// The members in the order added.
        var entries: [Entry] = []
        /// How many of them are playlists.
        var playlists = 0
        /// The list of changed members a tick returns, reused from tick to
        /// tick.
        var changed: [ObjectIdentifier] = []
    }

    private let state = LockedState(State())

    /// Adds `entry` unless a member with its id is there.
    func add(_ entry: Entry) {
        state.withLock { state in
            guard !state.entries.contains(where: { $0.id == entry.id }) else { return }
            state.entries.append(entry)
            if entry.core == nil { state.playlists += 1 }
        }
    }

    /// Removes member `id`, if it is one.
    func remove(_ id: ObjectIdentifier) {
        state.withLock { state in
            guard let index = state.entries.firstIndex(where: { $0.id == id }) else { return }
            if state.entries.remove(at: index).core == nil { state.playlists -= 1 }
        }
    }

    /// Ticks every member to host time `time`, on the calling thread when
    /// they are all players (`nil` when one is a playlist: use ``tick(to:)``).
    func tickPlayers(to time: Duration) -> (changed: [ObjectIdentifier], next: Duration?)? {
        var changed: [ObjectIdentifier] = []
        // The members, and the list of changed ones taken out of the lock
        // (so filling it copies nothing).
        let entries = state.withLock { state -> [Entry]? in
            guard state.playlists == 0 else { return nil }
            swap(&changed, &state.changed)
            return state.entries
        }
        guard let entries else { return nil }
        changed.removeAll(keepingCapacity: true)
        var next: Duration?
        for entry in entries {
            guard let core = entry.core else { continue }
            let step = core.hostTick(to: time - entry.offset)
            if step.moved { changed.append(entry.id) }
            if let deadline = step.next.map({ $0 + entry.offset }), next.map({ deadline < $0 }) ?? true { next = deadline }
        }
        state.withLock { $0.changed = changed }
        return (changed, next)
    }

    /// Ticks every member to host time `time`: players on the calling
    /// thread, playlists one call away.
    func tick(to time: Duration) async -> (changed: [ObjectIdentifier], next: Duration?) {
        var changed: [ObjectIdentifier] = []
        let entries = state.withLock { state in
            swap(&changed, &state.changed)
            return state.entries
        }
        changed.removeAll(keepingCapacity: true)
        var next: Duration?
        for entry in entries {
            let moved: Bool
            let deadline: Duration?
            if let core = entry.core {
                let step = core.hostTick(to: time - entry.offset)
                moved = step.moved
                deadline = step.next.map { $0 + entry.offset }
            } else if let tick = entry.tick {
                (moved, deadline) = await tick(time)
            } else {
                continue
            }
            if moved { changed.append(entry.id) }
            if let deadline, next.map({ deadline < $0 }) ?? true { next = deadline }
        }
        state.withLock { $0.changed = changed }
        return (changed, next)
    }
}
