/// One group of items (a post with up to nine GIFs), its items in display
/// order.
public struct FeedGroupLayout: Sendable, Hashable {
    /// The host's identity for the group (for example the post's ID).
    public var id: String

    /// The group's items in display order: the order a playlist plays them.
    public var items: [FeedItemLayout]

    /// Creates a group layout.
    /// - Parameters:
    ///   - id: The group's identity.
    ///   - items: Its items in display order.
    public init(id: String, items: [FeedItemLayout]) {
        self.id = id
        self.items = items
    }
}
