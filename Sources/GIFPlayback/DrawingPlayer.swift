import GIF
@_spi(Benchmarks) import Playback

/// A GIF played by the host's own loop and drawn into a buffer the host
/// owns, on the calling thread, with only the rectangle that changed since
/// the last draw written.
///
/// `Player` hands out whole canvases through actors and a decode thread,
/// which suits hosts that draw images; a host that keeps its own pixels (a
/// bitmap context, a texture upload buffer, a terminal's cells) and ticks
/// its own clock can skip all of that. Move the player (``play(at:)``,
/// ``pause(at:)``, ``seek(toFrame:)``, ``advance(to:)``, with instants of
/// the host's clock, as a `Player` takes them), then call
/// ``draw(into:bytesPerRow:)``: the frame shown is composited from the
/// palette indices stored on the first pass and only its changed rectangle
/// is written, so a steady loop costs a few percent of decoding the GIF
/// (see the README's steady-loop figures) and allocates nothing.
///
/// The generic parameter is the clock's instant type, inferred from the
/// `startingAt:` argument, as for `Player`.
///
/// ```swift
/// let clock = ContinuousClock()
/// let gif = try DrawingPlayer(image: try GIFImage(contentsOf: path),
///                             configuration: PlayerConfiguration(loop: .forever),
///                             startingAt: clock.now)
/// gif.play()
/// // Each display refresh:
/// gif.advance(to: clock.now)
/// if case .drawn(let frame, let changed, _) = try gif.draw(into: buffer, bytesPerRow: bytesPerRow) {
///     print(frame, changed)   // present only this part of the buffer
/// }
/// ```
///
/// Costs: the first pass decodes each frame with giflib on the calling
/// thread (create it and call ``prepare()`` where that is acceptable); from
/// then on, frames whose indices fit `indexBudget` are composited without
/// giflib, and frames that do not fit are decoded again, resuming from the
/// checkpoints `checkpointBudget` holds. No canvas is kept besides the
/// seeker's working one: the host's buffer is the picture.
///
/// It is a `Player`'s control core (the playhead, its events, the frame
/// published for drawing) with a GIF source's drawer that decodes on the
/// calling thread: the same engine as `Player.draw(into:bytesPerRow:)`,
/// whose draw is never late, and no actor or decode thread.
///
/// Not `Sendable`: one thread owns it. The buffer must keep what the last
/// draw left; when the host's pixels are lost or replaced, call
/// ``invalidate()`` so that the next draw writes the whole canvas.
public final class DrawingPlayer<Instant: InstantProtocol> where Instant.Duration == Duration {
    /// The position and the policies, read-only: the player's own methods
    /// move it, with instants of the host's clock. Moving it draws nothing;
    /// the next ``draw(into:bytesPerRow:)`` does. Its times are host time
    /// since ``origin``.
    public var playhead: Playhead { core.read { copy $0 } }

    /// The instant host time is measured from: the epoch, or creation time.
    public let origin: Instant

    /// The latest instant passed in.
    public var now: Instant { origin.advanced(by: core.read { $0.now }) }

    /// The instant the next change is due, or `nil` when nothing is
    /// scheduled; computed from the anchor, so advancing to it accumulates
    /// no error.
    public var nextChangeInstant: Instant? {
        core.read { $0.nextChangeTime }.map { origin.advanced(by: $0) }
    }

    /// The image played.
    @_spi(Benchmarks) public var image: GIFImage { source.image }

    /// The width drawn in pixels (the canvas's, or the display size's):
    /// each row drawn is `width × 4` bytes.
    public var width: Int { source.canvasWidth }

    /// The height drawn in pixels: the rows drawn.
    public var height: Int { source.canvasHeight }

    /// The layout of the pixels drawn.
    package var pixelFormat: PixelFormat { source.pixelFormat }

    /// The most bytes of stored frame indices: the budget asked for, or the
    /// GIF's indices when they take less.
    package let indexBudget: Int

    /// The most bytes of checkpoints, and apart from them, of the frames'
    /// recorded changes (see ``init(image:configuration:budget:pixelFormat:startingAt:epoch:)``).
    package let checkpointBudget: Int

    /// The bytes of stored indices, checkpoints and recorded frame changes
    /// held now.
    @_spi(Benchmarks) public var checkpointAndIndexBytes: Int { drawer.checkpointAndIndexBytes + (source.deltas?.byteCount ?? 0) }

    /// Whether every frame's recorded change is held, so that stepping
    /// through a loop copies them (for tests).
    package var drawsFromRecordedChanges: Bool { source.drawsFromRecordedChanges }

    /// The frames giflib has decoded so far: in a steady loop over a GIF
    /// whose indices fit `indexBudget` it stops growing.
    public var decodeCount: Int { drawer.decodeCount }

    /// The frame the host's buffer holds, as far as this player knows:
    /// `nil` before the first draw and after ``invalidate()``.
    package var drawnFrame: Int? { drawer.drawnFrame }

    /// The frames and their stored indices.
    private let source: GIFFrameSource
    private let drawer: GIFFrameDrawer
    /// The control core a `Player` is a face of, drawing with ``drawer``.
    private let core: PlayerCore

    /// A player of `image`, showing frame 0 of its play order, idle (or
    /// playing, with `PlayerConfiguration.autoplay`), nothing drawn yet.
    /// - Parameters:
    ///   - image: The GIF.
    ///   - configuration: The playback policies.
    ///   - budget: The most bytes of stored palette indices (one a pixel of
    ///     each frame's own rectangle; 0 decodes every frame every time) and
    ///     of checkpoints (about a canvas, `width × height × 4`, each), which
    ///     bound how far back a seek or a frame whose indices did not fit
    ///     resumes decoding. Negative counts as 0. As many checkpoint bytes
    ///     again, at most, keep what each frame changes as drawn once every
    ///     frame has been drawn whole in order (the loop's first pass):
    ///     later loops then copy those pixels instead of compositing (a set
    ///     that would take more is not kept).
    ///   - pixelFormat: The layout drawn.
    ///   - displaySize: The cell the host draws in, or `nil` for the
    ///     canvas as it is: frames are composited at full size and drawn
    ///     resampled to ``width`` × ``height`` (see `DisplaySize`).
    ///   - now: The clock's instant now (the player never reads the clock).
    ///   - epoch: A shared epoch: players given the same one stay in step
    ///     (see `Playhead`).
    /// - Throws: `PlayerError.emptySource` for a GIF without frames, or
    ///   `PlayerError.invalidRate(_:)`.
    public init(
        image: GIFImage, configuration: PlayerConfiguration = .init(), budget: DecodingBudget = .default,
        pixelFormat: PixelFormat = .rgba8, displaySize: DisplaySize? = nil,
        startingAt now: Instant, epoch: Instant? = nil
    ) throws(PlayerError) {
        let timing = FrameSourceTiming(
            frameDelays: image.info.frames.map(\.delay), storedLoopCount: image.info.loopCount.stored)
        let timeline = try PlaybackTimeline(timing: timing, configuration: configuration)
        let origin = epoch ?? now
        self.origin = origin
        let playhead = try Playhead(
            timeline: timeline, configuration: configuration, now: origin.duration(to: now),
            epoch: epoch == nil ? nil : .zero)
        self.indexBudget = min(max(0, budget.indexBytes), image.info.framePixelCount)
        self.checkpointBudget = max(0, budget.checkpointBytes)
        source = GIFFrameSource(
            image: image, budget: DecodingBudget(checkpointBytes: 0, indexBytes: self.indexBudget), executor: .shared,
            pixelFormat: pixelFormat, displaySize: displaySize,
            deltaBytes: self.checkpointBudget)
        drawer = source.makeCallingThreadDrawer(checkpointBudget: self.checkpointBudget)
        // The cache only takes the playing claims: the drawer decodes here
        // and asks it for nothing.
        core = PlayerCore(playhead: playhead, cache: FrameCache(source: source, byteBudget: 0), drawer: drawer)
    }

    /// Starts or resumes (see `Playhead.play(at:)`) at `instant` or ``now``.
    /// - Returns: The events, in order.
    @discardableResult
    public func play(at instant: Instant? = nil) -> [PlayerEvent] { core.play(at: instant.map(hostTime)) }

    /// Freezes the position (see `Playhead.pause(at:)`) at `instant` or
    /// ``now``.
    /// - Returns: The events, in order.
    @discardableResult
    public func pause(at instant: Instant? = nil) -> [PlayerEvent] { core.pause(at: instant.map(hostTime)) }

    /// Returns to frame 0, idle (see `Playhead.stop(at:)`), at `instant` or
    /// ``now``.
    /// - Returns: The events, in order.
    @discardableResult
    public func stop(at instant: Instant? = nil) -> [PlayerEvent] { core.stop(at: instant.map(hostTime)) }

    /// Moves time forward to `instant`; earlier instants are ignored (see
    /// `Playhead.advance(to:)`).
    /// - Returns: The events on the way, in order.
    @discardableResult
    public func advance(to instant: Instant) -> [PlayerEvent] { core.advance(to: hostTime(instant)) }

    /// Moves time forward by `duration`; negative durations are ignored.
    /// - Returns: The events on the way, in order.
    @discardableResult
    public func advance(by duration: Duration) -> [PlayerEvent] { core.advance(by: duration) }

    /// Shows `frame` from its start (see `Playhead.seek(toFrame:)`).
    /// - Returns: The events, in order.
    /// - Throws: `PlayerError.frameOutOfRange(_:frameCount:)`; the position
    ///   is kept then.
    @discardableResult
    public func seek(toFrame frame: Int) throws(PlayerError) -> [PlayerEvent] { try core.seek(toFrame: frame) }

    /// Moves to a media-time offset (see `Playhead.seek(toOffset:)`).
    /// - Returns: The events, in order.
    /// - Throws: `PlayerError.offsetOutOfRange(_:totalDuration:)`; the
    ///   position is kept then.
    @discardableResult
    public func seek(toOffset offset: Duration) throws(PlayerError) -> [PlayerEvent] { try core.seek(toOffset: offset) }

    /// Changes the rate, keeping the position (see `Playhead.setRate(_:)`).
    /// - Throws: `PlayerError.invalidRate(_:)`.
    public func setRate(_ rate: Double) throws(PlayerError) { try core.setRate(rate) }

    /// Switches reduced-motion mode on or off (see
    /// `Playhead.setReducedMotion(_:)`).
    /// - Returns: The events, in order.
    @discardableResult
    public func setReducedMotion(_ on: Bool) -> [PlayerEvent] { core.setReducedMotion(on) }

    /// Host time: from ``origin`` to `instant`.
    private func hostTime(_ instant: Instant) -> Duration {
        origin.duration(to: instant)
    }

    /// Decodes every frame once on the calling thread, storing indices and
    /// checkpoints as the budgets allow, so that later draws composite
    /// without giflib where the indices fit.
    /// - Throws: `GIFError` when a frame fails; what was decoded before
    ///   it is kept.
    public func prepare() throws(GIFError) {
        try drawer.prepare()
    }

    /// Forgets what the host's buffer holds: the next draw writes the whole
    /// canvas.
    public func invalidate() {
        drawer.invalidate()
    }

    /// Writes the frame the ``playhead`` shows into `buffer`, `bytesPerRow`
    /// bytes from one row's start to the next, in `pixelFormat`, when the
    /// buffer does not hold it already.
    ///
    /// The buffer is taken to hold `drawnFrame`. When the frame shown is
    /// the next one in the file (or up to eight frames on), only the
    /// changed rectangles are written; otherwise (the first draw, a loop
    /// starting again, a seek, a reversed direction) the whole canvas is.
    /// Bytes past `width × 4` in each row are never touched.
    ///
    /// - Returns: What was written, as `Player.draw(into:bytesPerRow:)`
    ///   reports it: `FrameDraw.drawn(frame:changed:isComplete:)` with the
    ///   part of the buffer written, `.unchanged` when the buffer already
    ///   held the frame shown, or `.failed(frame:shown:reason:)` when a frame
    ///   on the way failed with nothing to show (``failure`` has the
    ///   decoder's error; the buffer then still holds what it held). Never
    ///   `.late`: the frame is decoded here.
    /// - Throws: `PixelBufferError` (`rowStrideTooSmall(bytesPerRow:minimum:)`
    ///   or `bufferTooSmall(byteCount:needed:)`) before anything is decoded
    ///   or written.
    public func draw(
        into buffer: UnsafeMutableRawBufferPointer, bytesPerRow: Int
    ) throws(PixelBufferError) -> FrameDraw {
        try core.draw(into: buffer, bytesPerRow: bytesPerRow)
    }

    /// The decoder's error of the latest draw that failed
    /// (`FrameDraw.failed(frame:shown:reason:)`), or `nil` after one that
    /// did not.
    public var failure: GIFError? { drawer.failure }
}
