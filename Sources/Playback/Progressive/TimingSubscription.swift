@_spi(Engine) import EngineSupport

/// The task that feeds a progressive source's timings to its owner (a
/// ``Player`` or a ``Playlist``), cancelled when the owner goes away so the
/// source's stream is let go.
final class TimingSubscription: Sendable {
    private let tasks = LockedState<[Task<Void, Never>]>([])

    /// Runs `body` on a new task, kept until ``cancel()``.
    func start(_ body: @escaping @Sendable () async -> Void) {
        let task = Task { await body() }
        tasks.withLock { $0.append(task) }
    }

    /// Cancels every task started.
    func cancel() {
        for task in tasks.withLock({ $0 }) { task.cancel() }
    }
}
