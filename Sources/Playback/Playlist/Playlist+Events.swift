extension Playlist: EventHubOwner {
    /// Calls `handler` with every event from now on, in order, on the
    /// playlist's executor, before the method that caused the event returns
    /// (load results: when they arrive).
    /// - Parameter handler: The callback.
    /// - Returns: A token for ``removeObserver(_:)``.
    @discardableResult
    public func addObserver(_ handler: @escaping @Sendable (PlaylistEvent) -> Void) -> Int {
        hub.addObserver(handler)
    }

    /// Stops calling the handler registered under `token`.
    /// - Parameter token: A value returned by ``addObserver(_:)``.
    public func removeObserver(_ token: Int) {
        hub.removeObserver(token)
    }

    /// A stream of every event from now on, in order, buffered without
    /// limit; it ends when the consumer stops iterating (or is cancelled),
    /// or when the playlist goes away.
    public func events() -> AsyncStream<PlaylistEvent> {
        makeEventStream()
    }

    /// Hands `events` to observers (in registration order) and streams, and
    /// prefetches when the frame or the item changed.
    func deliver(_ events: [PlaylistEvent]) {
        guard !events.isEmpty else { return }
        hub.deliver(events)
        let moved = events.contains { event in
            switch event {
            case .itemStarted, .player(_, .frameChanged): true
            default: false
            }
        }
        if moved { prefetchUpcoming() }
    }
}
