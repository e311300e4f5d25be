#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value guarded by a pthread mutex, with one condition variable to wait
/// on it: the only synchronisation the parallel decoder needs, without
/// Foundation (and without `Synchronization`, which needs macOS 15).
///
/// The lock is only ever held inside a ``withLock(wakingWaiters:_:)`` or
/// ``withLock(when:_:)`` call: it is taken and released in one scope, and the
/// state cannot be reached without it.
package final class ConditionLock<State>: @unchecked Sendable {
    // The pthread objects live at fixed addresses, as pthreads requires.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    /// Read and written only with `mutex` held.
    private var state: State

    package init(_ state: State) {
        self.state = state
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Runs `body` on the state with the lock held; with `wakingWaiters`,
    /// then wakes every thread waiting in ``withLock(when:_:)`` to look at
    /// the state again.
    package func withLock<Result>(wakingWaiters: Bool = false, _ body: (inout State) -> Result) -> Result {
        pthread_mutex_lock(mutex)
        defer {
            if wakingWaiters { pthread_cond_broadcast(condition) }
            pthread_mutex_unlock(mutex)
        }
        return body(&state)
    }

    /// Takes the lock, sleeps (lock released) until `isReady` holds of the
    /// state, re-checked each time another thread wakes the waiters, then
    /// runs `body` on it with the lock held.
    package func withLock<Result>(when isReady: (State) -> Bool, _ body: (inout State) -> Result) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while !isReady(state) { pthread_cond_wait(condition, mutex) }
        return body(&state)
    }
}
