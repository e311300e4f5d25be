import Foundation
import Playback

/// How a test waits for work on other tasks without polling: it names what
/// to watch (clocks, players, playlists; test doubles call ``signal()``),
/// and its condition is checked again only when one of them changes.
///
/// ```swift
/// #expect(await Changes.until(watching: [playlist]) { await playlist.loadState(of: "B") == .ready })
/// ```
///
/// A wait that is not met fails after ``limit`` of real time, not minutes:
/// the tests that wait run in their own process, apart from the CPU-bound
/// corpus sweeps.
package final class Changes: @unchecked Sendable {
    /// How long a wait lasts before it reports failure: 10 s, or
    /// `PLAYBACK_TEST_WAIT_SECONDS`. `make test` gives 60: Swift Testing
    /// starts every test of a process at once, so under a sanitizer on two
    /// cores a wait shares the cooperative pool with 30 to 40 s of other
    /// tests' work, and ThreadSanitizer's code runs 5 to 15 times slower.
    package static let limit: Duration = .seconds(
        ProcessInfo.processInfo.environment["PLAYBACK_TEST_WAIT_SECONDS"].flatMap { Int($0) } ?? 10)

    /// The signal every test double of the process calls when it changes: a
    /// spurious wake-up only makes a waiting test check its condition again.
    package static let shared = Changes()

    private let lock = NSLock()
    /// Read and written with `lock` held.
    private var generation = 0
    private var waiters: [(id: Int, continuation: CheckedContinuation<Bool, Never>)] = []
    private var nextID = 0

    package init() {}

    /// Something changed: every wait checks its condition again.
    package func signal() {
        let woken = lock.withLock {
            generation += 1
            defer { waiters.removeAll() }
            return waiters
        }
        for waiter in woken { waiter.continuation.resume(returning: true) }
    }

    /// Waits until `condition` holds, checking it at once and after each
    /// change of `watching` or signal of ``shared``; `false` when it still
    /// does not hold after `limit`.
    package static func until(
        watching watched: [any Watchable] = [], limit: Duration = limit,
        _ condition: @Sendable () async -> Bool
    ) async -> Bool {
        let changes = shared
        var tokens: [(any Watchable, Int)] = []
        for item in watched { tokens.append((item, await item.watch { changes.signal() })) }
        defer {
            let registered = tokens
            Task { for (item, token) in registered { await item.unwatch(token) } }
        }
        let deadline = ContinuousClock.now.advanced(by: limit)
        while true {
            let seen = changes.lock.withLock { changes.generation }
            if await condition() { return true }
            guard await changes.change(after: seen, before: deadline) else { return await condition() }
        }
    }

    /// Suspends until a signal after generation `seen` (`true`) or until
    /// `deadline` (`false`).
    private func change(after seen: Int, before deadline: ContinuousClock.Instant) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask { await self.wait(after: seen) }
            group.addTask {
                try? await Task.sleep(until: deadline, clock: .continuous)
                return false
            }
            let changed = await group.next() ?? false
            group.cancelAll()
            return changed
        }
    }

    private func wait(after seen: Int) async -> Bool {
        let id = lock.withLock {
            nextID += 1
            return nextID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let answer: Bool? = lock.withLock {
                    if generation > seen { return true }
                    if Task.isCancelled { return false }
                    waiters.append((id, continuation))
                    return nil
                }
                if let answer { continuation.resume(returning: answer) }
            }
        } onCancel: {
            let waiter = lock.withLock { () -> CheckedContinuation<Bool, Never>? in
                guard let index = waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return waiters.remove(at: index).continuation
            }
            waiter?.resume(returning: false)
        }
    }
}

/// Something a ``Changes`` wait can watch: it calls `signal` after each
/// change until unwatched.
package protocol Watchable: Sendable {
    /// Starts calling `signal` after each change; returns a token.
    func watch(_ signal: @escaping @Sendable () -> Void) async -> Int
    /// Stops the calls registered under `token`.
    func unwatch(_ token: Int) async
}

extension Player: Watchable {
    package func watch(_ signal: @escaping @Sendable () -> Void) -> Int { addWatcher(signal) }
    package func unwatch(_ token: Int) { removeWatcher(token) }
}

extension Playlist: Watchable {
    package func watch(_ signal: @escaping @Sendable () -> Void) -> Int { addWatcher(signal) }
    package func unwatch(_ token: Int) { removeWatcher(token) }
}

extension FrameCache: Watchable {
    package func watch(_ signal: @escaping @Sendable () -> Void) -> Int { addWatcher(signal) }
    package func unwatch(_ token: Int) { removeWatcher(token) }
}

/// A manual clock changes when a sleep starts or ends.
extension ManualClock: Watchable {
    package func watch(_ signal: @escaping @Sendable () -> Void) async -> Int {
        let task = Task {
            var seen = pendingDeadlines
            while !Task.isCancelled {
                let last = seen
                guard await waitForSleepers(limit: .seconds(3600), until: { $0 != last }) else { return }
                seen = pendingDeadlines
                signal()
            }
        }
        return ClockWatches.shared.add(task)
    }

    package func unwatch(_ token: Int) {
        ClockWatches.shared.cancel(token)
    }
}

/// The tasks that watch manual clocks, by token.
private final class ClockWatches: @unchecked Sendable {
    static let shared = ClockWatches()
    private let lock = NSLock()
    private var tasks: [Int: Task<Void, Never>] = [:]
    private var nextToken = 0

    func add(_ task: Task<Void, Never>) -> Int {
        lock.withLock {
            nextToken += 1
            tasks[nextToken] = task
            return nextToken
        }
    }

    func cancel(_ token: Int) {
        lock.withLock { tasks.removeValue(forKey: token) }?.cancel()
    }
}

/// Waits until `condition` holds: ``Changes/until(watching:limit:_:)``.
package func eventually(
    watching watched: [any Watchable] = [], _ condition: @Sendable () async -> Bool
) async -> Bool {
    await Changes.until(watching: watched, condition)
}
