/// What wakes a ``DriverLoop``: its sleeper reaching a deadline, a member
/// whose schedule the host changed, or members added or removed.
enum DriverCommand: Sendable {
    /// The sleep with this generation reached its deadline.
    case timer(Int)
    /// The host changed this member's schedule.
    case member(ObjectIdentifier)
    /// ``DriverLoop/add(_:)`` or ``DriverLoop/remove(_:)`` was called.
    case membership
}

/// Counts of what a driver loop did.
struct DriverCounters: Sendable, Hashable {
    /// Wake-ups at a deadline (the sleeper's).
    var wakeUps = 0
    /// Wake-ups because the host changed a member's schedule.
    var scheduleChanges = 0
    /// Members ticked, all causes together.
    var ticks = 0
}

/// The one driver loop behind ``PlaybackDriver``, ``PlaylistDriver`` and
/// ``GroupDriver``: it ticks its members to the clock's time, sleeps until
/// the earliest deadline among them (no sooner than `minimumInterval` after
/// the previous deadline wake-up, when there is one), and wakes early when
/// the host changes a member's schedule.
///
/// One long-lived sleeper task does the sleeping: it is handed each deadline
/// in turn, and is replaced only when a deadline it sleeps toward is
/// withdrawn or moved (pause, seek, rate change), since only cancellation
/// interrupts a `Clock`'s sleep.
actor DriverLoop<C: Clock> where C.Duration == Duration {
    typealias Instant = C.Instant

    private struct Member {
        let id: ObjectIdentifier
        let target: any DrivenMember<Instant>
        /// The wake-up registered in the member while the loop runs.
        var token: Int?
        var deadline: Instant?
    }

    nonisolated let clock: C
    /// The least time between two deadline wake-ups, or `nil` for none.
    nonisolated let minimumInterval: Duration?

    /// Members in the order added; only the running loop changes this.
    private var members: [Member] = []
    /// Additions (`true`) and removals not yet applied by the loop.
    private var changes: [(add: Bool, member: any DrivenMember<Instant>)] = []
    /// The running loop's inbox, or `nil` while not running.
    private var inbox: AsyncStream<DriverCommand>.Continuation?
    private(set) var counters = DriverCounters()

    init(clock: C, minimumInterval: Duration?) {
        self.clock = clock
        self.minimumInterval = minimumInterval
    }

    /// Drives `member` alone until the calling task is cancelled: a
    /// ``PlaybackDriver``'s or a ``PlaylistDriver``'s run.
    static func drive(_ member: any DrivenMember<Instant>, on clock: C) async {
        let loop = DriverLoop(clock: clock, minimumInterval: nil)
        await loop.add(member)
        await loop.run()
    }

    /// The number of members, counting changes not applied yet.
    var memberCount: Int {
        var ids = Set(members.map(\.id))
        for change in changes {
            if change.add { ids.insert(ObjectIdentifier(change.member)) } else { ids.remove(ObjectIdentifier(change.member)) }
        }
        return ids.count
    }

    /// Adds `member` at the loop's next turn (at once when not running);
    /// adding a member twice does nothing.
    func add(_ member: any DrivenMember<Instant>) {
        changes.append((true, member))
        inbox?.yield(.membership)
    }

    /// Removes `member` at the loop's next turn; an unknown one is ignored.
    func remove(_ member: any DrivenMember<Instant>) {
        changes.append((false, member))
        inbox?.yield(.membership)
    }

    /// Drives the members until the calling task is cancelled; returns at
    /// once when another `run()` is in progress.
    func run() async {
        guard inbox == nil else { return }
        let (commands, inbox) = AsyncStream.makeStream(of: DriverCommand.self)
        self.inbox = inbox
        var sleeper = DriverSleeper(clock: clock, inbox: inbox)
        var iterator = commands.makeAsyncIterator()
        var lastWake: Instant?
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

    /// The earliest deadline, held back to `minimumInterval` after the
    /// previous deadline wake-up.
    private func nextWake(after lastWake: Instant?) -> Instant? {
        var earliest: Instant?
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
            await tick(index, at: now)
        }
    }

    private func tick(_ index: Int, at now: Instant) async {
        guard let token = members[index].token else { return }
        counters.ticks += 1
        members[index].deadline = await members[index].target.tick(to: now, wake: token)
    }

    /// Registers the loop's wake-up in member `index` and ticks it.
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
                members.append(Member(id: id, target: change.member))
                await register(members.count - 1)
            } else if let index {
                let member = members.remove(at: index)
                if let token = member.token { await member.target.removeWake(token) }
            }
        }
    }
}

/// The driver loop's one long-lived sleeper: a task that sleeps until each
/// deadline it is handed and then posts ``DriverCommand/timer(_:)``.
struct DriverSleeper<C: Clock> {
    private let clock: C
    private let inbox: AsyncStream<DriverCommand>.Continuation
    private var task: Task<Void, Never>?
    private var deadlines: AsyncStream<(C.Instant, Int)>.Continuation?
    /// The deadline being slept toward, or `nil` when resting.
    private var target: C.Instant?
    private var generation = 0

    init(clock: C, inbox: AsyncStream<DriverCommand>.Continuation) {
        self.clock = clock
        self.inbox = inbox
    }

    /// Sleeps until `deadline`, or rests for `nil`: a sleep toward another
    /// deadline is cancelled first, and the same deadline again changes
    /// nothing.
    mutating func sleep(until deadline: C.Instant?) {
        guard deadline != target else { return }
        if target != nil { cancelTask() }
        guard let deadline else { return }
        if deadlines == nil { startTask() }
        generation += 1
        target = deadline
        deadlines?.yield((deadline, generation))
    }

    /// The deadline reached when `generation` is the current sleep's (the
    /// sleeper now rests), or `nil` for a sleep cancelled meanwhile.
    mutating func fired(_ generation: Int) -> C.Instant? {
        guard generation == self.generation, let reached = target else { return nil }
        target = nil
        return reached
    }

    /// Cancels the sleeper and waits until it has ended.
    mutating func stop() async {
        let ending = task
        cancelTask()
        await ending?.value
    }

    private mutating func startTask() {
        let (stream, deadlines) = AsyncStream.makeStream(of: (C.Instant, Int).self, bufferingPolicy: .bufferingNewest(1))
        self.deadlines = deadlines
        task = Task { [clock, inbox] in
            for await (deadline, generation) in stream {
                do {
                    try await clock.sleep(until: deadline, tolerance: nil)
                } catch {
                    return  // Cancelled: the deadline moved, or the loop stopped.
                }
                inbox.yield(.timer(generation))
            }
        }
    }

    private mutating func cancelTask() {
        task?.cancel()
        deadlines?.finish()
        task = nil
        deadlines = nil
        target = nil
    }
}
