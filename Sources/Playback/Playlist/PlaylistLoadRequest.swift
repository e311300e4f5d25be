/// A load the ``PlaylistSequencer`` wants started: run ``item``'s loader and
/// hand the result back with ``PlaylistSequencer/finishLoad(_:result:)``.
///
/// ``Playlist`` does this on its own tasks; a host driving a sequencer
/// directly runs the loads itself.
public struct PlaylistLoadRequest: Sendable {
    /// Identifies this load, so a late result for an item that was removed
    /// (or handed in anew) in the meantime is ignored.
    public let id: Int

    /// The item to load.
    public let item: PlaylistItem
}
