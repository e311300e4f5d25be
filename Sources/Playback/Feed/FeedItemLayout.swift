/// Where one playable item (one GIF of a post) is laid out.
public struct FeedItemLayout: Sendable, Hashable {
    /// The host's identity for the item, the same key its ``PlaylistItem``
    /// carries (for example the GIF's URL).
    public var key: String

    /// The item's rectangle, in the ``Viewport``'s coordinate space.
    public var frame: LayoutRect

    /// What a ``GridFeed`` opens for the item and shares through its pool
    /// (for example the GIF's path): items of one source share one cache
    /// and decode once, each with a player of its own. The key, unless
    /// given.
    public var source: String

    /// Creates an item layout.
    /// - Parameters:
    ///   - key: The item's key, unique in its grid.
    ///   - frame: Its rectangle in the viewport's coordinate space.
    ///   - source: What is opened for it (default: `key`); several items
    ///     may name one source.
    public init(key: String, frame: LayoutRect, source: String? = nil) {
        self.key = key
        self.frame = frame
        self.source = source ?? key
    }
}
