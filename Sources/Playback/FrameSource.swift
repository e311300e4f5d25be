/// A format-agnostic supply of animation frames that a ``Player`` can play.
///
/// The player itself needs only the timing facts (``frameCount``,
/// ``timing``); pixels are fetched through a
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
    /// so far); the player refuses a source with none. A requirement apart
    /// from ``timing`` because a player reads it on every tick, where
    /// building the delays again would cost an array.
    var frameCount: Int { get }

    /// The canvas size in pixels; every ``RenderedFrame`` has this size
    /// (0 × 0 while a ``ProgressiveFrameSource`` has not read it yet). A
    /// requirement because only the source knows it; `canvasWidth` and
    /// `canvasHeight` read it.
    var canvasSize: PixelSize { get }

    /// The stored delays, the stored loop count and whether every frame is
    /// there, read together so that they agree even while frames arrive. A
    /// requirement because only the source knows them; `frameDelays`,
    /// `storedLoopCount` and `isComplete` read it.
    ///
    /// The delays are exactly as stored (for GIF: centiseconds, so
    /// `.milliseconds(10 * cs)`), one per frame, with no browser rule
    /// applied: the ``DelayPolicy`` in the player's configuration turns them
    /// into display durations. The loop count is in the file's own terms:
    /// `nil` without a loop extension (browsers play it once), `0` forever,
    /// `n > 0` for `n + 1` plays in all (``LoopPolicy/fromSource``).
    var timing: FrameSourceTiming { get }

    /// How the source's frames lay out their pixels
    /// (``RenderedFrame/pixelFormat``), the same for every frame. A
    /// requirement so that a source decoding straight into a host's layout
    /// says so; the default implementation returns `PixelFormat.rgba8`.
    var pixelFormat: PixelFormat { get }

    /// Returns frame `index` composited onto the full canvas, in
    /// ``pixelFormat``: the one way to get pixels from any source.
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
    /// canvas. A cache over it holds only the frames the cell shows. A
    /// requirement so that a source that composites frames itself (the GIF
    /// glue) scales as it composites, into memory the cache hands back.
    ///
    /// The default implementation wraps the source in one that resamples
    /// each frame (a ``ProgressiveFrameSource`` stays one), or returns the
    /// source itself when `size` shows its canvas as it is.
    /// - Parameter size: The cell the host draws in.
    func displaying(at size: DisplaySize) -> any FrameSource

    /// A drawer of this source's frames into a host's buffer, for one
    /// player (see ``FrameDrawer``), or `nil` when the source cannot draw
    /// without waiting for a decode; a ``Player`` then draws from its
    /// ``FrameCache``. A requirement so that a source that keeps what it
    /// needs to draw (the GIF glue's palette indices) draws without a cache.
    /// `decoded` is called (on a thread of the source's,
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
    /// The canvas width in pixels (``canvasSize``).
    package var canvasWidth: Int { canvasSize.width }

    /// The canvas height in pixels (``canvasSize``).
    package var canvasHeight: Int { canvasSize.height }

    /// Each frame's delay exactly as stored (``timing``).
    package var frameDelays: [Duration] { timing.frameDelays }

    /// The loop count as stored in the file (``timing``).
    package var storedLoopCount: Int? { timing.storedLoopCount }

    /// Whether every frame is there (``timing``): `true` for a file read
    /// whole; `false` while a ``ProgressiveFrameSource`` still expects frames.
    package var isComplete: Bool { timing.isComplete }

    /// The source itself when `size` shows its canvas as it is, else a
    /// source that resamples each of its frames.
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
    /// Returns frame `index` like ``FrameSource/frame(at:)``, drawing into
    /// `storage`'s memory when it can and served before less urgent
    /// requests when decodes queue (see ``FrameRequestPriority``). The one
    /// request a ``FrameCache`` makes: it hands over the pixels of the frame
    /// it evicts to make room, so that a warm cache cycling through an
    /// animation allocates nothing per frame. A request whose task is
    /// cancelled before its decode starts may be dropped, throwing
    /// `CancellationError`.
    ///
    /// `storage` is either empty or a whole canvas of an earlier frame that
    /// nobody else holds. The default implementation ignores `storage` and
    /// `priority` and calls ``FrameSource/frame(at:)``.
    /// - Parameters:
    ///   - index: A frame index in `0..<frameCount`.
    ///   - storage: Pixel memory the result may reuse.
    ///   - priority: How urgently the frame is wanted.
    func frame(
        at index: Int, reusing storage: consuming [UInt8], priority: FrameRequestPriority
    ) async throws -> RenderedFrame

    /// The bytes the source holds only to make later frames cheaper (seek
    /// checkpoints, a canvas, scratch pixels), and the part of them it
    /// needs to go on playing at one frame's cost, read together. A
    /// requirement because a shared ``FrameMemoryBudget`` counts these bytes
    /// with the frames of the caches it hands out, reading them after each
    /// decode, and trims a playing source down to the working part, not
    /// below. The default implementation returns ``DecodingStateBytes/none``.
    var decodingState: DecodingStateBytes { get }

    /// Gives back decoding state until at most `bytes` are held (see
    /// ``decodingState``); the frames stay correct, later ones may cost more
    /// to decode, and below the working part the next frame starts again
    /// from the beginning. A requirement because only the source knows what
    /// to drop first; a ``FrameMemoryBudget`` calls it under memory
    /// pressure, frames of sources not playing first, and a ``FrameCache``
    /// trims to 0 when it goes away (`releaseDecodingState()`), so a
    /// feed's sources that are not playing hold little more than their
    /// files. The default implementation does nothing.
    /// - Parameter bytes: The most bytes to keep (negative means 0).
    func trimDecodingState(toBytes bytes: Int)
}

/// What a ``BudgetedFrameSource`` holds to make later frames cheaper, in
/// bytes (``BudgetedFrameSource/decodingState``).
public struct DecodingStateBytes: Sendable, Hashable {
    /// All the decoding state: what ``BudgetedFrameSource/trimDecodingState(toBytes:)``
    /// can give back.
    public var total: Int

    /// The part of ``total`` needed to go on playing at the cost of one
    /// frame per frame (for a GIF, its full-size working canvas and its
    /// decoder's buffers).
    public var working: Int

    /// Creates a count.
    /// - Parameters:
    ///   - total: All the decoding state's bytes.
    ///   - working: The part of them needed to go on playing.
    public init(total: Int, working: Int) {
        self.total = total
        self.working = working
    }

    /// No decoding state.
    public static let none = DecodingStateBytes(total: 0, working: 0)
}

extension BudgetedFrameSource {
    /// Calls ``FrameSource/frame(at:)``: a conformer that cannot draw into
    /// given memory, and has no queue of its own, allocates each frame's
    /// pixels in the order asked.
    /// - Parameters:
    ///   - index: A frame index in `0..<frameCount`.
    ///   - storage: Ignored.
    ///   - priority: Ignored.
    public func frame(
        at index: Int, reusing storage: consuming [UInt8], priority: FrameRequestPriority
    ) async throws -> RenderedFrame {
        try await frame(at: index)
    }

    /// Frame `index` into `storage`'s memory, asked at
    /// ``FrameRequestPriority/background`` (as a direct call is).
    /// - Parameters:
    ///   - index: A frame index in `0..<frameCount`.
    ///   - storage: Pixel memory the result may reuse.
    package func frame(at index: Int, reusing storage: consuming [UInt8]) async throws -> RenderedFrame {
        try await frame(at: index, reusing: storage, priority: .background)
    }

    /// ``DecodingStateBytes/none``: a source that does not say otherwise
    /// keeps no decoding state.
    public var decodingState: DecodingStateBytes { .none }

    /// Does nothing: a source with no state beyond its frames.
    /// - Parameter bytes: Ignored.
    public func trimDecodingState(toBytes bytes: Int) {}

    /// All the decoding state's bytes (``decodingState``'s total).
    package var decodingStateByteCount: Int { decodingState.total }

    /// The part of the decoding state needed to go on playing
    /// (``decodingState``'s working part).
    package var workingStateByteCount: Int { decodingState.working }

    /// Drops all the decoding state: ``trimDecodingState(toBytes:)`` to 0.
    package func releaseDecodingState() { trimDecodingState(toBytes: 0) }
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
