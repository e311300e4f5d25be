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
///
/// It is public only as SPI (`@_spi(Engine) import EngineSupport`), with
/// ``withLock(_:)`` inlinable, so that the other modules' calls are
/// specialised for their state and result and inlined. The Swift 6.3
/// compiler does not specialise a `package` generic across modules: each
/// call would go through the unspecialised entry point, with its result
/// copied by value witnesses, a cost every tick and draw of a player would
/// pay.
@_spi(Engine) public final class LockedState<State: ~Copyable> {
    @usableFromInline let mutex = PthreadMutex()
    /// Read and written only with `mutex` held. The mutex already keeps two
    /// accesses from overlapping (a thread that takes it again waits, or in
    /// debug builds stops), so the runtime's own check of each access, a
    /// thread-local table lookup on every lock, is left out.
    @exclusivity(unchecked) @usableFromInline var state: State

    /// A lock around `state`.
    @_spi(Engine) public init(_ state: consuming State) {
        self.state = state
    }

    /// Runs `body` on the state with the lock held.
    @inlinable
    @_spi(Engine) public func withLock<Result, Failure: Error>(
        _ body: (inout State) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        mutex.lock()
        defer { mutex.unlock() }
        return try body(&state)
    }

    /// Runs `body` on the state when the lock is free, without waiting;
    /// returns `nil` when another thread holds it.
    @inlinable
    @_spi(Engine) public func withLockIfAvailable<Result, Failure: Error>(
        _ body: (inout State) throws(Failure) -> Result
    ) throws(Failure) -> Result? {
        guard mutex.tryLock() else { return nil }
        defer { mutex.unlock() }
        return try body(&state)
    }
}

/// The lock orders every access to the state, and the state is `Sendable`
/// itself, so the box may be shared between threads.
extension LockedState: @unchecked Sendable where State: ~Copyable & Sendable {}

/// Reflected without its fields: a `Mirror` copies each field out, and the
/// mutex (and a noncopyable state) cannot be copied, so reflecting a value
/// that holds a lock (a test's failed expectation names one) would trap.
extension LockedState: CustomReflectable where State: ~Copyable {
    @_spi(Engine) public var customMirror: Mirror { Mirror(self, children: [:]) }
}
