/// Runs a ``Playlist`` in real time on any `Clock`, as ``PlaybackDriver``
/// runs a ``Player``: it sleeps until the next deadline (a frame, an item
/// boundary, a load timeout), advances the playlist to the clock's time,
/// and repeats.
///
/// It also wakes when a load finishes, so an item the playlist was waiting
/// for starts at the clock's time of its arrival.
///
/// ```swift
/// let item = PlaylistItem(key: path) { try GIFFrameSource(contentsOf: path) }
/// let playlist = try Playlist(items: [item], startingAt: clock.now)
/// let driver = PlaylistDriver(playlist: playlist, clock: clock)
/// let task = Task { await driver.run() }
/// await playlist.play()
/// // …
/// task.cancel()
/// ```
public struct PlaylistDriver<C: Clock>: Sendable where C.Duration == Duration {
    /// The playlist being driven.
    package let playlist: Playlist<C.Instant>

    /// The clock that supplies time and sleeps.
    package let clock: C

    /// Creates a driver; nothing runs until ``run()``.
    /// - Parameters:
    ///   - playlist: The playlist to drive; it must measure time on `clock`.
    ///   - clock: The clock to read and sleep on.
    public init(playlist: Playlist<C.Instant>, clock: C) {
        self.playlist = playlist
        self.clock = clock
    }

    /// Drives the playlist until the calling task is cancelled, ticking it
    /// at each deadline and whenever a load it waits for arrives.
    public func run() async {
        await GroupDriver.drive(playlist, on: clock)
    }
}
