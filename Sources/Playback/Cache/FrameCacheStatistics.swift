/// A snapshot of a ``FrameCache``'s counters, for the host's diagnostics and
/// for tuning the byte budget.
public struct FrameCacheStatistics: Sendable, Hashable {
    /// Requests for a frame answered from memory.
    public var hits: Int

    /// Requests for a frame that was not ready (underruns): the caller waited
    /// for a decode.
    public var misses: Int

    /// Frames decoded from the source, ahead of time or on a miss.
    public var decodes: Int

    /// Frames dropped to stay within the budget, by this cache or by a
    /// shared ``FrameMemoryBudget`` for another cache's room or a trim
    /// (purges not included).
    public var evictions: Int

    /// Decodes the source refused by throwing; prefetch skips such frames.
    public var failures: Int

    /// Bytes of pixels held now; never more than ``byteBudget``.
    public var bytesHeld: Int

    /// Frames held now.
    public var framesHeld: Int

    /// The byte budget in force: the cache's own, or the limit of the
    /// shared ``FrameMemoryBudget`` it counts against.
    public var byteBudget: Int

    /// Bytes of the source's decoding state (`BudgetedFrameSource.decodingStateByteCount`)
    /// as last read by the budget, after the latest decode.
    public var decodingStateBytes: Int

    /// Whether a player playing this cache's frames has said so
    /// (``FrameCache/beginPlaying()``): its frames are given back after
    /// those of caches not playing.
    public var isPlaying: Bool

    /// Creates a snapshot; all counters default to zero.
    public init(
        hits: Int = 0, misses: Int = 0, decodes: Int = 0, evictions: Int = 0,
        failures: Int = 0, bytesHeld: Int = 0, framesHeld: Int = 0, byteBudget: Int = 0,
        decodingStateBytes: Int = 0, isPlaying: Bool = false
    ) {
        self.decodingStateBytes = decodingStateBytes
        self.isPlaying = isPlaying
        self.hits = hits
        self.misses = misses
        self.decodes = decodes
        self.evictions = evictions
        self.failures = failures
        self.bytesHeld = bytesHeld
        self.framesHeld = framesHeld
        self.byteBudget = byteBudget
    }
}
