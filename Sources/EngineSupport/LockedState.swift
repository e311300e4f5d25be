#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value guarded by a pthread mutex: what `Synchronization.Mutex` gives,
/// but with a lock ThreadSanitizer can see.
///
/// On Linux, `Mutex` waits on futexes directly, which ThreadSanitizer does
/// not intercept, so every access made under it is reported as a race (a
/// two-thread counter under `Mutex` reports "Swift access race" and still
/// counts right). `make test` runs the player tests under ThreadSanitizer,
/// so the library's locks are pthread mutexes, which it understands.
///
/// The lock is held only inside ``withLock(_:)``: taken and released in one
/// scope, and the state cannot be reached without it. As swift-nio's
/// `NIOLockedValueBox`, it is `Sendable` only when the state is: `body`
/// could hand a reference inside the state to whatever it returns, so a
/// state that is not safe to share across threads stays unsafe behind the
/// lock too. A type whose state holds a non-`Sendable` value on purpose
/// (confined to the lock and lent out by hand) says so on that value's own
/// type.
package final class LockedState<State: ~Copyable> {
    // The pthread object lives at a fixed address, as pthreads requires.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    /// Read and written only with `mutex` held.
    private var state: State

    /// A lock around `state`.
    package init(_ state: consuming State) {
        self.state = state
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        #if DEBUG
        // In debug builds a thread that takes the lock it holds gets
        // EDEADLK, which ``check(_:)`` turns into a stop naming it, instead
        // of waiting for ever.
        var attributes = pthread_mutexattr_t()
        Self.check(pthread_mutexattr_init(&attributes))
        Self.check(pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ERRORCHECK)))
        Self.check(pthread_mutex_init(mutex, &attributes))
        Self.check(pthread_mutexattr_destroy(&attributes))
        #else
        Self.check(pthread_mutex_init(mutex, nil))
        #endif
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` on the state with the lock held.
    package func withLock<Result, Failure: Error>(
        _ body: (inout State) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        Self.check(pthread_mutex_lock(mutex))
        defer { Self.check(pthread_mutex_unlock(mutex)) }
        return try body(&state)
    }

    /// Runs `body` on the state when the lock is free, without waiting;
    /// returns `nil` when another thread holds it.
    package func withLockIfAvailable<Result, Failure: Error>(
        _ body: (inout State) throws(Failure) -> Result
    ) throws(Failure) -> Result? {
        let status = pthread_mutex_trylock(mutex)
        guard status == 0 else {
            Self.check(status == EBUSY ? 0 : status)
            return nil
        }
        defer { Self.check(pthread_mutex_unlock(mutex)) }
        return try body(&state)
    }

    /// A pthread mutex call fails only on a lock used wrongly (not
    /// initialised, unlocked by a thread that does not own it, taken again
    /// by the thread holding it): a bug in this library, never the host's
    /// input.
    private static func check(_ status: Int32) {
        precondition(status != EDEADLK, "a thread took a lock it already holds")
        precondition(status == 0, "pthread mutex call failed: \(status)")
    }
}

/// The lock orders every access to the state, and the state is `Sendable`
/// itself, so the box may be shared between threads.
extension LockedState: @unchecked Sendable where State: ~Copyable & Sendable {}
