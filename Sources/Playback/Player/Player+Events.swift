extension Player {
    /// Calls `handler` with every event from now on, in order, on the
    /// player's executor, before the method that caused the event returns.
    /// Keep handlers short; they must not call back into the player
    /// synchronously (they cannot: it is an actor).
    /// - Parameter handler: The callback.
    /// - Returns: A token for ``removeObserver(_:)``.
    @discardableResult
    public func addObserver(_ handler: @escaping @Sendable (PlayerEvent) -> Void) -> Int {
        nextToken += 1
        observers.append((nextToken, handler))
        return nextToken
    }

    /// Stops calling the handler registered under `token`.
    /// - Parameter token: A value returned by ``addObserver(_:)``.
    public func removeObserver(_ token: Int) {
        observers.removeAll { $0.token == token }
    }

    /// A stream of every event from now on, in order, buffered without
    /// limit; it ends when the consumer stops iterating (or is cancelled).
    /// Each call makes an independent stream.
    public func events() -> AsyncStream<PlayerEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: PlayerEvent.self)
        nextToken += 1
        let token = nextToken
        streams[token] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { await self?.removeStream(token) }
        }
        return stream
    }

    /// Registers a driver's wake-up continuation; it is signalled whenever
    /// the host changes the schedule (play, pause, stop, seek, rate, advance).
    func addWake(_ continuation: AsyncStream<Void>.Continuation) -> Int {
        nextToken += 1
        wakes[nextToken] = continuation
        return nextToken
    }

    /// Forgets a driver's wake-up continuation.
    func removeWake(_ token: Int) {
        wakes[token] = nil
    }

    func removeStream(_ token: Int) {
        streams[token] = nil
    }

    func signalDrivers() {
        for continuation in wakes.values { continuation.yield() }
    }

    /// Hands `events` to observers (in registration order) and streams.
    func deliver(_ events: [PlayerEvent]) {
        for event in events {
            for observer in observers { observer.handler(event) }
            for continuation in streams.values { continuation.yield(event) }
        }
    }
}
