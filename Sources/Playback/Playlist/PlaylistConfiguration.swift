/// How a ``Playlist`` plays its items.
public struct PlaylistConfiguration: Sendable, Hashable {
    /// The policies each item's player follows. Its ``PlayerConfiguration/loop``
    /// is replaced by the item's loop count and its
    /// ``PlayerConfiguration/autoplay`` by the playlist's own ``autoplay``;
    /// its ``PlayerConfiguration/playTimeLimit`` and
    /// ``PlayerConfiguration/reducedMotion`` do not apply to items (the
    /// playlist moves on when an item finishes).
    public var player: PlayerConfiguration

    /// How many times an item plays on each turn unless it says otherwise
    /// (``PlaylistItem/loops``). Default 1: one pass. Values below 1 read as 1.
    public var loopsPerItem: Int

    /// How long the playlist waits, while playing, for an item still loading
    /// when its turn comes before skipping it (default 5 s). Paused time does
    /// not count. Zero skips at once; negative reads as zero.
    public var loadTimeout: Duration

    /// How many items after the current one load ahead (default 1: the next).
    public var preload: Int

    /// Whether the playlist starts playing as soon as it is made. Default
    /// `false`, as for a ``Player``: nothing moves until `play()`.
    public var autoplay: Bool

    /// The byte budget of each item's ``FrameCache`` (default 32 MiB); the
    /// playlist keeps caches for the current and the next item only.
    package var cacheByteBudget: Int

    /// A budget the item caches share with the host's other caches, in
    /// place of `cacheByteBudget` each (default `nil`: each its own).
    public var memoryBudget: FrameMemoryBudget?

    /// Creates a configuration; every argument has the default described on
    /// its property.
    public init(
        player: PlayerConfiguration = .init(),
        loopsPerItem: Int = 1,
        loadTimeout: Duration = .seconds(5),
        preload: Int = 1,
        autoplay: Bool = false,
        cacheByteBudget: Int = 32 << 20,
        memoryBudget: FrameMemoryBudget? = nil
    ) {
        self.memoryBudget = memoryBudget
        self.player = player
        self.loopsPerItem = loopsPerItem
        self.loadTimeout = loadTimeout
        self.preload = preload
        self.autoplay = autoplay
        self.cacheByteBudget = cacheByteBudget
    }
}
