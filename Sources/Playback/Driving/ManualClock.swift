@_spi(Engine) import EngineSupport

/// A `Clock` whose time moves only when you say so: the deterministic clock
/// for a host's own tests of code that drives players and playlists.
///
/// `sleep(until:)` suspends until ``advance(to:)`` (or ``advance(by:)``)
/// moves ``now`` to or past the deadline; a cancelled sleep throws
/// `CancellationError` at once. Nothing in it reads real time, so a test that
/// advances it step by step sees exactly the frame changes a real clock would
/// produce at those instants.
///
/// ```swift
/// let clock = ManualClock()
/// let player = try Player(source: source, startingAt: clock.now)  // frame 0 shows for 100 ms
/// let driver = PlaybackDriver(player: player, clock: clock)
/// let task = Task { await driver.run() }
/// await player.play(at: clock.now)
/// await clock.waitForSleeper(at: clock.now.advanced(by: .milliseconds(100)))
/// clock.advance(by: .milliseconds(100))   // the driver wakes and shows frame 1
/// task.cancel()
/// ```
public final class ManualClock: Clock, Sendable {
    /// An instant of a ``ManualClock``: the time since the clock was made.
    public struct Instant: InstantProtocol, Sendable, Hashable, CustomStringConvertible {
        /// The time since the clock's start.
        package var offset: Duration

        /// An instant `offset` after the clock's start.
        public init(offset: Duration) { self.offset = offset }

        /// The instant `duration` later (earlier when negative).
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }

        /// The time from this instant to `other`.
        public func duration(to other: Instant) -> Duration { other.offset - offset }

        /// Whether `lhs` comes before `rhs`.
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }

        /// The offset, as in `"+1.5 seconds"`.
        public var description: String { "+\(offset)" }
    }

    private struct Sleeper {
        var id: Int
        var deadline: Instant
        var continuation: CheckedContinuation<Void, any Error>
    }

    /// A ``waitForSleepers(limit:until:)`` call waiting for its condition.
    private struct Watcher {
        var id: Int
        var condition: @Sendable ([Instant]) -> Bool
        var continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var now: Instant
        var sleepers: [Sleeper] = []
        var watchers: [Watcher] = []
        var nextID = 0
        var sleepCount = 0
        var log: [Instant] = []

        var pendingDeadlines: [Instant] { sleepers.map(\.deadline).sorted() }

        /// Removes the watchers whose condition the sleeps in progress meet,
        /// to be resumed with `true` once the lock is released.
        mutating func satisfiedWatchers() -> [Watcher] {
            guard !watchers.isEmpty else { return [] }
            let pending = pendingDeadlines
            let met = watchers.filter { $0.condition(pending) }
            watchers.removeAll { watcher in met.contains { $0.id == watcher.id } }
            return met
        }
    }

    private let state: LockedState<State>

    /// A clock whose ``now`` is `start` (its zero by default).
    public init(start: Instant = Instant(offset: .zero)) {
        state = LockedState(State(now: start))
    }

    /// The current instant: moved only by ``advance(to:)`` and ``advance(by:)``.
    public var now: Instant { state.withLock { $0.now } }

    /// One nanosecond.
    public var minimumResolution: Duration { .nanoseconds(1) }

    /// The deadlines of the sleeps in progress, soonest first.
    package var pendingDeadlines: [Instant] { state.withLock { $0.pendingDeadlines } }

    /// How many times `sleep(until:)` has been called: a driver's wake-ups.
    package var sleepCount: Int { state.withLock { $0.sleepCount } }

    /// Every deadline slept until, in call order. It grows by one entry per
    /// sleep, which suits a test; a long-running program should read
    /// ``sleepCount`` instead.
    package var sleepLog: [Instant] { state.withLock { $0.log } }

    /// Suspends until the clock reaches `deadline` (at once when it already
    /// has); throws `CancellationError` when the task is cancelled first.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = state.withLock { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let (resumeNow, met): ((any Error)??, [Watcher]) = state.withLock { state in
                    state.sleepCount += 1
                    state.log.append(deadline)
                    if deadline <= state.now { return (.some(nil), []) }
                    if Task.isCancelled { return (.some(CancellationError()), []) }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return (.none, state.satisfiedWatchers())
                }
                for watcher in met { watcher.continuation.resume(returning: true) }
                switch resumeNow {
                case .none: break
                case .some(nil): continuation.resume()
                case .some(let error?): continuation.resume(throwing: error)
                }
            }
        } onCancel: {
            let (cancelled, met) = state.withLock { state -> (Sleeper?, [Watcher]) in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return (nil, []) }
                let sleeper = state.sleepers.remove(at: index)
                return (sleeper, state.satisfiedWatchers())
            }
            cancelled?.continuation.resume(throwing: CancellationError())
            for watcher in met { watcher.continuation.resume(returning: true) }
        }
    }

    /// Moves time to `instant` and wakes every sleeper whose deadline it
    /// reached. Time never goes back: an earlier `instant` changes nothing.
    public func advance(to instant: Instant) {
        let (due, met) = state.withLock { state -> ([Sleeper], [Watcher]) in
            state.now = max(state.now, instant)
            let now = state.now
            // Most advances of a host stepping frame by frame wake no one.
            guard state.sleepers.contains(where: { $0.deadline <= now }) else { return ([], []) }
            let due = state.sleepers.filter { $0.deadline <= now }
            state.sleepers.removeAll { $0.deadline <= now }
            return (due, due.isEmpty ? [] : state.satisfiedWatchers())
        }
        for sleeper in due { sleeper.continuation.resume() }
        for watcher in met { watcher.continuation.resume(returning: true) }
    }

    /// Moves time forward by `duration` (a negative one changes nothing).
    public func advance(by duration: Duration) {
        let target = state.withLock { $0.now.advanced(by: duration) }
        advance(to: target)
    }

    /// Waits, in real time and for at most `limit`, until some task sleeps
    /// until `deadline`: how a test knows that a driver has gone to sleep
    /// before it moves the clock. Returns whether that happened in time.
    @discardableResult
    public func waitForSleeper(at deadline: Instant, limit: Duration = .seconds(10)) async -> Bool {
        await waitForSleepers(limit: limit) { $0.contains(deadline) }
    }

    /// Waits, in real time and for at most `limit`, until the deadlines of
    /// the sleeps in progress (soonest first, as `pendingDeadlines`) meet
    /// `condition`; returns whether they did in time.
    ///
    /// The condition is checked at once, then each time a sleep starts or
    /// ends, never on a timer: `{ $0.isEmpty }` waits until every driver has
    /// stopped sleeping, `{ ($0.first ?? .distantFuture) > instant }` until
    /// the drivers woken at `instant` have gone back to sleep. A task that
    /// is cancelled stops waiting and gets `false`.
    @discardableResult
    public func waitForSleepers(
        limit: Duration = .seconds(10), until condition: @escaping @Sendable ([Instant]) -> Bool
    ) async -> Bool {
        let id = state.withLock { state -> Int? in
            if condition(state.pendingDeadlines) { return nil }
            state.nextID += 1
            return state.nextID
        }
        guard let id else { return true }
        return await withTaskGroup(of: Bool.self) { group in
            group.addTask { await self.watch(id: id, condition: condition) }
            group.addTask {
                try? await Task.sleep(for: limit)
                return false
            }
            let met = await group.next() ?? false
            group.cancelAll()
            return met
        }
    }

    /// Suspends until `condition` holds for the sleeps in progress (`true`)
    /// or the task is cancelled (`false`).
    private func watch(id: Int, condition: @escaping @Sendable ([Instant]) -> Bool) async -> Bool {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let answer: Bool? = state.withLock { state in
                    if condition(state.pendingDeadlines) { return true }
                    if Task.isCancelled { return false }
                    state.watchers.append(Watcher(id: id, condition: condition, continuation: continuation))
                    return nil
                }
                if let answer { continuation.resume(returning: answer) }
            }
        } onCancel: {
            let watcher = state.withLock { state -> Watcher? in
                guard let index = state.watchers.firstIndex(where: { $0.id == id }) else { return nil }
                return state.watchers.remove(at: index)
            }
            watcher?.continuation.resume(returning: false)
        }
    }
}
