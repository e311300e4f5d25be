/// A snapshot of a ``FrameCache``'s counters, for the host's diagnostics and
/// for tuning the byte budget.
public struct FrameCacheStatistics: Sendable, Hashable {
    /// Requests for a frame answered from memory.
    public var hits = 0

    /// Requests for a frame that was not ready (underruns): the caller waited
    /// for a decode.
    public var misses = 0

    /// Frames decoded from the source, ahead of time or on a miss.
    public var decodes = 0

    /// Frames dropped to stay within the budget, by this cache or by a
    /// shared ``FrameMemoryBudget`` for another cache's room or a trim
    /// (purges not included).
    public var evictions = 0

    /// Decodes the source refused by throwing; prefetch skips such frames.
    @_spi(Benchmarks) public var failures = 0

    /// Bytes of pixels held now; never more than ``byteBudget``.
    public var bytesHeld = 0

    /// Frames held now.
    public var framesHeld = 0

    /// The byte budget in force: the cache's own, or the limit of the
    /// shared ``FrameMemoryBudget`` it counts against.
    public var byteBudget = 0

    /// Bytes of the source's decoding state (`BudgetedFrameSource.decodingStateByteCount`)
    /// as last read by the budget, after the latest decode.
    package var decodingStateBytes = 0

    /// Bytes of the canvases this cache's players draw their images into
    /// (``Player/currentImage(isolation:)`` on a source that draws: two canvases a
    /// player at most), counted by the budget and never given back by it.
    public var imageBytes = 0

    /// Whether a player playing this cache's frames has said so
    /// (`FrameCache.beginPlaying()`): its frames are given back after
    /// those of caches not playing.
    package var isPlaying = false

    /// A snapshot with every counter zero and ``isPlaying`` false: a
    /// starting point to add snapshots into.
    @_spi(Benchmarks) public init() {}
}
