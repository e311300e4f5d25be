/// A format-agnostic supply of animation frames that a ``Player`` can play.
///
/// The player itself needs only the timing facts (``frameCount``,
/// ``frameDelays``, ``storedLoopCount``); pixels are fetched through a
/// ``FrameCache`` with ``frame(at:)``. A GIF decoder conforms to this protocol
/// in a glue file outside this module, so `Playback` never depends on a
/// particular image format.
///
/// Conformers must be `Sendable`: the frame cache calls ``frame(at:)`` from a
/// background task while the host reads the timing properties elsewhere.
/// The core is the count, the timing and one frame request; a source that
/// keeps state to decode faster, or can draw into recycled memory, opts
/// into ``BudgetedFrameSource`` as well.
public protocol FrameSource: Sendable {
    /// The number of frames (for a ``ProgressiveFrameSource``: those available
    /// so far); the player refuses a source with none.
    var frameCount: Int { get }

    /// The canvas width in pixels; every ``RenderedFrame`` has this width.
    var canvasWidth: Int { get }

    /// The canvas height in pixels; every ``RenderedFrame`` has this height.
    var canvasHeight: Int { get }

    /// Each frame's delay exactly as stored (for GIF: centiseconds, so
    /// `.milliseconds(10 * cs)`), one per frame, with no browser rule applied.
    ///
    /// The ``DelayPolicy`` in the player's configuration turns these raw
    /// values into display durations.
    var frameDelays: [Duration] { get }

    /// The loop count as stored in the file, in the file's own terms.
    ///
    /// - `nil`: the file has no loop extension (browsers play it once).
    /// - `0`: loop forever.
    /// - `n > 0`: browsers play the animation `n + 1` times in all.
    ///
    /// ``LoopPolicy/fromSource`` applies these rules.
    var storedLoopCount: Int? { get }

    /// Returns frame `index` composited onto the full canvas, in
    /// ``pixelFormat``.
    ///
    /// Conformers may decode on demand; the ``FrameCache`` calls this ahead of
    /// time from a background task and keeps results within its byte budget.
    /// - Parameter index: A frame index in `0..<frameCount`.
    /// - Throws: Whatever the underlying decoder reports (for example a
    ///   truncated file); the cache passes the error through.
    func frame(at index: Int) async throws -> RenderedFrame

    /// A source with the same frames and timing whose frames are the
    /// canvas as `size` shows it (resampled from the full-size canvas and
    /// cropped, see ``DisplaySize``), reporting that frame size as its
    /// canvas. A cache over it holds only the frames the cell shows.
    ///
    /// The default implementation wraps the source in a `ScaledFrameSource`
    /// (a ``ProgressiveFrameSource`` stays one), or returns the source itself
    /// when `size` shows its canvas as it is. A conformer that composites frames
    /// itself (the GIF glue) returns a source that scales as it composites,
    /// into memory the cache hands back.
    /// - Parameter size: The cell the host draws in.
    func displaying(at size: DisplaySize) -> any FrameSource

    /// How the source's frames lay out their pixels
    /// (``RenderedFrame/pixelFormat``), the same for every frame. The
    /// default implementation returns `PixelFormat.rgba8`.
    var pixelFormat: PixelFormat { get }

    /// Whether every frame is there: `true` for a file read whole; `false`
    /// while a ``ProgressiveFrameSource`` still expects frames. The default
    /// implementation returns `true`.
    var isComplete: Bool { get }

    /// ``frameDelays``, ``storedLoopCount`` and ``isComplete`` read together,
    /// consistent with each other even while frames arrive. The default
    /// implementation reads the three properties (a fixed source's values do
    /// not change between the reads).
    var timing: FrameSourceTiming { get }

    /// A drawer of this source's frames into a host's buffer, for one
    /// player (see ``FrameDrawer``), or `nil` when the source cannot draw
    /// without waiting for a decode; a ``Player`` then draws from its
    /// ``FrameCache``. `decoded` is called (on a thread of the source's,
    /// never one that draws) after each frame the source decodes ahead for
    /// its drawers and after draws grew what the drawers hold, so that a
    /// shared ``FrameMemoryBudget`` counts the state stored: a budget asked
    /// there may trim other sources, which must not hold up a draw. The
    /// default implementation returns `nil`.
    /// - Parameter decoded: Called after each decode-ahead and each growth
    ///   of the drawers' state, or `nil`.
    func makeDrawer(notifying decoded: (@Sendable () -> Void)?) -> (any FrameDrawer)?
}

extension FrameSource {
    /// The source itself when `size` shows its canvas as it is, else a
    /// ``ScaledFrameSource`` over it.
    /// - Parameter size: The cell the host draws in.
    public func displaying(at size: DisplaySize) -> any FrameSource {
        ScaledFrameSource.wrapping(self, at: size)
    }

    /// `nil`: a source that does not say otherwise is drawn from a
    /// ``FrameCache``.
    /// - Parameter decoded: Ignored.
    public func makeDrawer(notifying decoded: (@Sendable () -> Void)?) -> (any FrameDrawer)? { nil }

    /// `PixelFormat.rgba8`: a source that does not say otherwise gives
    /// RGBA frames.
    public var pixelFormat: PixelFormat { .rgba8 }

    /// `true`: a source that does not say otherwise has all its frames.
    public var isComplete: Bool { true }

    /// The delays, the stored loop count and ``isComplete``, read in turn.
    public var timing: FrameSourceTiming {
        FrameSourceTiming(frameDelays: frameDelays, storedLoopCount: storedLoopCount, isComplete: isComplete)
    }
}

/// A ``FrameSource`` that takes part in memory management: it draws frames
/// into memory its ``FrameCache`` recycles, orders queued decodes by urgency,
/// and reports and gives back what it keeps to make later frames cheaper
/// (its decoding state), which a shared ``FrameMemoryBudget`` counts with
/// the frames. A source that does not conform is asked for frames with
/// ``FrameSource/frame(at:)`` alone and counts as holding no state.
///
/// The budget never calls these with its lock held, so a conformer may call
/// the budget from them.
public protocol BudgetedFrameSource: FrameSource {
    /// Returns frame `index` like ``FrameSource/frame(at:)``, drawing into `storage`'s
    /// memory when it can: the ``FrameCache`` hands over the pixels of the
    /// frame it evicts to make room, so that a warm cache cycling through an
    /// animation allocates nothing per frame.
    ///
    /// `storage` is either empty or a whole canvas of an earlier frame that
    /// nobody else holds. The default implementation ignores it and calls
    /// ``FrameSource/frame(at:)``.
    /// - Parameters:
    ///   - index: A frame index in `0..<frameCount`.
    ///   - storage: Pixel memory the result may reuse.
    func frame(at index: Int, reusing storage: consuming [UInt8]) async throws -> RenderedFrame

    /// Returns frame `index` like ``frame(at:reusing:)``, served before
    /// less urgent requests when decodes queue (see
    /// ``FrameRequestPriority``). A ``FrameCache`` calls this; a request
    /// whose task is cancelled before its decode starts may be dropped,
    /// throwing `CancellationError`. The default implementation ignores
    /// `priority` and calls ``frame(at:reusing:)``.
    /// - Parameters:
    ///   - index: A frame index in `0..<frameCount`.
    ///   - storage: Pixel memory the result may reuse.
    ///   - priority: How urgently the frame is wanted.
    func frame(
        at index: Int, reusing storage: consuming [UInt8], priority: FrameRequestPriority
    ) async throws -> RenderedFrame

    /// Drops what the source keeps only to make later frames cheaper (for a
    /// GIF: seek checkpoints, the canvas, the giflib handle); the next
    /// ``FrameSource/frame(at:)`` builds it again. A ``FrameCache`` calls this when it
    /// goes away, so a feed's sources that are not playing hold little more
    /// than their files. The default implementation does nothing.
    func releaseDecodingState()

    /// The bytes the source holds only to make later frames cheaper (seek
    /// checkpoints, a canvas, scratch pixels): what
    /// ``trimDecodingState(toBytes:)`` can give back. A shared
    /// ``FrameMemoryBudget`` counts these bytes with the frames of the
    /// caches it hands out, reading them after each decode. The default
    /// implementation returns 0.
    var decodingStateByteCount: Int { get }

    /// Gives back decoding state until at most `bytes` are held (see
    /// ``decodingStateByteCount``); the frames stay correct, later ones may
    /// cost more to decode. A ``FrameMemoryBudget`` calls this under memory
    /// pressure, frames of sources not playing first. The default
    /// implementation calls ``releaseDecodingState()`` when more than
    /// `bytes` are held.
    /// - Parameter bytes: The most bytes to keep (negative means 0).
    func trimDecodingState(toBytes bytes: Int)

    /// The part of ``decodingStateByteCount`` a source needs to go on
    /// playing at the cost of one frame per frame (for a GIF, its full-size
    /// working canvas and its decoder's buffers): below it, the next frame
    /// starts again from the beginning. A shared ``FrameMemoryBudget``
    /// trims the state of a source that is playing down to this, not
    /// below, unless nothing else is left to give. The default implementation returns 0.
    var workingStateByteCount: Int { get }
}

extension BudgetedFrameSource {
    /// Calls ``FrameSource/frame(at:)``: a conformer that cannot draw into given memory
    /// allocates each frame's pixels.
    /// - Parameters:
    ///   - index: A frame index in `0..<frameCount`.
    ///   - storage: Ignored.
    public func frame(at index: Int, reusing storage: consuming [UInt8]) async throws -> RenderedFrame {
        try await frame(at: index)
    }

    /// Calls ``frame(at:reusing:)``: a conformer without a queue of its own
    /// has nothing to order.
    /// - Parameters:
    ///   - index: A frame index in `0..<frameCount`.
    ///   - storage: Pixel memory the result may reuse.
    ///   - priority: Ignored.
    public func frame(
        at index: Int, reusing storage: consuming [UInt8], priority: FrameRequestPriority
    ) async throws -> RenderedFrame {
        try await frame(at: index, reusing: storage)
    }

    /// Does nothing: a source with no state beyond its frames.
    public func releaseDecodingState() {}

    /// 0: a source that does not say otherwise keeps no decoding state.
    public var decodingStateByteCount: Int { 0 }

    /// 0: a source that does not say otherwise needs no state to go on.
    public var workingStateByteCount: Int { 0 }

    /// Calls ``releaseDecodingState()`` when ``decodingStateByteCount`` is
    /// over `bytes`.
    /// - Parameter bytes: The most bytes to keep.
    public func trimDecodingState(toBytes bytes: Int) {
        if decodingStateByteCount > max(0, bytes) { releaseDecodingState() }
    }
}

extension FrameSource {
    /// Frame `index` as a cache asks for it: from `budgeted` (this source as
    /// a ``BudgetedFrameSource``, when it is one) into `storage` at
    /// `priority`, else with ``frame(at:)``.
    func frame(
        at index: Int, reusing storage: consuming [UInt8], priority: FrameRequestPriority,
        budgeted: (any BudgetedFrameSource)?
    ) async throws -> RenderedFrame {
        guard let budgeted else { return try await frame(at: index) }
        return try await budgeted.frame(at: index, reusing: storage, priority: priority)
    }
}
