/// The listeners of one actor (a ``Player`` or a ``Playlist``): event
/// callbacks, event streams and the wake-ups of the drivers that run it.
///
/// A value the actor owns and mutates on its own executor, so it needs no
/// lock. Listeners are kept in registration order in arrays that are reused,
/// so delivering events allocates nothing.
///
/// Driver wake-ups are coalesced: a driver is signalled once, then not again
/// until it has ticked the actor (``consumeWake(_:)``), because one tick reads
/// every change made in between.
///
/// Change watchers are called at every event and every schedule change, and
/// at changes only a reader of the actor's state sees: how the package's
/// tests wait for background work without polling.
package struct EventHub<Event: Sendable> {
    private var observers: [(token: Int, handler: @Sendable (Event) -> Void)] = []
    private var streams: [(token: Int, continuation: AsyncStream<Event>.Continuation)] = []
    private var wakes: [(token: Int, wake: @Sendable () -> Void, pending: Bool)] = []
    private var watchers: [(token: Int, watch: @Sendable () -> Void)] = []
    /// Tokens only grow, so a token names one registration for ever.
    private var lastToken = 0

    /// A hub with no listeners.
    package init() {}

    private mutating func nextToken() -> Int {
        lastToken += 1
        return lastToken
    }

    /// Registers `handler`; returns its token.
    mutating func addObserver(_ handler: @escaping @Sendable (Event) -> Void) -> Int {
        let token = nextToken()
        observers.append((token, handler))
        return token
    }

    /// Forgets the observer registered under `token` (unknown tokens: nothing).
    mutating func removeObserver(_ token: Int) {
        observers.removeAll { $0.token == token }
    }

    /// A new unbounded stream of the events from now on, after `first` when
    /// one is given (the owner's state as it stands). `ended` is called
    /// with the stream's token when its consumer stops (from any thread);
    /// the owner then calls ``removeStream(_:)`` on its executor, or under
    /// its lock.
    package mutating func makeStream(
        startingWith first: Event? = nil, ended: @escaping @Sendable (Int) -> Void
    ) -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream.makeStream(of: Event.self)
        if let first { continuation.yield(first) }
        let token = nextToken()
        streams.append((token, continuation))
        continuation.onTermination = { _ in ended(token) }
        return stream
    }

    /// Forgets the stream registered under `token`.
    package mutating func removeStream(_ token: Int) {
        streams.removeAll { $0.token == token }
    }

    /// Registers a driver's wake-up, called whenever the host changes the
    /// schedule; returns its token.
    mutating func addWake(_ wake: @escaping @Sendable () -> Void) -> Int {
        let token = nextToken()
        wakes.append((token, wake, false))
        return token
    }

    /// Forgets the driver wake-up registered under `token`.
    mutating func removeWake(_ token: Int) {
        wakes.removeAll { $0.token == token }
    }

    /// The driver with `token` is ticking the owner now: later changes must
    /// signal it again.
    mutating func consumeWake(_ token: Int) {
        if let index = wakes.firstIndex(where: { $0.token == token }) { wakes[index].pending = false }
    }

    /// Tells every driver not yet told that the schedule changed.
    mutating func signalWakes() {
        for index in wakes.indices where !wakes[index].pending {
            wakes[index].pending = true
            wakes[index].wake()
        }
        signalWatchers()
    }

    /// Registers a change watcher, called (on the owner's executor) after
    /// every change until it is removed; returns its token.
    mutating func addWatcher(_ watch: @escaping @Sendable () -> Void) -> Int {
        let token = nextToken()
        watchers.append((token, watch))
        return token
    }

    /// Forgets the change watcher registered under `token`.
    mutating func removeWatcher(_ token: Int) {
        watchers.removeAll { $0.token == token }
    }

    /// Tells every change watcher that the owner's state changed.
    func signalWatchers() {
        for watcher in watchers { watcher.watch() }
    }

    /// Hands `events` to observers (in registration order), then to streams.
    /// Inlined: a player's every frame change comes here, mostly to no
    /// listener, and finding none is three loads.
    @inline(__always)
    package func deliver(_ events: [Event]) {
        guard !events.isEmpty, !observers.isEmpty || !streams.isEmpty || !watchers.isEmpty else { return }
        deliverToListeners(events)
    }

    /// ``deliver(_:)`` once there is an event and a listener.
    private func deliverToListeners(_ events: [Event]) {
        if !observers.isEmpty || !streams.isEmpty {
            for event in events {
                for observer in observers { observer.handler(event) }
                for stream in streams { stream.continuation.yield(event) }
            }
        }
        if !watchers.isEmpty { signalWatchers() }
    }

    /// Ends every stream, so consumers iterating them finish (the owner is
    /// going away, or has nothing more to say).
    package func finishStreams() {
        for stream in streams { stream.continuation.finish() }
    }

    /// Forgets every stream without ending it: for an owner that ends them
    /// with ``finishStreams()`` on a copy, outside its lock.
    package mutating func forgetStreams() {
        streams.removeAll()
    }
}

/// An actor whose listeners live in an ``EventHub``: the event plumbing
/// ``Player`` and ``Playlist`` share.
package protocol EventHubOwner: Actor {
    associatedtype Event: Sendable
    var hub: EventHub<Event> { get set }
}

extension EventHubOwner {
    /// A stream of the owner's events that unregisters itself when its
    /// consumer stops.
    func makeEventStream() -> AsyncStream<Event> {
        hub.makeStream { [weak self] token in
            Task { await self?.removeEventStream(token) }
        }
    }

    private func removeEventStream(_ token: Int) {
        hub.removeStream(token)
    }

    /// Registers a driver's wake-up (see ``EventHub/addWake(_:)``).
    func addWake(_ wake: @escaping @Sendable () -> Void) -> Int {
        hub.addWake(wake)
    }

    /// Registers a change watcher (see ``EventHub/addWatcher(_:)``): the
    /// package's tests wait on it instead of polling.
    package func addWatcher(_ watch: @escaping @Sendable () -> Void) -> Int {
        hub.addWatcher(watch)
    }

    /// Forgets a change watcher.
    package func removeWatcher(_ token: Int) {
        hub.removeWatcher(token)
    }

    /// Forgets a driver's wake-up.
    func removeWake(_ token: Int) {
        hub.removeWake(token)
    }
}
