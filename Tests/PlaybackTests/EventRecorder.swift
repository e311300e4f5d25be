import Foundation
import Playback
import Testing

/// A `Clock` that moves only when the test says so: `sleep(until:)`
/// suspends until ``advance(to:)`` reaches the deadline.
final class ManualClock: Clock, @unchecked Sendable {
    struct Instant: InstantProtocol {
        var offset: Duration
        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        var id: Int
        var deadline: Instant
        var continuation: CheckedContinuation<Void, any Error>
    }

    private let lock = NSLock()
    private var current = Instant(offset: .zero)
    private var sleepers: [Sleeper] = []
    private var nextID = 0
    private var log: [Instant] = []

    var now: Instant { lock.withLock { current } }
    var minimumResolution: Duration { .nanoseconds(1) }

    /// Deadlines of the sleeps in progress, soonest first.
    var pendingDeadlines: [Instant] { lock.withLock { sleepers.map(\.deadline).sorted() } }

    /// Every deadline ever slept until, in call order.
    var sleepLog: [Instant] { lock.withLock { log } }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        let id = lock.withLock { nextID += 1; return nextID }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                lock.withLock {
                    log.append(deadline)
                    if deadline <= current {
                        continuation.resume()
                    } else if Task.isCancelled {
                        continuation.resume(throwing: CancellationError())
                    } else {
                        sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    }
                }
            }
        } onCancel: {
            let cancelled = lock.withLock { () -> Sleeper? in
                guard let index = sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return sleepers.remove(at: index)
            }
            cancelled?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves time to `instant` and wakes every sleeper whose deadline passed.
    func advance(to instant: Instant) {
        let due = lock.withLock { () -> [Sleeper] in
            current = max(current, instant)
            let due = sleepers.filter { $0.deadline <= current }
            sleepers.removeAll { $0.deadline <= current }
            return due
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Moves time forward by `duration`.
    func advance(by duration: Duration) { advance(to: now.advanced(by: duration)) }

    /// Waits (in real time, up to 2 minutes: tests share a small cooperative pool
    /// with CPU-bound suites) until some task sleeps until `deadline`.
    func waitForSleeper(at deadline: Instant, sourceLocation: SourceLocation = #_sourceLocation) async {
        let ok = await eventually { self.pendingDeadlines.contains(deadline) }
        #expect(ok, "no sleeper at \(deadline.offset); pending \(pendingDeadlines.map(\.offset))", sourceLocation: sourceLocation)
    }
}

/// Polls `condition` until it holds, at most `polls` times with a 1 ms
/// sleep between polls (about two minutes on an idle machine); true once it
/// holds. The bound is a number of polls, not a wall-clock time: when other
/// tests of the run keep Swift's cooperative pool busy (a loaded 2-core
/// machine), the task that would make the condition true is starved as much
/// as this loop is, so a time limit would fail a correct test.
func eventually(polls: Int = 120_000, _ condition: @Sendable () async -> Bool) async -> Bool {
    for _ in 0..<polls {
        if await condition() { return true }
        try? await Task.sleep(for: .milliseconds(1))
    }
    return await condition()
}

/// Collects events delivered to a callback, in order.
final class EventRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var records: [(PlayerEvent, Duration)] = []

    func record(_ event: PlayerEvent, at time: Duration = .zero) {
        lock.withLock { records.append((event, time)) }
    }

    var events: [PlayerEvent] { lock.withLock { records.map(\.0) } }
    var timedEvents: [(PlayerEvent, Duration)] { lock.withLock { records } }
}
