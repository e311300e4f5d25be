extension Playlist {
    /// Calls `handler` with every event from now on, in order, once the
    /// playlist's lock is released, on the thread of the call that caused
    /// the event (a control method's, a driver's tick, a load's result as
    /// it arrives) before that call returns, unless another thread is
    /// delivering this playlist's events (that thread then hands these on,
    /// after its own) or the call was made from a handler (its events
    /// follow once that handler returns). A handler may call back into the
    /// playlist, and into a ``GroupDriver`` ticking it.
    /// - Parameter handler: The callback.
    /// - Returns: A token for ``removeObserver(_:)``.
    @discardableResult
    public func addObserver(_ handler: @escaping @Sendable (PlaylistEvent) -> Void) -> Int { core.addObserver(handler) }

    /// Stops calling the handler registered under `token`.
    /// - Parameter token: A value returned by ``addObserver(_:)``.
    public func removeObserver(_ token: Int) { core.removeObserver(token) }

    /// A stream of every event from now on, in order, buffered without
    /// limit; it ends when the consumer stops iterating (or is cancelled),
    /// or when the playlist goes away.
    public func events() -> AsyncStream<PlaylistEvent> { core.events() }

    /// Registers a change watcher (see ``EventHub/addWatcher(_:)``): the
    /// package's tests wait on it instead of polling.
    package func addWatcher(_ watch: @escaping @Sendable () -> Void) -> Int { core.addWatcher(watch) }

    /// Forgets a change watcher.
    package func removeWatcher(_ token: Int) { core.removeWatcher(token) }
}
