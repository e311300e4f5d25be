/// The items that should play: the playable items of one group, in display
/// order, as ``VisibilityRule/select(from:in:)`` chose them.
public struct FeedSelection: Sendable, Hashable {
    /// The position of the chosen group in the list handed in.
    public var groupIndex: Int

    /// The chosen group's ``FeedGroupLayout/id``.
    public var groupID: String

    /// The keys of the chosen group's playable items, in display order; never
    /// empty. Hand these (as ``PlaylistItem``s) to ``Playlist/replace(items:at:)``.
    public var keys: [String]

    /// Creates a selection.
    /// - Parameters:
    ///   - groupIndex: The group's position in the list handed in.
    ///   - groupID: The group's identity.
    ///   - keys: The playable items' keys in display order.
    public init(groupIndex: Int, groupID: String, keys: [String]) {
        self.groupIndex = groupIndex
        self.groupID = groupID
        self.keys = keys
    }
}
