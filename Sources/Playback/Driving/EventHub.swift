/// The listeners of one actor (a ``Player`` or a ``Playlist``): event
/// callbacks, event streams and the wake-ups of the drivers that run it.
///
/// A value its owner mutates on its own executor (a ``Playlist``) or under
/// its lock (a player's engine). Listeners are kept in registration order
/// in arrays that are reused, so delivering events allocates nothing.
///
/// An owner on an executor hands events to the listeners at once
/// (``deliver(_:)``). An owner with a lock must not: a listener is the
/// host's code, which may call back into the owner (or into the driver
/// ticking it, whose lock is held around the owner's) and would wait for
/// the lock held around it. Such an owner posts the events under its lock
/// (``post(_:)``) and delivers them once every lock is released
/// (``beginDelivery()``, ``Delivery/run()``, ``continueDelivery(_:)``).
/// One thread at a time delivers, the posted events in the order posted:
/// a thread that finds another delivering (or a listener calling back in,
/// on the thread delivering) leaves its events to that thread, which hands
/// them on after those it has, so every listener still sees the events in
/// the order the changes were made. Each listener hears the events posted
/// after it was registered; one removed while a batch is being delivered
/// on another thread may still hear that batch.
///
/// Driver wake-ups are coalesced: a driver is signalled once, then not again
/// until it has ticked the actor (``consumeWake(_:)``), because one tick reads
/// every change made in between.
///
/// Change watchers are called at every event and every schedule change, and
/// at changes only a reader of the actor's state sees: how the package's
/// tests wait for background work without polling.
package struct EventHub<Event: Sendable> {
    /// An event callback, and the number of the first posted event it hears.
    typealias Observer = (token: Int, handler: @Sendable (Event) -> Void, from: Int)
    /// An event stream, and the number of the first posted event it yields.
    typealias Stream = (token: Int, continuation: AsyncStream<Event>.Continuation, from: Int)
    typealias Watcher = (token: Int, watch: @Sendable () -> Void)

    private var observers: [Observer] = []
    private var streams: [Stream] = []
    private var wakes: [(token: Int, wake: @Sendable () -> Void, pending: Bool)] = []
    private var watchers: [Watcher] = []
    /// Tokens only grow, so a token names one registration for ever.
    private var lastToken = 0
    /// Events posted and not handed to a ``Delivery`` yet, in order.
    private var outbox: [Event] = []
    /// The storage a ``Delivery`` hands its events in, kept between
    /// deliveries (with ``outbox``'s, the two swap), so that posting and
    /// delivering allocate nothing once they have grown.
    private var spare: [Event] = []
    /// The events posted so far: the number the next one gets.
    private var posted = 0
    /// Whether a thread is delivering posted events now.
    private var delivering = false

    /// A hub with no listeners.
    package init() {}

    private mutating func nextToken() -> Int {
        lastToken += 1
        return lastToken
    }

    /// Registers `handler`; returns its token.
    mutating func addObserver(_ handler: @escaping @Sendable (Event) -> Void) -> Int {
        let token = nextToken()
        observers.append((token, handler, posted))
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
        streams.append((token, continuation, posted))
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

    /// Hands `events` to observers (in registration order), then to streams,
    /// at once: for an owner that holds no lock (see the type's notes).
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

    // MARK: Delivering outside the owner's lock

    /// Queues `events` for delivery once the owner's locks are released
    /// (see the type's notes); with no listener, drops them. Inlined, as
    /// ``deliver(_:)``.
    @inline(__always)
    mutating func post(_ events: [Event]) {
        guard !events.isEmpty, !observers.isEmpty || !streams.isEmpty || !watchers.isEmpty else { return }
        outbox.append(contentsOf: events)
        posted += events.count
    }

    /// Whether posted events wait for a thread to deliver them: the owner
    /// calls ``beginDelivery()`` once its locks are released. `false`
    /// while another thread delivers, which takes them on.
    var deliveryDue: Bool { !delivering && !outbox.isEmpty }

    /// The posted events and the listeners to hand them to, for the calling
    /// thread to deliver with the owner's lock released; `nil` when there
    /// are none, or another thread delivers (it takes them on). After
    /// ``Delivery/run()``, the thread calls ``continueDelivery(_:)`` under
    /// the lock, and runs the delivery again while that says so.
    mutating func beginDelivery() -> Delivery? {
        guard deliveryDue else { return nil }
        delivering = true
        var delivery = Delivery()
        swap(&delivery.events, &spare)
        fill(&delivery)
        return delivery
    }

    /// Takes the events `delivery` has handed on back, and gives it those
    /// posted since (`true`: run it again), or ends the delivery (`false`),
    /// keeping the storage for the next.
    mutating func continueDelivery(_ delivery: inout Delivery) -> Bool {
        delivery.events.removeAll(keepingCapacity: true)
        guard outbox.isEmpty else {
            fill(&delivery)
            return true
        }
        swap(&delivery.events, &spare)
        // The listener lists are let go, so that registering one copies
        // nothing.
        delivery = Delivery()
        delivering = false
        return false
    }

    /// Moves the posted events into `delivery` (whose storage, empty,
    /// becomes the outbox's), with the listeners as they are now.
    private mutating func fill(_ delivery: inout Delivery) {
        swap(&delivery.events, &outbox)
        delivery.first = posted - delivery.events.count
        delivery.observers = observers
        delivery.streams = streams
        delivery.watchers = watchers
    }

    /// A batch of posted events and the listeners registered when it was
    /// taken, delivered by one thread with no lock held.
    struct Delivery {
        fileprivate var events: [Event] = []
        /// The number of the first of ``events`` (see ``EventHub/post(_:)``).
        fileprivate var first = 0
        fileprivate var observers: [Observer] = []
        fileprivate var streams: [Stream] = []
        fileprivate var watchers: [Watcher] = []

        /// Hands each event to the observers registered before it was
        /// posted (in registration order), then to such streams; then tells
        /// the change watchers.
        func run() {
            for (offset, event) in events.enumerated() {
                let number = first + offset
                for observer in observers where observer.from <= number { observer.handler(event) }
                for stream in streams where stream.from <= number { stream.continuation.yield(event) }
            }
            for watcher in watchers { watcher.watch() }
        }
    }

    // MARK: Ending

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
