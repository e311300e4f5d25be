@_spi(Engine) import EngineSupport

/// A ``GroupDriver``'s members as its host's ``GroupDriver/tick(at:)`` ticks
/// them, in host time from the driver's reference instant.
///
/// Nothing here is generic over the clock, so a tick (each member one lock
/// and its engine's step, on the calling thread) makes no type metadata
/// lookups and no asynchronous calls: the driver turns the host's instant
/// into host time once, and the next deadline back into an instant once.
/// The players are ticked in whole nanoseconds, as their playheads keep
/// time (saturating about 292 years from the reference): one conversion a
/// tick, not two `Duration` operations and a conversion a player; a
/// playlist is ticked in its own host time, a `Duration`, converted as its
/// deadline comes back.
final class HostTickList: Sendable {
    /// How a member is ticked, in the driver's host time.
    enum Ticker: Sendable {
        /// A player's engine; its own host time starts `offset`
        /// nanoseconds into the driver's.
        case player(PlayerCore, offset: Int64)
        /// A playlist's engine; its own host time starts `offset` into the
        /// driver's.
        case playlist(PlaylistCore, offset: Duration)
    }

    /// One member.
    struct Entry: Sendable {
        let id: ObjectIdentifier
        let ticker: Ticker
    }

    /// A member as ``tick(to:)`` reads it: a player's engine
    /// unretained (its entry holds it), so that a tick of players makes no
    /// reference counting.
    private struct MemberTick {
        let id: ObjectIdentifier
        let engine: Engine
        /// A player's counters' window and rate cap (playlists are not paced).
        var pace = MemberPace()
    }

    /// What a member's tick steps.
    private enum Engine {
        /// A player's engine and where its host time starts in the
        /// driver's, in nanoseconds.
        case player(Unmanaged<PlayerCore>, offset: Int64)
        /// A playlist's engine and where its host time starts in the driver's.
        case playlist(PlaylistCore, offset: Duration)
    }

    /// A member whose events a tick posted.
    private enum Undelivered {
        case player(PlayerCore)
        case playlist(PlaylistCore)
    }

    private struct State {
        /// The members in the order added.
        var entries: [Entry] = []
        /// The same members, in the same order, as a tick reads them.
        var members: [MemberTick] = []
        /// The list of changed members a tick returns, reused from tick to
        /// tick.
        var changed: [ObjectIdentifier] = []
        /// The members whose events a tick under the lock posted, to be
        /// delivered once it is released: storage reused from tick to
        /// tick, empty between ticks.
        var undelivered: [Undelivered] = []
        /// The host's ticks that ticked the members, and the member ticks
        /// they made.
        var tickCalls = 0
        var memberTicks = 0
        /// How the players' rates follow their misses, or `nil` for not at all.
        var policy: FrameRatePolicy?

        /// The index of player `id` among the members.
        func playerIndex(_ id: ObjectIdentifier) -> Int? {
            members.firstIndex { member in
                guard member.id == id, case .player = member.engine else { return false }
                return true
            }
        }
    }

    private let state = LockedState(State())

    /// Adds `entry` unless a member with its id is there.
    func add(_ entry: Entry) {
        state.withLock { state in
            guard !state.entries.contains(where: { $0.id == entry.id }) else { return }
            state.entries.append(entry)
            let engine: Engine =
                switch entry.ticker {
                case .player(let core, let offset): .player(.passUnretained(core), offset: offset)
                case .playlist(let core, let offset): .playlist(core, offset: offset)
                }
            state.members.append(MemberTick(id: entry.id, engine: engine))
        }
    }

    /// Removes member `id`, if it is one.
    func remove(_ id: ObjectIdentifier) {
        state.withLock { state in
            state.entries.removeAll { $0.id == id }
            state.members.removeAll { $0.id == id }
        }
    }

    /// Ticks every member, players and playlists, to host time `time`, on
    /// the calling thread.
    ///
    /// The members are ticked with this list's lock held: one lock for the
    /// whole tick, and the members and the list of changed ones used in
    /// place. A member's tick takes its own lock and never this one (it
    /// posts its events, asks its source for frames, starts a playlist's
    /// loads), so the order is always this list, then a member. The events
    /// the members posted are delivered once both locks are released,
    /// member by member in the order added, so that a listener may call
    /// back into a member or into the group (another tick) from its
    /// callback.
    func tick(to time: Duration) -> (changed: [ObjectIdentifier], next: Duration?) {
        let nanoseconds = Nanoseconds.of(time)
        var undelivered: [Undelivered] = []
        let result = state.withLock { state -> (changed: [ObjectIdentifier], next: Duration?) in
            state.tickCalls += 1
            state.memberTicks += state.members.count
            state.changed.removeAllKeepingCapacity()
            var next: Int64?
            for index in state.members.indices {
                let member = state.members[index]
                let step: (moved: Bool, next: Int64?)
                switch member.engine {
                case .player(let core, let offset):
                    let time = Nanoseconds.subtract(nanoseconds, offset)
                    step = core._withUnsafeGuaranteedRef { core in
                        let owes = core.tally.owesDraw
                        guard state.members[index].pace.mayTick(at: time, owes: owes) else {
                            return Self.shifted(PlayerCore.Step(next: state.members[index].pace.next), by: offset)
                        }
                        var step = core.hostTick(to: time)
                        if step.deliveryDue { state.undelivered.append(.player(core)) }
                        step.next = state.members[index].pace.ticked(
                            at: time, next: step.next, tally: core.tally, policy: state.policy, owes: owes)
                        return Self.shifted(step, by: offset)
                    }
                case .playlist(let core, let offset):
                    let tick = core.hostTick(to: time - offset)
                    if tick.deliveryDue { state.undelivered.append(.playlist(core)) }
                    step = (tick.moved, tick.next.map { Nanoseconds.of($0 + offset) })
                }
                Self.record(member.id, step, changed: &state.changed, next: &next)
            }
            if !state.undelivered.isEmpty { swap(&undelivered, &state.undelivered) }
            return (state.changed, next.map(Nanoseconds.duration))
        }
        if !undelivered.isEmpty { deliver(&undelivered) }
        return result
    }

    /// Delivers the events of `members` (held here, so that one removed
    /// meanwhile lives until then), then hands the emptied storage back for
    /// the next tick to reuse.
    private func deliver(_ members: inout [Undelivered]) {
        for member in members {
            switch member {
            case .player(let core): core.deliverEvents()
            case .playlist(let core): core.deliverEvents()
            }
        }
        members.removeAllKeepingCapacity()
        state.withLock { state in
            if state.undelivered.capacity < members.capacity { swap(&state.undelivered, &members) }
        }
    }

    /// Adds member `id` to `changed` when its tick moved it, and keeps the
    /// earlier of `next` and its deadline (host nanoseconds).
    private static func record(
        _ id: ObjectIdentifier, _ step: (moved: Bool, next: Int64?), changed: inout [ObjectIdentifier],
        next: inout Int64?
    ) {
        if step.moved { changed.append(id) }
        if let deadline = step.next, next.map({ deadline < $0 }) ?? true { next = deadline }
    }

    /// What a player's tick did, its deadline in the driver's host time
    /// (the player's starts `offset` nanoseconds into the driver's).
    private static func shifted(_ step: PlayerCore.Step, by offset: Int64) -> (moved: Bool, next: Int64?) {
        (step.moved, step.next.map { Nanoseconds.add($0, offset) })
    }

    /// `nil` when player `id` is ticked at `time` (its own host time in
    /// nanoseconds); otherwise its cap holds it and this is the deadline it
    /// reports (`.some(nil)` for none).
    func pacedNext(_ id: ObjectIdentifier, at time: Int64, owes: Bool) -> Int64?? {
        state.withLock { state in
            guard let index = state.playerIndex(id), !state.members[index].pace.mayTick(at: time, owes: owes)
            else { return nil }
            return .some(state.members[index].pace.next)
        }
    }

    /// Takes in a tick of player `id` at `time` that reported `next` (its
    /// own host time, nanoseconds) and returns the deadline held to its cap.
    func ticked(_ id: ObjectIdentifier, _ core: PlayerCore, at time: Int64, next: Int64?, owes: Bool) -> Int64? {
        state.withLock { state in
            guard let index = state.playerIndex(id) else { return next }
            return state.members[index].pace.ticked(
                at: time, next: next, tally: core.tally, policy: state.policy, owes: owes)
        }
    }

    /// The policy the players' rates follow, or `nil`; setting `nil` lifts
    /// every cap.
    var policy: FrameRatePolicy? {
        get { state.withLock { $0.policy } }
        set {
            state.withLock { state in
                state.policy = newValue
                if newValue == nil { for index in state.members.indices { state.members[index].pace.uncap() } }
            }
        }
    }

    /// Player `id`'s counters and pacing, or `nil` when it is no member.
    func statistics(of id: ObjectIdentifier) -> MemberPlaybackStatistics? {
        state.withLock { state in
            guard let index = state.playerIndex(id), case .player(let core, _) = state.members[index].engine
            else { return nil }
            let player = state.members[index]
            let totals = core._withUnsafeGuaranteedRef { $0.tally.totals }
            return MemberPlaybackStatistics(
                framesOnTime: totals.onTime, framesLate: totals.late, framesSkipped: totals.skipped,
                recentMissedShare: player.pace.recentMissedShare, frameRate: player.pace.rate)
        }
    }

    /// The host's ticks so far, and the member ticks they made.
    var tickCounts: (calls: Int, members: Int) { state.withLock { ($0.tickCalls, $0.memberTicks) } }
}
