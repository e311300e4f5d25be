@_spi(Engine) import EngineSupport

/// Decoded frames of one ``FrameSource``, kept within a byte budget the host
/// sets and decoded ahead of need on a background task.
///
/// Like SDWebImage's and FLAnimatedImage's frame buffers, the cache trades
/// memory for smoothness: ``prefetch(_:)`` (or the player, each time it is
/// asked for an image) names the frames that come next, a background task
/// decodes them in that order, and ``frame(at:)`` answers from memory (a hit)
/// or waits for a decode (a miss, i.e. an underrun the host may want to log).
///
/// - **Budget.** Least recently used frames are evicted first (frame 0 last),
///   but a prefetch never evicts another frame of the same look-ahead list:
///   when nothing else can go, the rest of the list is not decoded. A frame
///   larger than the whole budget is returned but not kept. By default each
///   cache has its own budget; caches made over one shared
///   ``FrameMemoryBudget`` count against it together, with the sources'
///   decoding state, and frames of caches whose players are not playing go
///   first (see `beginPlaying()`).
/// - **One decode per frame.** The cache asks its source for one frame at a
///   time; a request for a frame being decoded waits for that decode instead
///   of starting another. So several players of one GIF can share one cache
///   (see ``FrameCachePool``), and nine players of a GIF in step cost one
///   player's decoding and memory.
/// - **Checked answers.** A frame the source hands back is checked before it
///   is kept or returned: the index asked for, the canvas size, and
///   width × height × 4 bytes of pixels; anything else is a
///   ``FrameSourceError``, counted as a failure, never a trap. A frame count
///   that shrinks (or goes negative) is read as it is now, so an index past
///   it is ``PlayerError/frameOutOfRange(_:frameCount:)``.
/// - **Urgent first, nothing for nobody.** A miss asks the source with
///   ``FrameRequestPriority/now``, the look-ahead with
///   ``FrameRequestPriority/prefetch``. A look-ahead decode that nobody
///   wants any more (the list was replaced without its frame, or the cache
///   went away) is cancelled: the source drops it if it has not started, and
///   nothing after it is asked for.
/// - **No allocation once warm.** The pixels of the frame evicted to make room
///   are handed to the source to draw the next frame into
///   (`frame(at:reusing:)`), and the bookkeeping reuses its
///   storage, so a player cycling through an animation larger than the budget
///   allocates nothing per frame in steady state.
public actor FrameCache {
    /// The source frames are decoded from.
    public nonisolated let source: any FrameSource
    /// The source as a ``BudgetedFrameSource``, when it is one: asked for
    /// frames into recycled memory, by urgency, and for its decoding state.
    nonisolated let budgeted: (any BudgetedFrameSource)?

    /// How many upcoming frames a ``Player`` asks this cache to decode ahead.
    package nonisolated let lookahead: Int

    /// The budget of a player's own cache and of a ``FrameCachePool``'s
    /// caches unless the host says otherwise: 32 MiB, about 70 frames of a
    /// 400 × 300 GIF.
    public static let defaultByteBudget = 32 << 20

    /// The budget the frames count against: the cache's own, or one shared.
    public nonisolated let memoryBudget: FrameMemoryBudget
    /// This cache's share in ``memoryBudget``.
    private nonisolated let member: Int
    /// Frames the background task will decode, soonest first.
    private var pending: [Int] = []
    /// The latest look-ahead list: a prefetch does not evict these.
    private var wanted: [Int] = []
    /// The frame the source is decoding now, if any.
    private var decoding: Int?
    /// Whether ``decoding`` is the look-ahead's (its task can be cancelled).
    private var decodingPrefetch = false
    private var decodeWaiters: [UnsafeContinuation<Void, Never>] = []
    private var draining = false
    private var idleWaiters: [UnsafeContinuation<Void, Never>] = []
    /// Bumped by ``purge()``: a decode started before is not kept.
    private var generation = 0
    /// See ``addWatcher(_:)``.
    private var watchers: [(token: Int, watch: @Sendable () -> Void)] = []
    private var lastWatcherToken = 0
    private nonisolated let requests: AsyncStream<(number: Int, frames: [Int])>.Continuation
    /// The number of the latest ``requestPrefetch(_:)``, and of the latest
    /// one applied: ``waitForPrefetch()`` also waits for a request made
    /// before it and not applied yet.
    private nonisolated let requestsMade = LockedState(0)
    private var requestsApplied = 0
    /// The look-ahead's task and its wake-up: replaced only when a decode
    /// in flight must be cancelled. The task holds the cache weakly, so a
    /// cache nobody holds goes away even while its look-ahead decodes.
    private nonisolated let prefetcher = LockedState<(task: Task<Void, Never>, wake: AsyncStream<Void>.Continuation)?>(nil)

    /// Creates an empty cache.
    /// - Parameters:
    ///   - source: The frames' source.
    ///   - byteBudget: The most pixel bytes held at once (negative means 0).
    ///     A 400 × 300 canvas takes 480,000 bytes per frame.
    ///   - lookahead: How many upcoming frames a player prefetches (at least 0).
    @_spi(Benchmarks) public init(source: any FrameSource, byteBudget: Int, lookahead: Int = 4) {
        self.init(
            source: source, budget: FrameMemoryBudget(byteBudget: byteBudget, countsDecodingState: false),
            lookahead: lookahead)
    }

    /// Creates an empty cache whose frames, decodes and source's decoding
    /// state count against `budget`, shared with other caches.
    /// - Parameters:
    ///   - source: The frames' source.
    ///   - budget: The budget shared by the host's caches.
    ///   - lookahead: How many upcoming frames a player prefetches (at least 0).
    package init(source: any FrameSource, budget: FrameMemoryBudget, lookahead: Int = 4) {
        self.source = source
        self.budgeted = source as? any BudgetedFrameSource
        self.memoryBudget = budget
        self.member = budget.register(source: source, budgeted: budgeted)
        if budget.countsDecodingState, let reserving = source as? any StateReservingSource {
            reserving.stateAllowance.connect(to: budget, member: member)
        }
        self.lookahead = max(0, lookahead)
        let (requestStream, requests) = AsyncStream.makeStream(
            of: (number: Int, frames: [Int]).self, bufferingPolicy: .bufferingNewest(1))
        self.requests = requests
        pending.reserveCapacity(self.lookahead)
        wanted.reserveCapacity(self.lookahead)
        // Two long-lived tasks, so that prefetching starts none per frame:
        // one applies requests made from outside the actor, one decodes.
        Task { [weak self] in
            for await request in requestStream {
                await self?.apply(request)
            }
        }
        startPrefetcher()
    }

    deinit {
        requests.finish()
        prefetcher.withLock { prefetcher in
            prefetcher?.task.cancel()
            prefetcher?.wake.finish()
        }
        memoryBudget.unregister(member)
        (source as? any StateReservingSource)?.stateAllowance.disconnect(from: memoryBudget, member: member)
        budgeted?.releaseDecodingState()
    }

    /// The most bytes held at once: the cache's own budget, or the shared
    /// ``memoryBudget``'s limit.
    package var byteBudget: Int { memoryBudget.byteBudget }

    /// The counters as they are now.
    public var statistics: FrameCacheStatistics { memoryBudget.statistics(of: member) }

    /// Whether frame `index` is held now.
    /// - Parameter index: A frame index.
    package func contains(_ index: Int) -> Bool { memoryBudget.contains(member, index) }

    /// Frame `index` if the cache holds it now, without waiting or
    /// counting a hit: what a drawer over the cache draws from.
    nonisolated func heldFrame(at index: Int) -> RenderedFrame? { memoryBudget.lookup(member, index, counting: false) }

    /// Tells the shared budget that the source's decoding state changed
    /// (a drawer's decode-ahead stored a frame, or draws grew what the
    /// drawers hold; called on the source's thread, not a drawing one), so
    /// that it counts it.
    nonisolated func noteDecodingState() { memoryBudget.noteDecodingState(member) }

    /// Counts `delta` more bytes of image canvases a player of this cache
    /// holds (see ``FrameMemoryBudget/addImageBytes(_:_:)``).
    nonisolated func noteImageBytes(_ delta: Int) { memoryBudget.addImageBytes(member, delta) }

    /// A drawer of this cache's frames for one player or playlist item: the
    /// source's own (told to note each decode-ahead here), or one copying
    /// the frames this cache holds when the source cannot draw.
    nonisolated func makeDrawer() -> any FrameDrawer {
        source.makeDrawer(notifying: { [weak self] in self?.noteDecodingState() }) ?? CachedFrameDrawer(cache: self)
    }

    /// A drawer copying the frames this cache holds, whether or not the
    /// source draws on its own: what the drawing contract's tests check.
    package nonisolated func makeCachedDrawer() -> any FrameDrawer { CachedFrameDrawer(cache: self) }

    /// Says a player has started playing this cache's frames: until the
    /// matching ``endPlaying()``, a shared ``memoryBudget`` gives back
    /// frames of caches not playing before this one's. A ``Player`` calls
    /// both as it plays, pauses, stops and finishes; several players of one
    /// cache each count. Callable from any context.
    package nonisolated func beginPlaying() {
        memoryBudget.setPlaying(member, delta: 1)
    }

    /// Ends one ``beginPlaying()``; extra calls are ignored.
    package nonisolated func endPlaying() {
        memoryBudget.setPlaying(member, delta: -1)
    }

    /// Returns frame `index`: from memory (a hit), or once decoded (a miss).
    /// A miss for a frame the background task is decoding waits for it.
    /// - Parameter index: A frame index in `0..<source.frameCount`.
    /// - Throws: ``PlayerError/frameOutOfRange(_:frameCount:)``, the
    ///   source's error, or ``FrameSourceError`` when the source answers with
    ///   a frame that is not the one asked for or not a whole canvas.
    public func frame(at index: Int) async throws -> RenderedFrame {
        let count = source.frameCount
        guard (0..<max(0, count)).contains(index) else {
            throw PlayerError.frameOutOfRange(index, frameCount: count)
        }
        let held = memoryBudget.lookup(member, index, counting: true)
        for watcher in watchers { watcher.watch() }
        if let held { return held }
        return try await obtain(index)
    }

    /// Calls `watch` after every frame request the cache has counted (a hit
    /// or a miss), until removed: how the package's tests wait for requests
    /// made on other tasks without polling. Returns a token.
    package func addWatcher(_ watch: @escaping @Sendable () -> Void) -> Int {
        lastWatcherToken += 1
        watchers.append((lastWatcherToken, watch))
        return lastWatcherToken
    }

    /// Forgets the watcher registered under `token`.
    package func removeWatcher(_ token: Int) {
        watchers.removeAll { $0.token == token }
    }

    /// Replaces the look-ahead list and decodes its frames in order on a
    /// background task. Indices out of range, duplicates and frames already
    /// held are ignored.
    /// - Parameter indices: The frames that will be needed next, soonest first.
    ///
    /// A look-ahead decode in flight for a frame not in `indices` is
    /// cancelled (the source drops it if it has not started).
    public func prefetch(_ indices: [Int]) {
        wanted.removeAll(keepingCapacity: true)
        pending.removeAll(keepingCapacity: true)
        let range = 0..<max(0, source.frameCount)
        for index in indices where range.contains(index) && !wanted.contains(index) {
            wanted.append(index)
            if index != decoding, !memoryBudget.contains(member, index) { pending.append(index) }
        }
        if decodingPrefetch, let index = decoding, !wanted.contains(index) {
            // Nobody wants it any more: cancel the task waiting for it. A new
            // task takes the list on once that decode has ended.
            startPrefetcher()
            draining = !pending.isEmpty
            if draining { wakePrefetcher() }
            return
        }
        if pending.isEmpty {
            resumeIdleWaitersIfIdle()
        } else if !draining {
            draining = true
            wakePrefetcher()
        }
    }

    /// Asks for a ``prefetch(_:)`` without waiting: callable from any context,
    /// in order, with only the newest request kept if several are queued.
    /// - Parameter indices: The frames that will be needed next, soonest first.
    package nonisolated func requestPrefetch(_ indices: [Int]) {
        // Numbered and yielded under one lock, so numbers arrive in order.
        requestsMade.withLock { made in
            made += 1
            requests.yield((made, indices))
        }
    }

    /// A request from ``requestPrefetch(_:)``, on the actor.
    private func apply(_ request: (number: Int, frames: [Int])) {
        requestsApplied = request.number
        prefetch(request.frames)
    }

    /// Waits until the background task has decoded everything asked for so
    /// far, ``requestPrefetch(_:)`` included.
    @_spi(Benchmarks) public func waitForPrefetch() async {
        while requestsApplied < requestsMade.withLock({ $0 }) || draining || !pending.isEmpty || decodingPrefetch {
            await withUnsafeContinuation { idleWaiters.append($0) }
        }
    }

    /// Drops every frame held and the pending look-ahead at once; a decode
    /// already running finishes but its result is not kept.
    package func purge() {
        memoryBudget.purge(member)
        pending.removeAll(keepingCapacity: true)
        wanted.removeAll(keepingCapacity: true)
        generation += 1
        resumeIdleWaitersIfIdle()
    }

    /// Changes the budget, evicting least recently used frames to fit. For
    /// a cache over a shared ``FrameMemoryBudget`` this changes the shared
    /// limit (see ``FrameMemoryBudget/setByteBudget(_:)``).
    /// - Parameter bytes: The new budget (negative means 0).
    package func setByteBudget(_ bytes: Int) {
        memoryBudget.setByteBudget(bytes)
    }

    // MARK: Internals

    /// The bytes of one whole-canvas frame (`Int.max` for a canvas that
    /// cannot be addressed: it never fits a budget).
    private var frameBytes: Int {
        FrameSourceError.byteCount(width: source.canvasWidth, height: source.canvasHeight) ?? .max
    }

    /// Starts the look-ahead's task (cancelling the one before, whose decode
    /// in flight is then dropped by the source if it has not started).
    private nonisolated func startPrefetcher() {
        let (wakes, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let task = Task { [weak self, source, budgeted] in
            for await _ in wakes {
                // `self` is held only inside each call, never across a decode.
                while !Task.isCancelled, let (index, storage, started) = await self?.nextPrefetch() {
                    let outcome: Result<RenderedFrame, any Error>
                    do {
                        outcome = .success(
                            try await source.frame(at: index, reusing: consume storage, priority: .prefetch, budgeted: budgeted))
                    } catch {
                        outcome = .failure(error)
                    }
                    await self?.finishPrefetch(index, outcome, started: started)
                }
            }
        }
        let previous = prefetcher.withLock { prefetcher in
            defer { prefetcher = (task, wake) }
            return prefetcher
        }
        previous?.task.cancel()
        previous?.wake.finish()
    }

    private func wakePrefetcher() {
        _ = prefetcher.withLock { $0?.wake.yield() }
    }

    /// The next look-ahead frame to decode, its storage and the generation
    /// it starts in, marked as the decode in flight; `nil` when the list is
    /// done (or no room is left for it).
    private func nextPrefetch() async -> (Int, [UInt8], Int)? {
        while decoding != nil {
            await withUnsafeContinuation { decodeWaiters.append($0) }
        }
        // A task replaced while it waited leaves the list to its successor.
        guard !Task.isCancelled else { return nil }
        while !pending.isEmpty {
            let index = pending.removeFirst()
            guard !memoryBudget.contains(member, index) else { continue }
            guard let storage = memoryBudget.reserve(member, bytes: frameBytes, protecting: wanted) else {
                pending.removeAll(keepingCapacity: true)
                break
            }
            decoding = index
            decodingPrefetch = true
            return (index, storage, generation)
        }
        draining = false
        resumeIdleWaitersIfIdle()
        return nil
    }

    /// Ends the look-ahead decode of frame `index`: keeps its frame (unless
    /// purged meanwhile) and lets waiting requests go on. A cancelled
    /// decode is not a failure.
    private func finishPrefetch(_ index: Int, _ outcome: Result<RenderedFrame, any Error>, started: Int) {
        decoding = nil
        decodingPrefetch = false
        for waiter in decodeWaiters { waiter.resume() }
        decodeWaiters.removeAll(keepingCapacity: true)
        do {
            let frame = try outcome.get()
            try FrameSourceError.check(frame, isFrame: index, of: source)
            memoryBudget.count(member, decodes: 1)
            if started == generation { memoryBudget.commit(member, frame) }
        } catch is CancellationError {
        } catch {
            memoryBudget.count(member, failures: 1)
        }
        // The room set aside goes back unless the frame took it, and the
        // source's decoding state is counted as the decode left it.
        memoryBudget.cancelReservation(member)
        memoryBudget.noteDecodingState(member)
        resumeIdleWaitersIfIdle()
    }

    /// Frame `index` (a miss) from memory, from a decode already running,
    /// or decoded now with ``FrameRequestPriority/now``.
    private func obtain(_ index: Int) async throws -> RenderedFrame {
        while decoding != nil {
            await withUnsafeContinuation { decodeWaiters.append($0) }
            if let frame = memoryBudget.lookup(member, index, counting: false) { return frame }
        }
        if let frame = memoryBudget.lookup(member, index, counting: false) { return frame }
        let storage = memoryBudget.reserve(member, bytes: frameBytes, protecting: nil) ?? []
        decoding = index
        defer {
            // The room set aside goes back unless the frame took it, and the
            // source's decoding state is counted as the decode left it.
            memoryBudget.cancelReservation(member)
            memoryBudget.noteDecodingState(member)
            decoding = nil
            for waiter in decodeWaiters { waiter.resume() }
            decodeWaiters.removeAll(keepingCapacity: true)
        }
        let started = generation
        let frame = try await source.frame(at: index, reusing: consume storage, priority: .now, budgeted: budgeted)
        try FrameSourceError.check(frame, isFrame: index, of: source)
        memoryBudget.count(member, decodes: 1)
        if started == generation { memoryBudget.commit(member, frame) }
        return frame
    }

    private func resumeIdleWaitersIfIdle() {
        guard !draining, pending.isEmpty, !decodingPrefetch else { return }
        for waiter in idleWaiters { waiter.resume() }
        idleWaiters.removeAll(keepingCapacity: true)
    }
}
