/// One entry of a ``Playlist``: the host's key for it and how to load it.
///
/// The playlist never fetches anything itself: network, disk and caching stay
/// the host's business, behind ``load``. The playlist calls it at most once
/// per item while the item stays in the list (a failed item is tried again
/// only after a ``Playlist/replace(items:at:)`` that hands it in anew).
///
/// ```swift
/// let item = PlaylistItem(key: path) {
///     try GIFFrameSource(contentsOf: path)    // when the playlist loads the item
/// }
/// let playlist = try Playlist(items: [item], startingAt: clock.now)
/// await playlist.play()
/// ```
public struct PlaylistItem: Sendable {
    /// The host's identity for the item (a URL string, say). Keys are unique
    /// within a playlist: relay and load states are matched by key.
    public var key: String

    /// How many times the item plays in a row on each turn, or `nil` for the
    /// playlist's ``PlaylistConfiguration/loopsPerItem``. Values below 1 read
    /// as 1.
    public var loops: Int?

    /// Loads the item's frames; called from a task of the playlist's own.
    public var load: @Sendable () async throws -> any FrameSource

    /// The cell the host draws this item in, or `nil` for full size: the
    /// playlist caches the loaded source's ``FrameSource/displaying(at:)``,
    /// so only the frames the cell shows are kept.
    public var displaySize: DisplaySize?

    /// Creates an item.
    /// - Parameters:
    ///   - key: The host's identity for the item.
    ///   - loops: Plays per turn, or `nil` for the playlist's default.
    ///   - displaySize: The cell the item is drawn in, or `nil` for full size.
    ///   - load: Loads the item's frames.
    public init(
        key: String, loops: Int? = nil, displaySize: DisplaySize? = nil,
        load: @escaping @Sendable () async throws -> any FrameSource
    ) {
        self.key = key
        self.loops = loops
        self.displaySize = displaySize
        self.load = load
    }
}
