extension Player {
    /// Calls `handler` with every event from now on, in order, with none
    /// of the library's locks held: before the call that caused the event
    /// returns, on the thread that made it, unless another thread is
    /// handing this player's events to its listeners at the time (that
    /// thread then hands these on, after its own) or the call was made from
    /// a handler (its events follow once that handler returns). Keep
    /// handlers short. A handler may call back into the player, and into a
    /// ``GroupDriver`` ticking it (``GroupDriver/tickPlayers(at:)``), or
    /// wait for another thread that does.
    /// - Parameter handler: The callback.
    /// - Returns: A token for ``removeObserver(_:)``.
    @discardableResult
    public func addObserver(_ handler: @escaping @Sendable (PlayerEvent) -> Void) -> Int {
        playerCore.addObserver(handler)
    }

    /// Stops calling the handler registered under `token`.
    /// - Parameter token: A value returned by ``addObserver(_:)``.
    public func removeObserver(_ token: Int) { playerCore.removeObserver(token) }

    /// A stream of every event from now on, in order, buffered without
    /// limit; it ends when the consumer stops iterating (or is cancelled),
    /// or when the player goes away. Each call makes an independent stream.
    public func events() -> AsyncStream<PlayerEvent> { playerCore.events() }

    /// Registers a change watcher (see ``EventHub/addWatcher(_:)``): the
    /// package's tests wait on it instead of polling.
    package func addWatcher(_ watch: @escaping @Sendable () -> Void) -> Int { playerCore.addWatcher(watch) }

    /// Forgets a change watcher.
    package func removeWatcher(_ token: Int) { playerCore.removeWatcher(token) }
}
