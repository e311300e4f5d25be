/// Where one playable item (one GIF of a post) is laid out.
public struct FeedItemLayout: Sendable, Hashable {
    /// The host's identity for the item, the same key its ``PlaylistItem``
    /// carries (for example the GIF's URL).
    public var key: String

    /// The item's rectangle, in the ``Viewport``'s coordinate space.
    public var frame: LayoutRect

    /// Creates an item layout.
    /// - Parameters:
    ///   - key: The item's key.
    ///   - frame: Its rectangle in the viewport's coordinate space.
    public init(key: String, frame: LayoutRect) {
        self.key = key
        self.frame = frame
    }
}
