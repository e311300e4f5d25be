@_spi(Engine) import EngineSupport

/// Plays a list of items one after another, each for its loop count, then
/// wraps; loads items ahead through the host's loaders; skips what fails or
/// comes too late; and relays playback across list refreshes.
///
/// The ``PlaylistSequencer`` (the deterministic core) with `Clock`
/// instants, the loads run on tasks of the playlist's own, event delivery,
/// and a ``FrameCache`` for the current and the next item. Its state sits
/// behind one lock, as a player's does, so a ``GroupDriver`` ticks it on
/// the host's thread (``GroupDriver/tickPlayers(at:)``) without waiting
/// for the actor.
/// Everything else works as for a ``Player``: autoplay is off, time comes
/// from the host (``advance(to:)``) or from a ``PlaylistDriver``, and
/// pause/resume keep the exact position, across item boundaries too.
///
/// ```swift
/// let clock = ContinuousClock()
/// let items = ["a.gif", "b.gif", "c.gif"].map { path in
///     PlaylistItem(key: path) { try GIFFrameSource(contentsOf: path) }
/// }
/// let playlist = try Playlist(items: items, startingAt: clock.now)
/// let driver = PlaylistDriver(playlist: playlist, clock: clock)
/// Task { await driver.run() }
/// await playlist.play()
/// // On a feed refresh that keeps a.gif, the GIF being watched goes on where it was:
/// await playlist.replace(items: Array(items.prefix(2)))
/// ```
///
/// The playing state lives here, not in any view: a host that rebuilds its
/// views asks ``currentKey``, ``currentFrame`` and ``currentImage()`` again
/// and loses nothing.
public actor Playlist<Instant: InstantProtocol> where Instant.Duration == Duration {
    /// The instant host time is measured from: creation time.
    public nonisolated let origin: Instant

    /// The rules in force.
    package nonisolated var configuration: PlaylistConfiguration { core.configuration }

    /// The engine: the sequencer, the loads, the caches and the listeners
    /// behind one lock, ticked by a ``GroupDriver`` on its own thread.
    nonisolated let core: PlaylistCore

    /// Creates a playlist on its first item, idle unless autoplay is on, and
    /// starts loading the first items at once.
    /// - Parameters:
    ///   - items: The items in play order (keys unique; later duplicates are
    ///     dropped).
    ///   - configuration: The rules.
    ///   - now: The clock's instant now (the playlist never reads the clock).
    /// - Throws: ``PlayerError/invalidRate(_:)``.
    public init(
        items: [PlaylistItem], configuration: PlaylistConfiguration = .init(), startingAt now: Instant
    ) throws(PlayerError) {
        self.origin = now
        let core = try PlaylistCore(items: items, configuration: configuration)
        self.core = core
        Task { core.startLoads() }
    }

    // MARK: Reading the state

    /// A copy of the deterministic state, for inspection or tests.
    package var snapshot: PlaylistSequencer { core.read { $0 } }

    /// The life-cycle state.
    public var state: PlaylistState { core.read { $0.state } }

    /// The keys of the items, in play order.
    public var keys: [String] { core.read { $0.items.map(\.key) } }

    /// The current item's key, or `nil` when there is none.
    public var currentKey: String? { core.read { $0.currentKey } }

    /// The current item's position in the list.
    @_spi(Benchmarks) public var currentIndex: Int? { core.read { $0.currentIndex } }

    /// The current item's frame shown now, or `nil` before it is loaded.
    public var currentFrame: Int? { core.read { $0.currentFrame } }

    /// The current item's playhead (loops done, time into the frame, its
    /// timeline), or `nil` before it is loaded.
    package var currentPlayhead: Playhead? { core.read { $0.currentPlayhead } }

    /// Whether the playlist waits for the current item's load.
    public var isWaiting: Bool { core.read { $0.isWaiting } }

    /// Laps completed.
    @_spi(Benchmarks) public var lapsDone: Int { core.read { $0.lapsDone } }

    /// The load state of the item with `key`, or `nil` when no item has it.
    /// - Parameter key: An item's key.
    public func loadState(of key: String) -> ItemLoadState? { core.read { $0.loadState(of: key) } }

    /// The latest instant passed in.
    public var now: Instant { origin.advanced(by: core.read { $0.now }) }

    /// Loads running whose result the playlist still wants.
    package var runningLoadCount: Int { core.loadCounts.running }

    /// Loads cancelled so far because their item was removed or handed in
    /// anew (``replace(items:at:)``). Each was cancelled at once; none is
    /// awaited.
    package var cancelledLoadCount: Int { core.loadCounts.cancelled }

    /// Cancelled loads whose loader has not returned yet: a loader that
    /// ignores cancellation is abandoned and counted here until it returns
    /// (its result is then dropped).
    package var abandonedLoadCount: Int { core.loadCounts.abandoned }

    /// The instant of the next change, or `nil` when nothing is scheduled;
    /// computed from anchors, so sleeping until it accumulates no error.
    public var nextChangeInstant: Instant? {
        core.read { $0.nextChangeTime }.map { origin.advanced(by: $0) }
    }

    /// Host time until the next change, or `nil` when nothing is scheduled.
    package var timeUntilNextChange: Duration? { core.read { $0.timeUntilNextChange } }

    /// The pixels of the current item's frame shown now, or `nil` when no
    /// item is loaded yet: drawn into at most two canvases of the item's
    /// when its source draws, as ``Player/currentImage(isolation:)`` draws them, else
    /// through its cache.
    /// - Throws: The source's decoding error, or
    ///   ``FrameSourceError/drawFailed(index:reason:)``.
    public func currentImage() async throws -> RenderedFrame? {
        guard let (frame, images, cache) = core.currentImageSource() else { return nil }
        if let images { return try await images.image(at: { frame }) }
        return try await cache.frame(at: frame)
    }

    /// Writes the current item's frame into `buffer`, memory the host owns,
    /// as ``Player/draw(into:bytesPerRow:)`` does for a player: only what
    /// changed since the last draw, on the calling thread, never waiting
    /// for the actor or for a decode. When the item changes, the next draw
    /// writes the new item's whole frame; the buffer must then be
    /// ``currentDrawer``'s size (items differ in size).
    /// - Returns: What was written, or `nil` when no item is loaded yet.
    /// - Throws: `PixelBufferError` for a buffer too small for the current
    ///   item's frame, or when another thread is drawing this playlist.
    public nonisolated func draw(
        into buffer: UnsafeMutableRawBufferPointer, bytesPerRow: Int
    ) throws(PixelBufferError) -> FrameDraw? {
        try core.draw(into: buffer, bytesPerRow: bytesPerRow)
    }

    /// The drawer of the current item (its ``FrameDrawer/width`` and
    /// ``FrameDrawer/height`` are the size ``draw(into:bytesPerRow:)``
    /// draws), or `nil` before it is loaded.
    public nonisolated var currentDrawer: (any FrameDrawer)? { core.currentDrawer }

    /// The draws so far that found their frame not decoded yet.
    public nonisolated var lateDrawCount: Int { core.lateDrawCount }

    // MARK: Control

    /// Starts or resumes (see ``PlaylistSequencer/play(at:)``) at `instant` or ``now``.
    @discardableResult
    public func play(at instant: Instant? = nil) -> [PlaylistEvent] {
        core.perform { $0.play(at: instant.map(hostTime)) }
    }

    /// Freezes the position (see ``PlaylistSequencer/pause(at:)``).
    @discardableResult
    public func pause(at instant: Instant? = nil) -> [PlaylistEvent] {
        core.perform { $0.pause(at: instant.map(hostTime)) }
    }

    /// Moves time forward to `instant`; earlier instants are ignored.
    @discardableResult
    public func advance(to instant: Instant) -> [PlaylistEvent] {
        core.perform { $0.advance(to: hostTime(instant)) }
    }

    /// Moves time forward by `duration`; negative durations are ignored.
    @discardableResult
    public func advance(by duration: Duration) -> [PlaylistEvent] {
        core.perform { $0.advance(by: duration) }
    }

    /// Hands in a new list, relaying the current item when the new list is a
    /// subset of the old one that holds it (see
    /// ``PlaylistSequencer/replace(items:at:)``).
    @discardableResult
    public func replace(items: [PlaylistItem], at instant: Instant? = nil) -> [PlaylistEvent] {
        core.perform { $0.replace(items: items, at: instant.map(hostTime)) }
    }

    // MARK: Internals

    private nonisolated func hostTime(_ instant: Instant) -> Duration {
        origin.duration(to: instant)
    }
}
