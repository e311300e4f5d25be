import GIF
import Playback

/// A GIF played by the host's own loop and drawn into a buffer the host
/// owns, on the calling thread, with only the rectangle that changed since
/// the last draw written.
///
/// `Player` hands out whole canvases through actors and a decode thread,
/// which suits hosts that draw images; a host that keeps its own pixels (a
/// bitmap context, a texture upload buffer, a terminal's cells) and ticks
/// its own clock can skip all of that. Move the ``playhead`` (play, pause,
/// seek, ``advance(to:)``), then call ``draw(into:bytesPerRow:)``: the
/// frame shown is composited from the palette indices stored on the first
/// pass and only its changed rectangle is written, so a steady loop costs a
/// few percent of decoding the GIF (see the README's steady-loop figures)
/// and allocates nothing.
///
/// ```swift
/// let gif = try DrawingPlayer(image: try GIFImage(contentsOf: path),
///                             configuration: PlayerConfiguration(loop: .forever))
/// gif.playhead.play()
/// // Each display refresh, with `elapsed` the host time since it started:
/// gif.advance(to: elapsed)
/// if let drawn = try gif.draw(into: buffer, bytesPerRow: bytesPerRow) {
///     // redraw `drawn.changedRect` of the buffer
/// }
/// ```
///
/// Costs: the first pass decodes each frame with giflib on the calling
/// thread (create and ``prepare()`` it where that is acceptable); from then
/// on, frames whose indices fit ``indexBudget`` are composited without
/// giflib, and frames that do not fit are decoded again, resuming from the
/// checkpoints ``checkpointBudget`` holds. No canvas is kept besides the
/// seeker's working one: the host's buffer is the picture. The default
/// budgets give indices the memory a `Player` spends on its frame cache.
///
/// Not `Sendable`: one thread owns it. The buffer must keep what the last
/// draw left; when the host's pixels are lost or replaced, call
/// ``invalidate()`` so that the next draw writes the whole canvas.
public final class DrawingPlayer {
    /// The default budget for stored frame indices: 48 MiB, what a
    /// `Player` spends on frame cache and indices together (32 + 16 MiB),
    /// since this player keeps no canvases.
    public static let defaultIndexBudget = 48 << 20

    /// The position and the policies: play, pause, seek, rate and reduced
    /// motion are the playhead's own methods. Moving it draws nothing; the
    /// next ``draw(into:bytesPerRow:)`` does.
    public var playhead: Playhead

    /// The image played.
    public var image: GIFImage { seeker.image }

    /// The canvas width in pixels: each row drawn is `width × 4` bytes.
    public var width: Int { image.info.canvasSize.width }

    /// The canvas height in pixels: the rows drawn.
    public var height: Int { image.info.canvasSize.height }

    /// The layout of the pixels drawn.
    public var pixelFormat: PixelFormat { seeker.pixelFormat }

    /// The most bytes of stored frame indices.
    public var indexBudget: Int { seeker.indexBudget }

    /// The most bytes of checkpoints.
    public var checkpointBudget: Int { seeker.memoryBudget }

    /// The bytes of stored indices and checkpoints held now.
    public var decodingStateBytes: Int { seeker.decodingStateBytes }

    /// The frames giflib has decoded so far: in a steady loop over a GIF
    /// whose indices fit ``indexBudget`` it stops growing.
    public var decodeCount: Int { seeker.decodeCount }

    /// The frame the host's buffer holds, as far as this player knows:
    /// `nil` before the first draw and after ``invalidate()``.
    public private(set) var drawnFrame: Int?

    private var seeker: FrameSeeker

    /// The most frames one draw composites one after another, writing each
    /// one's changed rectangle, when the playhead moved on by more than one
    /// frame since the last draw (a host slower than the GIF). Beyond it the
    /// draw writes the whole canvas once.
    static let maximumSteppedFrames = 8

    /// A player of `image`, showing frame 0 of its play order, idle (or
    /// playing, with `PlayerConfiguration.autoplay`), nothing drawn yet.
    /// - Parameters:
    ///   - image: The GIF.
    ///   - configuration: The playback policies.
    ///   - indexBudget: The most bytes of stored palette indices (one a
    ///     pixel of each frame's own rectangle; 0 decodes every frame every
    ///     time). Negative counts as 0.
    ///   - checkpointBudget: The most bytes of checkpoints (about a canvas,
    ///     `width × height × 4`, each), which bound how far back a seek or
    ///     a frame whose indices did not fit resumes decoding.
    ///   - pixelFormat: The layout drawn.
    ///   - now: The host time at creation.
    ///   - epoch: A shared epoch on the host's time axis, or `nil` (see
    ///     `Playhead`).
    /// - Throws: `PlayerError.emptySource` for a GIF without frames, or
    ///   `PlayerError.invalidRate(_:)`.
    public init(
        image: GIFImage, configuration: PlayerConfiguration = .init(), indexBudget: Int = DrawingPlayer.defaultIndexBudget,
        checkpointBudget: Int = GIFFrameSource.defaultCheckpointBudget, pixelFormat: PixelFormat = .rgba8,
        now: Duration = .zero, epoch: Duration? = nil
    ) throws(PlayerError) {
        let timing = FrameSourceTiming(
            frameDelays: image.info.frames.map(\.delay), storedLoopCount: image.info.loopCount.stored)
        let timeline = try PlaybackTimeline(timing: timing, configuration: configuration)
        playhead = try Playhead(timeline: timeline, configuration: configuration, now: now, epoch: epoch)
        seeker = image.makeSeeker(memoryBudget: checkpointBudget, indexBudget: indexBudget, pixelFormat: pixelFormat)
    }

    /// Moves the ``playhead`` to host time `time` (see
    /// `Playhead.advance(to:)`).
    /// - Returns: The events on the way, in order.
    @discardableResult
    public func advance(to time: Duration) -> [PlayerEvent] {
        playhead.advance(to: time)
    }

    /// Decodes every frame once on the calling thread, storing indices and
    /// checkpoints as the budgets allow, so that later draws composite
    /// without giflib where the indices fit.
    /// - Throws: `GIFError` when a frame fails; what was decoded before
    ///   it is kept.
    public func prepare() throws(GIFError) {
        try seeker.prepare()
    }

    /// Forgets what the host's buffer holds: the next draw writes the whole
    /// canvas.
    public func invalidate() {
        drawnFrame = nil
    }

    /// Writes the frame the ``playhead`` shows into `buffer`, `bytesPerRow`
    /// bytes from one row's start to the next, in ``pixelFormat``, when the
    /// buffer does not hold it already.
    ///
    /// The buffer is taken to hold ``drawnFrame``. When the frame shown is
    /// the next one in the file (or up to eight frames on), only the
    /// changed rectangles are written; otherwise (the first draw, a loop
    /// starting again, a seek, a reversed direction) the whole canvas is.
    /// Bytes past `width × 4` in each row are never touched.
    ///
    /// - Returns: The frame written, with the part of the buffer written as
    ///   its `FrameCopy.changedRect` (empty when the frame equals the one
    ///   before it); `nil` when the buffer already held the frame shown.
    /// - Throws: `GIFError` with
    ///   `GIFError.Kind.rowStrideTooSmall(bytesPerRow:minimum:)` or
    ///   `GIFError.Kind.bufferTooSmall(byteCount:needed:)` before anything
    ///   is decoded or written, or the decoding error of a frame on the way.
    ///   After an error the buffer is taken to hold an unknown frame, so the
    ///   next draw writes the whole canvas.
    public func draw(into buffer: UnsafeMutableRawBufferPointer, bytesPerRow: Int) throws(GIFError) -> FrameCopy? {
        let frame = playhead.currentFrame
        guard frame != drawnFrame else { return nil }
        let previous = drawnFrame
        drawnFrame = nil
        if let previous, previous < frame, frame - previous <= Self.maximumSteppedFrames {
            var written: FrameRect?
            var last = FrameCopy(index: frame, changedRect: FrameRect(x: 0, y: 0, width: 0, height: 0), isComplete: true)
            for index in previous + 1...frame {
                last = try seeker.copyFrame(at: index, into: buffer, bytesPerRow: bytesPerRow, onlyChanged: true)
                written = written.map { $0.union(last.changedRect) } ?? last.changedRect
            }
            drawnFrame = frame
            last.changedRect = written ?? last.changedRect
            return last
        }
        var copy = try seeker.copyFrame(at: frame, into: buffer, bytesPerRow: bytesPerRow)
        copy.changedRect = FrameRect(x: 0, y: 0, width: width, height: height)
        drawnFrame = frame
        return copy
    }
}
