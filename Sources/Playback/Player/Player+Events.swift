extension Player: EventHubOwner {
    /// Calls `handler` with every event from now on, in order, on the
    /// player's executor, before the method that caused the event returns.
    /// Keep handlers short; they must not call back into the player
    /// synchronously (they cannot: it is an actor).
    /// - Parameter handler: The callback.
    /// - Returns: A token for ``removeObserver(_:)``.
    @discardableResult
    public func addObserver(_ handler: @escaping @Sendable (PlayerEvent) -> Void) -> Int {
        hub.addObserver(handler)
    }

    /// Stops calling the handler registered under `token`.
    /// - Parameter token: A value returned by ``addObserver(_:)``.
    public func removeObserver(_ token: Int) {
        hub.removeObserver(token)
    }

    /// A stream of every event from now on, in order, buffered without
    /// limit; it ends when the consumer stops iterating (or is cancelled),
    /// or when the player goes away. Each call makes an independent stream.
    public func events() -> AsyncStream<PlayerEvent> {
        makeEventStream()
    }
}
