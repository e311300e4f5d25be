/// Something a ``Playlist`` reports, in the order it happened.
///
/// At an item boundary the order is: the finishing item's last
/// ``player(key:event:)`` events (`loopCompleted`, `finished`), then
/// ``itemFinished(key:)``, then ``playlistWrapped(lapsDone:)`` if the list
/// starts over, then for the next item ``itemStarted(key:)`` (or
/// ``waitingForItem(key:)``, or ``itemSkipped(key:reason:)`` and on to the
/// one after).
public enum PlaylistEvent: Sendable, Equatable {
    /// The item began to play from its first frame (frame 0 in play order is
    /// shown; no `frameChanged` is sent for it).
    case itemStarted(key: String)

    /// The item played all its loops for this turn.
    case itemFinished(key: String)

    /// The item's turn came while it was still loading; the playlist waits
    /// for it up to ``PlaylistConfiguration/loadTimeout``.
    case waitingForItem(key: String)

    /// The item's turn passed without it playing, and why.
    case itemSkipped(key: String, reason: PlaylistSkipReason)

    /// The last item's turn ended and the list starts over; `lapsDone`
    /// counts the laps completed so far (1 the first time).
    case playlistWrapped(lapsDone: Int)

    /// An event of the player of the item playing now.
    case player(key: String, event: PlayerEvent)

    /// An item's load finished (``ItemLoadState/ready`` or
    /// ``ItemLoadState/failed(_:)``). Reported when the result arrives,
    /// whoever's turn it is; a host that sleeps until
    /// ``Playlist/nextChangeInstant`` should pass time in when it hears this.
    case loadFinished(key: String, state: ItemLoadState)

    /// No item can play: the list is empty, or a whole lap passed at one
    /// instant (every item failed, or none takes any time). The playlist
    /// rests until ``Playlist/replace(items:at:)``.
    case nothingToPlay
}
