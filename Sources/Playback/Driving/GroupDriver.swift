import EngineSupport

/// Runs many players and playlists in real time on one clock: it sleeps
/// until the earliest next change among them, advances the members whose
/// change has come to the clock's time, and repeats.
///
/// Nine GIFs in a grid cost one wake-up per change of any of them, not nine
/// drivers waking on their own; nine players on one epoch wake it once per
/// frame period. With a `maximumFrameRate` it wakes at most that often:
/// frames due in between are dropped, but every member is still advanced to
/// the clock's true time, so each one's timing (which frame it shows when,
/// loop and finish events) stays what it would be alone, under its
/// ``CatchUpPolicy``.
///
/// ```swift
/// let clock = ContinuousClock()
/// let group = GroupDriver(clock: clock, maximumFrameRate: 30)
/// for player in players { await group.add(player) }
/// let driving = Task { await group.run() }
/// for player in players { await player.play(at: clock.now) }
/// // …members come and go while it runs:
/// await group.remove(players[0])
/// driving.cancel()
/// ```
///
/// Like ``PlaybackDriver`` (which is a group of one), it does not poll: it
/// wakes at deadlines, or when the host changes a member's schedule (play,
/// pause, stop, seek, rate, a playlist's load arriving); deadlines come from
/// each member's anchor, so sleeping accumulates no error. One sleeper task
/// does the sleeping, handed each deadline in turn; it is replaced only when
/// a deadline it sleeps toward moves or goes away, since only cancellation
/// interrupts a `Clock`'s sleep.
///
/// The group holds its members (strongly) until they are removed.
public actor GroupDriver<C: Clock> where C.Duration == Duration {
    private struct Member {
        let id: ObjectIdentifier
        let target: any DrivenMember<C.Instant>
        let engine: DrivenEngine
        /// The instant the member's host time counts from.
        let origin: C.Instant
        /// The wake-up registered in the member while the driver runs.
        var token: Int?
        var deadline: C.Instant?

        init(_ target: any DrivenMember<C.Instant>) {
            id = ObjectIdentifier(target)
            self.target = target
            engine = target.engine
            origin = target.origin
        }
    }

    /// The clock that supplies time and sleeps.
    public nonisolated let clock: C

    /// The most deadline wake-ups per second, or `nil` for no cap.
    package nonisolated let maximumFrameRate: Double?

    /// The least time between two deadline wake-ups, from the cap.
    private nonisolated let minimumInterval: Duration?

    /// Members in the order added; only the running loop changes this.
    private var members: [Member] = []
    /// Additions (`true`) and removals not yet applied by the loop.
    private var changes: [(add: Bool, member: any DrivenMember<C.Instant>)] = []
    /// The running loop's inbox, or `nil` while not running.
    private var inbox: AsyncStream<DriverCommand>.Continuation?
    private var counters = GroupDriverStatistics()
    /// The members in the order added, for ``tick(at:)``, which runs
    /// outside the actor, in host time from ``reference``.
    private nonisolated let hosted = HostTickList()
    /// The instant ``hosted`` counts host time from: the clock's time when
    /// the driver was made.
    @usableFromInline nonisolated let reference: C.Instant

    /// Creates a driver with no members; nothing runs until ``run()``.
    /// - Parameters:
    ///   - clock: The clock to read and sleep on; members must measure time
    ///     on it.
    ///   - maximumFrameRate: The most deadline wake-ups per second (30 suits
    ///     a grid of small GIFs), or `nil` to wake at every deadline. A value
    ///     that is not finite and positive means no cap.
    ///   - frameRatePolicy: How the players' rates follow the frames the
    ///     host misses, or `nil` (the default) to play every player at its
    ///     own pace; see `frameRatePolicy`.
    public init(clock: C, maximumFrameRate: Double? = nil, frameRatePolicy: FrameRatePolicy? = nil) {
        self.clock = clock
        self.reference = clock.now
        hosted.policy = frameRatePolicy
        if let rate = maximumFrameRate, rate.isFinite, rate > 0 {
            self.maximumFrameRate = rate
            self.minimumInterval = .nanoseconds(Nanoseconds.fromDouble(1e9 / rate, .up))
        } else {
            self.maximumFrameRate = nil
            self.minimumInterval = nil
        }
    }

    /// The counters so far: the driver's own ticks and the host's.
    public var statistics: GroupDriverStatistics {
        var statistics = counters
        let (calls, members) = hosted.tickCounts
        statistics.hostTicks = calls
        statistics.ticks += members
        return statistics
    }

    /// How the players' frame rates follow the frames the host misses, or
    /// `nil` when every player plays at its own pace. While a policy is
    /// set, a player whose draws miss more than its threshold gets a rate
    /// cap, lowered and raised in steps (see ``FrameRatePolicy``); setting
    /// `nil` lifts every cap at once. A ``GridFeed`` sets
    /// ``FrameRatePolicy/standard`` on its driver unless told otherwise; a
    /// lone player's ``PlaybackDriver`` has none. Playlists are not paced.
    package nonisolated var frameRatePolicy: FrameRatePolicy? { hosted.policy }

    /// Sets `frameRatePolicy`, from any thread: the next tick of each
    /// player follows it.
    /// - Parameter policy: The policy, or `nil` to lift every cap.
    public nonisolated func setFrameRatePolicy(_ policy: FrameRatePolicy?) { hosted.policy = policy }

    /// What the host's draws made of `player`'s frames (on time, late,
    /// skipped, the share missed in the last window) and its rate cap, or
    /// `nil` when it is not a member. Counts start when the player is made:
    /// subtract two readings for an interval. Safe from any thread, and
    /// cheap: a lock and a few loads.
    /// - Parameter player: A member.
    public nonisolated func statistics(of player: Player<C.Instant>) -> MemberPlaybackStatistics? {
        hosted.statistics(of: ObjectIdentifier(player))
    }

    /// The number of members, counting additions and removals the running
    /// driver has not applied yet.
    package var memberCount: Int {
        var ids = Set(members.map(\.id))
        for change in changes {
            let id = ObjectIdentifier(change.member)
            if change.add { ids.insert(id) } else { ids.remove(id) }
        }
        return ids.count
    }

    /// Adds `player`, at once or, while running, at the driver's next turn
    /// (it is then advanced to the clock's time and scheduled). Adding a
    /// member twice does nothing.
    /// - Parameter player: A player measuring time on ``clock``.
    public func add(_ player: Player<C.Instant>) { change(add: true, player) }

    /// Adds `playlist`, as a player is added.
    /// - Parameter playlist: A playlist measuring time on ``clock``.
    public func add(_ playlist: Playlist<C.Instant>) { change(add: true, playlist) }

    /// Removes `player`, at once or, while running, at the driver's next
    /// turn; a player that is not a member is ignored. The player keeps its
    /// position; nothing advances it any more.
    /// - Parameter player: A member.
    public func remove(_ player: Player<C.Instant>) { change(add: false, player) }

    /// Removes `playlist`, as a player is removed.
    /// - Parameter playlist: A member.
    public func remove(_ playlist: Playlist<C.Instant>) { change(add: false, playlist) }

    private func change(add: Bool, _ member: any DrivenMember<C.Instant>) {
        changes.append((add, member))
        inbox?.yield(.membership)
        let id = ObjectIdentifier(member)
        guard add else {
            hosted.remove(id)
            return
        }
        let offset = reference.duration(to: member.origin)
        let ticker: HostTickList.Ticker =
            switch member.engine {
            case .core(let core): .player(core, offset: Nanoseconds.of(offset))
            case .playlist(let core): .playlist(core, offset: offset)
            }
        hosted.add(HostTickList.Entry(id: id, ticker: ticker))
    }

    /// Drives the members until the calling task is cancelled; returns at
    /// once when another `run()` of this driver is in progress. Events reach
    /// the members' observers and streams as usual.
    public func run() async {
        guard inbox == nil else { return }
        let (commands, inbox) = AsyncStream.makeStream(of: DriverCommand.self)
        self.inbox = inbox
        var sleeper = DriverSleeper(clock: clock, inbox: inbox)
        var iterator = commands.makeAsyncIterator()
        var lastWake: C.Instant?
        for index in members.indices { await register(index) }
        await applyChanges()
        while !Task.isCancelled {
            sleeper.sleep(until: nextWake(after: lastWake))
            guard let command = await iterator.next() else { break }
            switch command {
            case .timer(let generation):
                guard let target = sleeper.fired(generation) else { continue }
                counters.wakeUps += 1
                lastWake = target
                await tickDue()
            case .member(let id):
                counters.scheduleChanges += 1
                if let index = members.firstIndex(where: { $0.id == id }) { await tick(index, at: clock.now) }
            case .membership:
                await applyChanges()
            }
        }
        await sleeper.stop()
        for index in members.indices {
            if let token = members[index].token { await members[index].target.removeWake(token) }
            members[index].token = nil
            members[index].deadline = nil
        }
        self.inbox = nil
        inbox.finish()
    }

    /// Advances every member to `instant`, for a host that ticks the group
    /// from its display link (a `CADisplayLink`, a `CVDisplayLink`, a
    /// compositor's frame callback) instead of letting ``run()`` sleep on
    /// the clock: call it once per refresh with the refresh's time, then
    /// redraw only the members it returns (with ``Player/draw(into:bytesPerRow:)``
    /// or ``Playlist/draw(into:bytesPerRow:)``, which say which rectangle
    /// changed). Members added or removed since the last call count from
    /// the call that follows them. Use either this or ``run()``, not both
    /// at once. A player whose next change comes after `instant`, and that
    /// nothing else changed since its last tick, costs a lock and a
    /// comparison: a host may tick the group at every refresh. The
    /// members' events reach their observers and streams before it returns,
    /// once the group's and the members' locks are released, so an
    /// observer may call back into a member or the group.
    ///
    /// Players and playlists alike are ticked on the calling thread,
    /// without waiting for their actors: this is ``tickPlayers(at:)`` for
    /// a caller that is already asynchronous.
    ///
    /// A player whose latest draw was ``FrameDraw/late(frame:shown:)`` is
    /// named among the changed members at every tick, with its next change
    /// due at `instant`, until a draw gets through: a host that redraws the
    /// members a tick names, and pauses until the next change, draws the
    /// frame it owes at its next refresh.
    ///
    /// - Parameter instant: The refresh's time on ``clock``.
    /// - Returns: The members whose shown frame changed (or whose frame is
    ///   owed; a playlist's item, frame or load), and when the next change
    ///   of any member is due (a host may pause its display link until
    ///   then).
    @inlinable
    public final nonisolated func tick(at instant: C.Instant) async -> GroupDriverTick<C.Instant> {
        tickPlayers(at: instant)
    }

    /// ``tick(at:)`` on the calling thread, without waiting, for a display
    /// link's callback (a `CADisplayLink`'s or a `CVDisplayLink`'s, or a
    /// render thread's loop), which cannot await: every member, player or
    /// playlist, is advanced to `instant` there and then, as ``tick(at:)``
    /// does (a player not due yet costs a lock and a comparison). Events
    /// are delivered as ``tick(at:)`` delivers them; a playlist's loads run
    /// on tasks of its own.
    ///
    /// ```swift
    /// let group = GroupDriver(clock: clock)
    /// for player in players { await group.add(player) }
    /// // In the display link's callback, on its thread:
    /// let tick = group.tickPlayers(at: clock.now)
    /// for player in players where tick.changed.contains(ObjectIdentifier(player)) {
    ///     _ = try player.draw(into: buffer, bytesPerRow: bytesPerRow)
    /// }
    /// ```
    ///
    /// - Parameter instant: The refresh's time on ``clock``.
    /// - Returns: The members whose shown frame changed and when the next
    ///   change is due, as ``tick(at:)`` returns them.
    @inlinable
    public final nonisolated func tickPlayers(at instant: C.Instant) -> GroupDriverTick<C.Instant> {
        // Inlined into the host's code and so specialized for its clock:
        // generic over the clock, building the result would look up the
        // type metadata of an optional instant on every call. The result
        // is built once, not wrapped in an optional first: the host's
        // instant type is resilient (`ContinuousClock.Instant` is), so
        // every optional of it, and of a result holding it, is handled
        // through its value witnesses.
        let (changed, next) = tickMembers(to: reference.duration(to: instant))
        return tick(changed: changed, next: next)
    }

    /// A tick's result, `next` (host time from ``reference``) as an instant
    /// of ``clock``.
    @inlinable
    final nonisolated func tick(changed: [ObjectIdentifier], next: Duration?) -> GroupDriverTick<C.Instant> {
        guard let next else { return GroupDriverTick(changed: changed, nextChange: nil) }
        return GroupDriverTick(changed: changed, nextChange: reference.advanced(by: next))
    }

    /// ``tick(at:)`` in host time from ``reference``, on the calling thread.
    @usableFromInline
    final nonisolated func tickMembers(to time: Duration) -> (changed: [ObjectIdentifier], next: Duration?) {
        // Called from outside the actor: every member is ticked on this thread.
        hosted.tick(to: time)
    }

    /// Drives `member` alone until the calling task is cancelled: a
    /// ``PlaybackDriver``'s or a ``PlaylistDriver``'s run.
    static func drive(_ member: any DrivenMember<C.Instant>, on clock: C) async {
        let driver = GroupDriver(clock: clock)
        await driver.change(add: true, member)
        await driver.run()
    }

    /// The earliest deadline, held back to the minimum interval after the
    /// previous deadline wake-up.
    private func nextWake(after lastWake: C.Instant?) -> C.Instant? {
        var earliest: C.Instant?
        for member in members {
            if let deadline = member.deadline, earliest.map({ deadline < $0 }) ?? true { earliest = deadline }
        }
        guard let earliest, let minimumInterval, let lastWake else { return earliest }
        return max(earliest, lastWake.advanced(by: minimumInterval))
    }

    /// Ticks every member whose deadline has come, all to the same instant.
    private func tickDue() async {
        let now = clock.now
        for index in members.indices {
            guard let deadline = members[index].deadline, deadline <= now else { continue }
            await tick(index, at: now, paced: true)
        }
    }

    /// Ticks member `index` to `now`; a `paced` tick (at a deadline, not a
    /// host's change) of a player whose rate cap holds it only moves its
    /// deadline to where the cap lets it go.
    private func tick(_ index: Int, at now: C.Instant, paced: Bool = false) async {
        guard let token = members[index].token else { return }
        let origin = members[index].origin
        switch members[index].engine {
        case .core(let core):
            let id = members[index].id
            let time = origin.duration(to: now)
            let owes = core.tally.owesDraw
            if paced, let held = hosted.pacedNext(id, at: Nanoseconds.of(time), owes: owes) {
                members[index].deadline = held.map { origin.advanced(by: Nanoseconds.duration($0)) }
                return
            }
            counters.ticks += 1
            let next = core.tick(to: time, wake: token).map(Nanoseconds.of)
            members[index].deadline = hosted.ticked(id, core, at: Nanoseconds.of(time), next: next, owes: owes)
                .map { origin.advanced(by: Nanoseconds.duration($0)) }
        case .playlist(let core):
            counters.ticks += 1
            members[index].deadline = core.tick(to: origin.duration(to: now), wake: token).map(origin.advanced(by:))
        }
    }

    /// Registers the driver's wake-up in member `index` and ticks it.
    private func register(_ index: Int) async {
        guard let inbox else { return }
        let id = members[index].id
        members[index].token = await members[index].target.addWake { inbox.yield(.member(id)) }
        await tick(index, at: clock.now)
    }

    private func applyChanges() async {
        while !changes.isEmpty {
            let change = changes.removeFirst()
            let id = ObjectIdentifier(change.member)
            let index = members.firstIndex { $0.id == id }
            if change.add {
                guard index == nil else { continue }
                members.append(Member(change.member))
                await register(members.count - 1)
            } else if let index {
                let member = members.remove(at: index)
                if let token = member.token { await member.target.removeWake(token) }
            }
        }
    }
}
