/// A snapshot of a ``FrameMemoryBudget``: what every cache it handed out
/// holds in all, and each cache's own counters.
public struct FrameMemoryStatistics: Sendable, Hashable {
    /// The budget's byte limit.
    public var byteBudget: Int

    /// Bytes counted now: frames, decodes in flight and decoding state;
    /// never more than ``byteBudget`` after a call to the budget returns.
    public var bytesHeld: Int

    /// Bytes of decoded frames held by all caches.
    @_spi(Benchmarks) public var frameBytes: Int

    /// Bytes of the sources' decoding state (seek checkpoints and the like;
    /// see `BudgetedFrameSource.decodingStateByteCount`) as last read.
    package var decodingStateBytes: Int

    /// Bytes set aside for decodes running now.
    @_spi(Benchmarks) public var reservedBytes: Int

    /// Frames held by all caches.
    public var framesHeld: Int

    /// Frames the budget has dropped to stay within its limit or in a
    /// ``FrameMemoryBudget/trim(to:)``, over all caches.
    public var evictions: Int

    /// Times the budget gave back a source's decoding state.
    @_spi(Benchmarks) public var decodingStateTrims: Int

    /// Each live cache's counters, in the order the caches were made.
    public var caches: [FrameCacheStatistics]

    /// Creates a snapshot; every count defaults to zero.
    package init(
        byteBudget: Int = 0, bytesHeld: Int = 0, frameBytes: Int = 0, decodingStateBytes: Int = 0,
        reservedBytes: Int = 0, framesHeld: Int = 0, evictions: Int = 0, decodingStateTrims: Int = 0,
        caches: [FrameCacheStatistics] = []
    ) {
        self.byteBudget = byteBudget
        self.bytesHeld = bytesHeld
        self.frameBytes = frameBytes
        self.decodingStateBytes = decodingStateBytes
        self.reservedBytes = reservedBytes
        self.framesHeld = framesHeld
        self.evictions = evictions
        self.decodingStateTrims = decodingStateTrims
        self.caches = caches
    }
}
