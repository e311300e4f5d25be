/// Where a playlist is in its life cycle: the host's intent, as for a
/// ``Player`` (a playlist never finishes; it wraps).
public enum PlaylistState: Sendable, Hashable {
    /// Never started: the first item's frame 0 is shown once loaded; nothing
    /// moves until `play()`.
    case idle

    /// Time passed in moves the current item, or counts towards the load
    /// timeout of the item waited for.
    case playing

    /// Frozen: the current item's exact position, or the time already spent
    /// waiting for it, is kept until `play()`.
    case paused
}
