#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A pthread mutex with one condition variable: the only synchronisation the
/// decode-ahead pipeline needs, without Foundation.
final class ConditionLock: @unchecked Sendable {
    // The pthread objects live at fixed addresses, as pthreads requires.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    init() {
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

    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }
    /// Unlocks, sleeps until ``broadcast()``, and locks again. Call locked.
    func wait() { pthread_cond_wait(condition, mutex) }
    /// Wakes every waiter.
    func broadcast() { pthread_cond_broadcast(condition) }

    /// The number of processors online, at least 1.
    static var processorCount: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }
}
