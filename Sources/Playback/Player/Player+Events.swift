extension Player {
    /// Calls `handler` with every event from now on, in order, before the
    /// call that caused the event returns, on the thread that made it. Keep
    /// handlers short; they must not call back into the player
    /// synchronously (only ``draw(into:bytesPerRow:)`` and
    /// ``lateDrawCount`` could be, and those may).
    /// - Parameter handler: The callback.
    /// - Returns: A token for ``removeObserver(_:)``.
    @discardableResult
    public func addObserver(_ handler: @escaping @Sendable (PlayerEvent) -> Void) -> Int {
        playerCore.addObserver(handler)
    }

    /// Stops calling the handler registered under `token`.
    /// - Parameter token: A value returned by ``addObserver(_:)``.
    public func removeObserver(_ token: Int) {
        playerCore.removeObserver(token)
    }

    /// A stream of every event from now on, in order, buffered without
    /// limit; it ends when the consumer stops iterating (or is cancelled),
    /// or when the player goes away. Each call makes an independent stream.
    public func events() -> AsyncStream<PlayerEvent> {
        playerCore.events()
    }

    /// Registers a driver's wake-up (see ``EventHub/addWake(_:)``).
    func addWake(_ wake: @escaping @Sendable () -> Void) -> Int {
        playerCore.addWake(wake)
    }

    /// Forgets a driver's wake-up.
    func removeWake(_ token: Int) {
        playerCore.removeWake(token)
    }

    /// Registers a change watcher (see ``EventHub/addWatcher(_:)``): the
    /// package's tests wait on it instead of polling.
    package func addWatcher(_ watch: @escaping @Sendable () -> Void) -> Int {
        playerCore.addWatcher(watch)
    }

    /// Forgets a change watcher.
    package func removeWatcher(_ token: Int) {
        playerCore.removeWatcher(token)
    }
}
