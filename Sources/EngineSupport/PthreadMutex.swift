#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The pthread mutex under ``LockedState`` and ``ConditionLock``, at a fixed
/// address as pthreads requires, with every call's result checked.
///
/// In debug builds the mutex checks for errors: a thread that takes the lock
/// it holds gets EDEADLK, which ``check(_:_:)`` turns into a stop naming it,
/// instead of waiting for ever.
@usableFromInline
struct PthreadMutex: ~Copyable {
    @usableFromInline let pointer: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: pthread_mutex_t())
        #if DEBUG
        var attributes = pthread_mutexattr_t()
        Self.check(pthread_mutexattr_init(&attributes), "pthread_mutexattr_init")
        Self.check(
            pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ERRORCHECK)), "pthread_mutexattr_settype")
        Self.check(pthread_mutex_init(pointer, &attributes), "pthread_mutex_init")
        Self.check(pthread_mutexattr_destroy(&attributes), "pthread_mutexattr_destroy")
        #else
        Self.check(pthread_mutex_init(pointer, nil), "pthread_mutex_init")
        #endif
    }

    deinit {
        Self.check(pthread_mutex_destroy(pointer), "pthread_mutex_destroy")
        pointer.deallocate()
    }

    @inlinable
    func lock() {
        Self.check(pthread_mutex_lock(pointer), "pthread_mutex_lock")
    }

    @inlinable
    func unlock() {
        Self.check(pthread_mutex_unlock(pointer), "pthread_mutex_unlock")
    }

    /// Takes the lock when it is free; `false` when another thread holds it.
    @usableFromInline
    func tryLock() -> Bool {
        let status = pthread_mutex_trylock(pointer)
        guard status != EBUSY else { return false }
        Self.check(status, "pthread_mutex_trylock")
        return true
    }

    /// A pthread call fails only on a lock used wrongly (not initialised,
    /// unlocked by a thread that does not own it, taken again by the thread
    /// holding it, destroyed while held): a bug in this library, never the
    /// host's input.
    @usableFromInline
    static func check(_ status: Int32, _ call: StaticString) {
        precondition(status != EDEADLK, "\(call): a thread took a lock it already holds")
        precondition(status == 0, "\(call) failed with error \(status)")
    }
}
