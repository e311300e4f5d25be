#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value guarded by a pthread mutex, with one condition variable to wait
/// on it: the queue the parallel decoder's and the frame decode executor's
/// threads wait on. A pthread mutex and condition variable, as
/// ``LockedState``'s, so that ThreadSanitizer sees them.
///
/// The lock is only ever held inside a ``withLock(wakingWaiters:_:)`` or
/// ``withLock(when:_:)`` call: it is taken and released in one scope, and the
/// state cannot be reached without it. As ``LockedState``, it is `Sendable`
/// only when the state is.
package final class ConditionLock<State> {
    private let mutex = PthreadMutex()
    // The condition variable lives at a fixed address, as pthreads requires.
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    /// Read and written only with `mutex` held.
    private var state: State

    package init(_ state: State) {
        self.state = state
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        PthreadMutex.check(pthread_cond_init(condition, nil), "pthread_cond_init")
    }

    deinit {
        PthreadMutex.check(pthread_cond_destroy(condition), "pthread_cond_destroy")
        condition.deallocate()
    }

    /// Runs `body` on the state with the lock held; with `wakingWaiters`,
    /// then wakes every thread waiting in ``withLock(when:_:)`` to look at
    /// the state again.
    package func withLock<Result>(wakingWaiters: Bool = false, _ body: (inout State) -> Result) -> Result {
        mutex.lock()
        defer {
            if wakingWaiters { PthreadMutex.check(pthread_cond_broadcast(condition), "pthread_cond_broadcast") }
            mutex.unlock()
        }
        return body(&state)
    }

    /// Takes the lock, sleeps (lock released) until `isReady` holds of the
    /// state, re-checked each time another thread wakes the waiters, then
    /// runs `body` on it with the lock held.
    package func withLock<Result>(when isReady: (State) -> Bool, _ body: (inout State) -> Result) -> Result {
        mutex.lock()
        defer { mutex.unlock() }
        while !isReady(state) {
            PthreadMutex.check(pthread_cond_wait(condition, mutex.pointer), "pthread_cond_wait")
        }
        return body(&state)
    }
}

/// The lock orders every access to the state, and the state is `Sendable`
/// itself, so the lock may be shared between threads.
extension ConditionLock: @unchecked Sendable where State: Sendable {}

/// Reflected without its fields, as ``LockedState`` is: its mutex cannot be
/// copied out.
extension ConditionLock: CustomReflectable {
    package var customMirror: Mirror { Mirror(self, children: [:]) }
}
