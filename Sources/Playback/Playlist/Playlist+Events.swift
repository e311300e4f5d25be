extension Playlist {
    /// Calls `handler` with every event from now on, in order, on the
    /// playlist's executor, before the method that caused the event returns
    /// (load results: when they arrive).
    /// - Parameter handler: The callback.
    /// - Returns: A token for ``removeObserver(_:)``.
    @discardableResult
    public func addObserver(_ handler: @escaping @Sendable (PlaylistEvent) -> Void) -> Int {
        nextToken += 1
        observers[nextToken] = handler
        return nextToken
    }

    /// Stops calling the handler registered under `token`.
    /// - Parameter token: A value returned by ``addObserver(_:)``.
    public func removeObserver(_ token: Int) {
        observers[token] = nil
    }

    /// A stream of every event from now on, in order, buffered without
    /// limit; it ends when the consumer stops iterating (or is cancelled).
    public func events() -> AsyncStream<PlaylistEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: PlaylistEvent.self)
        nextToken += 1
        let token = nextToken
        streams[token] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { await self?.removeStream(token) }
        }
        return stream
    }

    /// Registers a driver's wake-up continuation.
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

    /// Hands `events` to observers (in registration order) and streams, and
    /// prefetches when the frame or the item changed.
    func deliver(_ events: [PlaylistEvent]) {
        guard !events.isEmpty else { return }
        let handlers = observers.sorted { $0.key < $1.key }.map(\.value)
        for event in events {
            for handler in handlers { handler(event) }
            for continuation in streams.values { continuation.yield(event) }
        }
        let moved = events.contains { event in
            switch event {
            case .itemStarted, .player(_, .frameChanged): true
            default: false
            }
        }
        if moved { prefetchUpcoming() }
    }
}
