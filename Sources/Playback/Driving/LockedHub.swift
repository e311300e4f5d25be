@_spi(Engine) import EngineSupport

/// A state kept behind a lock with its ``EventHub``: a player's engine
/// (``PlayerCore``) and a playlist's (``PlaylistCore``).
protocol HubState: Sendable {
    associatedtype Event: Sendable
    /// The listeners and the events posted to them.
    var hub: EventHub<Event> { get set }
}

/// The event plumbing of an engine whose state is behind a lock: changes
/// post their events under the lock, and the events reach the listeners
/// once it is released (see ``EventHub``), so a listener may call back in.
extension LockedState where State: HubState {
    /// Runs `body` with the lock held, then delivers the events it posted
    /// with the lock released.
    func changing<Result, Failure: Error>(
        _ body: (inout State) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let (result, due) = try withLock { (state) throws(Failure) -> (Result, Bool) in
            (try body(&state), state.hub.deliveryDue)
        }
        if due { deliverEvents() }
        return result
    }

    /// Hands the posted events to the listeners with no lock held, and
    /// those posted meanwhile after them, unless another thread is doing
    /// so (it takes them on). Called by every change once the lock is
    /// released, and by a ``HostTickList`` once its own lock is.
    func deliverEvents() {
        guard var delivery = withLock({ $0.hub.beginDelivery() }) else { return }
        repeat {
            delivery.run()
        } while withLock({ $0.hub.continueDelivery(&delivery) })
    }
}

/// An engine whose state and listeners are behind one lock (a
/// ``PlayerCore``, a ``PlaylistCore``): the listener registrations both
/// share.
protocol EventEngine: AnyObject, Sendable {
    associatedtype Locked: HubState
    /// The state and its ``EventHub``.
    var state: LockedState<Locked> { get }
}

extension EventEngine {
    typealias Event = Locked.Event

    /// Hands the posted events to the listeners with no lock held (see
    /// ``LockedState/deliverEvents()``): called by every change once the
    /// lock is released, and by a ``HostTickList`` once its own lock is.
    func deliverEvents() { state.deliverEvents() }

    /// Registers an event observer (see ``EventHub/addObserver(_:)``).
    func addObserver(_ handler: @escaping @Sendable (Event) -> Void) -> Int {
        state.withLock { $0.hub.addObserver(handler) }
    }

    /// Forgets an event observer.
    func removeObserver(_ token: Int) {
        state.withLock { $0.hub.removeObserver(token) }
    }

    /// A new event stream. Its end is handled on a task of its own: a
    /// stream can end while the lock is held (when its owner goes away),
    /// and the lock is not taken twice.
    func events() -> AsyncStream<Event> {
        let lock = state
        return lock.withLock { locked in
            locked.hub.makeStream { [weak lock] token in
                guard let lock else { return }
                Task { lock.withLock { $0.hub.removeStream(token) } }
            }
        }
    }

    /// Registers a driver's wake-up (see ``EventHub/addWake(_:)``).
    func addWake(_ wake: @escaping @Sendable () -> Void) -> Int {
        state.withLock { $0.hub.addWake(wake) }
    }

    /// Forgets a driver's wake-up.
    func removeWake(_ token: Int) {
        state.withLock { $0.hub.removeWake(token) }
    }

    /// Registers a change watcher (see ``EventHub/addWatcher(_:)``).
    func addWatcher(_ watch: @escaping @Sendable () -> Void) -> Int {
        state.withLock { $0.hub.addWatcher(watch) }
    }

    /// Forgets a change watcher.
    func removeWatcher(_ token: Int) {
        state.withLock { $0.hub.removeWatcher(token) }
    }
}
