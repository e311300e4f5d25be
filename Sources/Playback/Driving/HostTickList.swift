@_spi(Engine) import EngineSupport

/// A ``GroupDriver``'s members as its host's ``GroupDriver/tick(at:)`` ticks
/// them, in host time from the driver's reference instant.
///
/// Nothing here is generic over the clock, so a tick that reaches only
/// players (each one lock and the playhead's step, on the calling thread)
/// makes no type metadata lookups and no asynchronous calls: the driver
/// turns the host's instant into host time once, and the next deadline back
/// into an instant once. The players are ticked in whole nanoseconds, as
/// their playheads keep time (saturating about 292 years from the
/// reference): one conversion a tick, not two `Duration` operations and a
/// conversion a player; a playlist's tick, a `Duration`, is converted as
/// it comes back.
final class HostTickList: Sendable {
    /// How a member is ticked, in the driver's host time.
    enum Ticker: Sendable {
        /// A player's engine, ticked on the calling thread; its own host
        /// time starts `offset` nanoseconds into the driver's.
        case player(PlayerCore, offset: Int64)
        /// A playlist's tick: one call to its actor.
        case playlist(@Sendable (Duration) async -> (moved: Bool, next: Duration?))
    }

    /// One member.
    struct Entry: Sendable {
        let id: ObjectIdentifier
        let ticker: Ticker
    }

    /// A player member as ``tickPlayers(to:)`` reads it: its engine
    /// unretained (its entry holds it), so that a tick of players makes no
    /// reference counting.
    private struct PlayerTick {
        let id: ObjectIdentifier
        let core: Unmanaged<PlayerCore>
        /// Where its host time starts in the driver's, in nanoseconds.
        let offset: Int64
        /// Its counters' window and rate cap.
        var pace = MemberPace()
    }

    private struct State {
        /// The members in the order added.
        var entries: [Entry] = []
        /// The players among them, in the same order: the others are
        /// playlists.
        var players: [PlayerTick] = []
        /// The list of changed members a tick returns, reused from tick to
        /// tick.
        var changed: [ObjectIdentifier] = []
        /// The players whose events a tick under the lock posted, to be
        /// delivered once it is released: storage reused from tick to
        /// tick, empty between ticks.
        var undelivered: [PlayerCore] = []
        /// The host's ticks that ticked the members, and the member ticks
        /// they made.
        var tickCalls = 0
        var memberTicks = 0
        /// How the players' rates follow their misses, or `nil` for not at all.
        var policy: FrameRatePolicy?
    }

    private let state = LockedState(State())

    /// Adds `entry` unless a member with its id is there.
    func add(_ entry: Entry) {
        state.withLock { state in
            guard !state.entries.contains(where: { $0.id == entry.id }) else { return }
            state.entries.append(entry)
            if case .player(let core, let offset) = entry.ticker {
                state.players.append(PlayerTick(id: entry.id, core: .passUnretained(core), offset: offset))
            }
        }
    }

    /// Removes member `id`, if it is one.
    func remove(_ id: ObjectIdentifier) {
        state.withLock { state in
            state.entries.removeAll { $0.id == id }
            state.players.removeAll { $0.id == id }
        }
    }

    /// Ticks every member to host time `time`, on the calling thread when
    /// they are all players (`nil` when one is a playlist: use ``tick(to:)``).
    ///
    /// The players are ticked with this list's lock held: one lock for the
    /// whole tick, and the members and the list of changed ones used in
    /// place. A player's tick takes its own lock and never this one (it
    /// posts its events and asks its source for frames), so the order is
    /// always this list, then a player. The events the players posted are
    /// delivered once both locks are released, player by player in the
    /// order added, so that a listener may call back into a player or into
    /// the group (another tick) from its callback.
    func tickPlayers(to time: Duration) -> (changed: [ObjectIdentifier], next: Duration?)? {
        let nanoseconds = Nanoseconds.of(time)
        var undelivered: [PlayerCore] = []
        let result = state.withLock { state -> (changed: [ObjectIdentifier], next: Duration?)? in
            guard state.players.count == state.entries.count else { return nil }
            state.tickCalls += 1
            state.memberTicks += state.players.count
            state.changed.removeAllKeepingCapacity()
            var next: Int64?
            for index in state.players.indices {
                let player = state.players[index]
                let time = Nanoseconds.subtract(nanoseconds, player.offset)
                let step = player.core._withUnsafeGuaranteedRef { core in
                    let owes = core.tally.owesDraw
                    guard state.players[index].pace.mayTick(at: time, owes: owes) else {
                        return Self.shifted(PlayerCore.Step(next: state.players[index].pace.next), by: player.offset)
                    }
                    var step = core.hostTick(to: time)
                    if step.deliveryDue { state.undelivered.append(core) }
                    step.next = state.players[index].pace.ticked(
                        at: time, next: step.next, tally: core.tally, policy: state.policy, owes: owes)
                    return Self.shifted(step, by: player.offset)
                }
                Self.record(player.id, step, changed: &state.changed, next: &next)
            }
            if !state.undelivered.isEmpty { swap(&undelivered, &state.undelivered) }
            return (state.changed, next.map(Nanoseconds.duration))
        }
        if !undelivered.isEmpty { deliver(&undelivered) }
        return result
    }

    /// Delivers the events of `players` (held here, so that one removed
    /// meanwhile lives until then), then hands the emptied storage back for
    /// the next tick to reuse.
    private func deliver(_ players: inout [PlayerCore]) {
        for core in players { core.deliverEvents() }
        players.removeAllKeepingCapacity()
        state.withLock { state in
            if state.undelivered.capacity < players.capacity { swap(&state.undelivered, &players) }
        }
    }

    /// Ticks every member to host time `time`: players on the calling
    /// thread (each delivering its events once its lock is released, as
    /// this list's is not held), playlists one call away.
    func tick(to time: Duration) async -> (changed: [ObjectIdentifier], next: Duration?) {
        let nanoseconds = Nanoseconds.of(time)
        var tick = begin()
        for entry in tick.entries {
            switch entry.ticker {
            case .player(let core, let offset):
                let time = Nanoseconds.subtract(nanoseconds, offset)
                let owes = core.tally.owesDraw
                guard let held = pacedNext(entry.id, at: time, owes: owes) else {
                    var step = core.hostTick(to: time)
                    if step.deliveryDue { core.deliverEvents() }
                    step.next = ticked(entry.id, core, at: time, next: step.next, owes: owes)
                    tick.record(entry.id, Self.shifted(step, by: offset))
                    continue
                }
                tick.record(entry.id, Self.shifted(PlayerCore.Step(next: held), by: offset))
            case .playlist(let ticked):
                let (moved, next) = await ticked(time)
                tick.record(entry.id, (moved, next.map(Nanoseconds.of)))
            }
        }
        return end(tick)
    }

    /// One tick's members, and what it has found so far.
    private struct Tick {
        let entries: [Entry]
        var changed: [ObjectIdentifier]
        var next: Int64?

        mutating func record(_ id: ObjectIdentifier, _ step: (moved: Bool, next: Int64?)) {
            HostTickList.record(id, step, changed: &changed, next: &next)
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
            guard let index = state.players.firstIndex(where: { $0.id == id }),
                !state.players[index].pace.mayTick(at: time, owes: owes)
            else { return nil }
            return .some(state.players[index].pace.next)
        }
    }

    /// Takes in a tick of player `id` at `time` that reported `next` (its
    /// own host time, nanoseconds) and returns the deadline held to its cap.
    func ticked(_ id: ObjectIdentifier, _ core: PlayerCore, at time: Int64, next: Int64?, owes: Bool) -> Int64? {
        state.withLock { state in
            guard let index = state.players.firstIndex(where: { $0.id == id }) else { return next }
            return state.players[index].pace.ticked(
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
                if newValue == nil { for index in state.players.indices { state.players[index].pace.uncap() } }
            }
        }
    }

    /// Player `id`'s counters and pacing, or `nil` when it is no member.
    func statistics(of id: ObjectIdentifier) -> MemberPlaybackStatistics? {
        state.withLock { state in
            guard let player = state.players.first(where: { $0.id == id }) else { return nil }
            let totals = player.core._withUnsafeGuaranteedRef { $0.tally.totals }
            return MemberPlaybackStatistics(
                framesOnTime: totals.onTime, framesLate: totals.late, framesSkipped: totals.skipped,
                recentMissedShare: player.pace.recentMissedShare, frameRate: player.pace.rate)
        }
    }

    /// The host's ticks so far, and the member ticks they made.
    var tickCounts: (calls: Int, members: Int) { state.withLock { ($0.tickCalls, $0.memberTicks) } }

    /// The members, and the list of changed ones taken out of the lock (so
    /// filling it copies nothing).
    private func begin() -> Tick {
        var changed: [ObjectIdentifier] = []
        let entries = state.withLock { state -> [Entry] in
            swap(&changed, &state.changed)
            state.tickCalls += 1
            state.memberTicks += state.entries.count
            return state.entries
        }
        changed.removeAllKeepingCapacity()
        return Tick(entries: entries, changed: changed)
    }

    /// Hands the list of changed members back for the next tick to reuse.
    private func end(_ tick: Tick) -> (changed: [ObjectIdentifier], next: Duration?) {
        state.withLock { $0.changed = tick.changed }
        return (tick.changed, tick.next.map(Nanoseconds.duration))
    }
}
