/// One ``FrameCache`` per source key, shared by every player of that source:
/// nine copies of a GIF in a feed decode each frame once and hold one
/// cache's worth of pixels, not nine.
///
/// Like Kingfisher's and SDWebImage's caches, the pool is keyed by what the
/// host says identifies an image (a URL, a file path, a content hash). The
/// pool does not keep caches alive: a cache lives while a player (or anything
/// else) holds it, and the next request for its key after that makes a new
/// one. The host owns the pool; the library keeps no global state.
///
/// Each request costs O(1) amortised, however many keys there are: entries
/// of caches that went away are purged lazily, in one sweep each time the
/// table has doubled since the last sweep, not on every request.
///
/// Made over a shared ``FrameMemoryBudget``, the pool's caches count
/// against that one budget together instead of each having its own; and
/// a cache asked for at a ``DisplaySize`` holds frames of that size only
/// (the key and the size together name the cache).
///
/// ```swift
/// let pool = FrameCachePool()
/// let cache = try await pool.cache(for: path) { try GIFFrameSource(contentsOf: path) }
/// let player = try Player(source: cache.source, startingAt: clock.now, cache: cache)
/// await player.play()
/// ```
public actor FrameCachePool {
    /// The byte budget of each cache the pool makes; with a shared
    /// ``memoryBudget``, that budget's limit when the pool was made.
    package nonisolated let byteBudget: Int

    /// The budget all the pool's caches share, or `nil` when each has its
    /// own ``byteBudget``.
    package nonisolated let memoryBudget: FrameMemoryBudget?

    /// The look-ahead of each cache the pool makes.
    package nonisolated let lookahead: Int

    private struct Entry {
        weak var cache: FrameCache?
    }

    /// The host's key and the display size.
    private struct Key: Hashable {
        var key: AnyHashable
        var size: DisplaySize?
    }

    private var entries: [Key: Entry] = [:]
    /// The table size that triggers the next sweep of dead entries.
    private var sweepAt = 64
    /// Entries visited by sweeps so far (evidence of the amortised cost).
    private var swept = 0

    /// Creates an empty pool.
    /// - Parameters:
    ///   - byteBudget: Each cache's budget.
    ///   - lookahead: How many frames each cache decodes ahead for a player.
    public init(byteBudget: Int = FrameCache.defaultByteBudget, lookahead: Int = 4) {
        self.byteBudget = byteBudget
        self.memoryBudget = nil
        self.lookahead = lookahead
    }

    /// Creates an empty pool whose caches all count against `budget`.
    /// - Parameters:
    ///   - budget: The budget shared by every cache the pool makes.
    ///   - lookahead: How many frames each cache decodes ahead for a player.
    public init(budget: FrameMemoryBudget, lookahead: Int = 4) {
        self.byteBudget = budget.byteBudget
        self.memoryBudget = budget
        self.lookahead = lookahead
    }

    /// The cache for `key`: the one a player of the same key holds now, or a
    /// new one over the source `makeSource` opens (called only then).
    /// - Parameters:
    ///   - key: What identifies the source, e.g. its URL.
    ///   - makeSource: Opens the source when no live cache has the key.
    /// - Throws: What `makeSource` throws; the pool is then unchanged.
    public func cache(
        for key: some Hashable & Sendable,
        source makeSource: @Sendable () throws -> any FrameSource
    ) rethrows -> FrameCache {
        try cache(for: key, displaySize: nil, source: makeSource)
    }

    /// The cache for `key` shown at `displaySize`: the one a player of the
    /// same key and size holds now, or a new one over
    /// `makeSource().displaying(at: displaySize)` (see
    /// ``FrameSource/displaying(at:)``), whose frames fit the size.
    /// - Parameters:
    ///   - key: What identifies the source, e.g. its URL.
    ///   - displaySize: The cell the host draws in, or `nil` for full size.
    ///   - makeSource: Opens the full-size source when no live cache has the
    ///     key and size.
    /// - Throws: What `makeSource` throws; the pool is then unchanged.
    public func cache(
        for key: some Hashable & Sendable,
        displaySize: DisplaySize?,
        source makeSource: @Sendable () throws -> any FrameSource
    ) rethrows -> FrameCache {
        let key = Key(key: AnyHashable(key), size: displaySize)
        if let cache = entries[key]?.cache { return cache }
        var source = try makeSource()
        if let displaySize { source = source.displaying(at: displaySize) }
        let cache = if let memoryBudget {
            FrameCache(source: source, budget: memoryBudget, lookahead: lookahead)
        } else {
            FrameCache(source: source, byteBudget: byteBudget, lookahead: lookahead)
        }
        entries[key] = Entry(cache: cache)
        if entries.count >= sweepAt { sweep() }
        return cache
    }

    /// The number of caches alive now (held by a player or by the host).
    /// Counts every entry: O(keys), unlike ``cache(for:source:)``.
    package var liveCacheCount: Int {
        entries.values.reduce(0) { $0 + ($1.cache == nil ? 0 : 1) }
    }

    /// Entries in the table, dead ones not yet purged included: fewer than
    /// 64 or twice the entries the last sweep kept, whichever is more.
    package var entryCount: Int { entries.count }

    /// Entries visited by the sweeps so far: at most twice the number of
    /// ``cache(for:source:)`` calls that made a cache, which is what makes
    /// each request O(1) amortised.
    package var entriesSwept: Int { swept }

    /// Drops the entries of caches that went away, then waits until the table
    /// has doubled before the next sweep: n inserts cost O(n) sweeping.
    private func sweep() {
        swept += entries.count
        entries = entries.filter { $0.value.cache != nil }
        sweepAt = max(64, 2 * entries.count)
    }
}
