/// Decoded frames of one ``FrameSource``, kept within a byte budget the host
/// sets and decoded ahead of need on a background task.
///
/// Like SDWebImage's and FLAnimatedImage's frame buffers, the cache trades
/// memory for smoothness: ``prefetch(_:)`` (or the player, on each frame
/// change) names the frames that come next, a background task decodes them in
/// that order, and ``frame(at:)`` answers from memory (a hit) or decodes at
/// once (a miss, i.e. an underrun the host may want to log). Least recently
/// used frames are evicted first, but a prefetch never evicts another frame of
/// the same look-ahead list, so a budget smaller than the look-ahead simply
/// decodes fewer frames ahead. A frame larger than the whole budget is
/// returned but not kept. Several players of one GIF can share one cache.
public actor FrameCache {
    /// The source frames are decoded from.
    public nonisolated let source: any FrameSource

    /// How many upcoming frames a ``Player`` asks this cache to decode ahead.
    public nonisolated let lookahead: Int

    private var budget: Int
    private var frames: [Int: RenderedFrame] = [:]
    private var recency: [Int] = []
    private var counters = FrameCacheStatistics()
    private var pending: [Int] = []
    private var wanted: Set<Int> = []
    private var worker: Task<Void, Never>?
    private var generation = 0
    private nonisolated let requests: AsyncStream<[Int]>.Continuation

    /// Creates an empty cache.
    /// - Parameters:
    ///   - source: The frames' source.
    ///   - byteBudget: The most pixel bytes held at once (negative means 0).
    ///     A 400 × 300 canvas takes 480,000 bytes per frame.
    ///   - lookahead: How many upcoming frames a player prefetches (at least 0).
    public init(source: any FrameSource, byteBudget: Int, lookahead: Int = 4) {
        self.source = source
        self.budget = max(0, byteBudget)
        self.lookahead = max(0, lookahead)
        let (stream, continuation) = AsyncStream.makeStream(of: [Int].self, bufferingPolicy: .bufferingNewest(1))
        self.requests = continuation
        Task { [weak self] in
            for await list in stream {
                await self?.prefetch(list)
            }
        }
    }

    deinit {
        requests.finish()
    }

    /// The most pixel bytes held at once.
    public var byteBudget: Int { budget }

    /// The counters as they are now.
    public var statistics: FrameCacheStatistics {
        var snapshot = counters
        snapshot.bytesHeld = frames.values.reduce(0) { $0 + $1.byteCount }
        snapshot.framesHeld = frames.count
        snapshot.byteBudget = budget
        return snapshot
    }

    /// Whether frame `index` is held now.
    /// - Parameter index: A frame index.
    public func contains(_ index: Int) -> Bool { frames[index] != nil }

    /// Returns frame `index`: from memory (a hit), or decoded now (a miss).
    /// - Parameter index: A frame index in `0..<source.frameCount`.
    /// - Throws: ``PlayerError/frameOutOfRange(_:frameCount:)``, or the
    ///   source's error.
    public func frame(at index: Int) async throws -> RenderedFrame {
        guard (0..<source.frameCount).contains(index) else {
            throw PlayerError.frameOutOfRange(index, frameCount: source.frameCount)
        }
        if let frame = frames[index] {
            counters.hits += 1
            touch(index)
            return frame
        }
        counters.misses += 1
        let frame = try await source.frame(at: index)
        counters.decodes += 1
        store(frame, protecting: [])
        return frame
    }

    /// Replaces the look-ahead list and decodes its frames in order on a
    /// background task. Indices out of range, duplicates and frames already
    /// held are ignored.
    /// - Parameter indices: The frames that will be needed next, soonest first.
    public func prefetch(_ indices: [Int]) {
        var seen: Set<Int> = []
        let valid = indices.filter { (0..<source.frameCount).contains($0) && seen.insert($0).inserted }
        wanted = Set(valid)
        pending = valid.filter { frames[$0] == nil }
        if worker == nil, !pending.isEmpty {
            worker = Task { await self.drain() }
        }
    }

    /// Asks for a ``prefetch(_:)`` without waiting: callable from any context,
    /// in order, with only the newest request kept if several are queued.
    /// - Parameter indices: The frames that will be needed next, soonest first.
    public nonisolated func requestPrefetch(_ indices: [Int]) {
        requests.yield(indices)
    }

    /// Waits until the background task has decoded everything asked for so far.
    public func waitForPrefetch() async {
        while let worker {
            await worker.value
        }
    }

    /// Drops every frame held and the pending look-ahead at once; a decode
    /// already running finishes but its result is not kept.
    public func purge() {
        frames.removeAll()
        recency.removeAll()
        pending.removeAll()
        wanted.removeAll()
        generation += 1
    }

    /// Changes the budget, evicting least recently used frames to fit.
    /// - Parameter bytes: The new budget (negative means 0).
    public func setByteBudget(_ bytes: Int) {
        budget = max(0, bytes)
        while heldBytes > budget, let oldest = recency.first {
            remove(oldest)
            counters.evictions += 1
        }
    }

    // MARK: Internals

    private var heldBytes: Int { frames.values.reduce(0) { $0 + $1.byteCount } }

    private func drain() async {
        while !pending.isEmpty {
            let index = pending.removeFirst()
            guard frames[index] == nil else { continue }
            let started = generation
            do {
                let frame = try await source.frame(at: index)
                counters.decodes += 1
                if started == generation, !store(frame, protecting: wanted) {
                    pending.removeAll()
                }
            } catch {
                counters.failures += 1
            }
        }
        worker = nil
    }

    /// Keeps `frame` if it fits after evicting least recently used frames
    /// outside `protected`; returns whether it was kept.
    @discardableResult
    private func store(_ frame: RenderedFrame, protecting protected: Set<Int>) -> Bool {
        if frames[frame.index] != nil { remove(frame.index) }
        guard frame.byteCount <= budget else { return false }
        var bytes = heldBytes
        var evictable = recency.filter { !protected.contains($0) }
        while bytes + frame.byteCount > budget {
            guard !evictable.isEmpty else { return false }
            let oldest = evictable.removeFirst()
            bytes -= frames[oldest]?.byteCount ?? 0
            remove(oldest)
            counters.evictions += 1
        }
        frames[frame.index] = frame
        recency.append(frame.index)
        return true
    }

    private func touch(_ index: Int) {
        recency.removeAll { $0 == index }
        recency.append(index)
    }

    private func remove(_ index: Int) {
        frames[index] = nil
        recency.removeAll { $0 == index }
    }
}
