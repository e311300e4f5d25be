/// Draws one player's frames into memory the host owns, never waiting for a
/// decode: the drawing side of a ``FrameSource`` that can composite frames
/// from what it stored (a GIF's palette indices) on the calling thread.
///
/// A drawer remembers which frame the host's buffer holds, so a draw writes
/// only the rectangle that changed since and returns it. When a frame on
/// the way to the one asked for is not decoded yet, the draw writes nothing
/// and says so (``FrameDraw/late(frame:shown:)``); the source decodes it on threads of its
/// own, asked by ``prefetch(_:)`` and by the late draw itself, and a later
/// draw catches up.
///
/// ``Player/draw(into:bytesPerRow:)`` is the usual way in: it asks the drawer
/// for the frame its playhead shows. One drawer serves one buffer; a draw
/// made while another thread draws with the same drawer throws
/// `PixelBufferError.drawnConcurrently` instead of waiting.
public protocol FrameDrawer: AnyObject, Sendable {
    /// The width of the frames drawn, in pixels: the source's canvas, or
    /// the display size's.
    var width: Int { get }

    /// The height of the frames drawn, in pixels.
    var height: Int { get }

    /// The byte layout of the pixels drawn.
    var pixelFormat: PixelFormat { get }

    /// Writes frame `index` into `buffer` (rows `bytesPerRow` apart, each
    /// `width × 4` bytes written at most, the rest never touched), taking the
    /// buffer to hold the frame drawn last: only what changed since is
    /// written. Returns at once, without decoding.
    /// - Parameters:
    ///   - index: The frame to show.
    ///   - buffer: The host's pixels.
    ///   - bytesPerRow: The bytes from one row's start to the next.
    /// - Returns: What was written, or why nothing was.
    /// - Throws: `PixelBufferError` for a buffer that cannot hold the
    ///   frame, or a draw made while another is in progress; nothing is
    ///   written then.
    func draw(frame index: Int, into buffer: UnsafeMutableRawBufferPointer, bytesPerRow: Int) throws(PixelBufferError)
        -> FrameDraw

    /// Asks the source to decode `frames` (the frames due next, in play
    /// order) on its own threads, so that draws find them ready. Frames
    /// already held cost a lookup; nothing waits.
    /// - Parameter frames: Frame indices, most urgent first.
    func prefetch(_ frames: [Int])

    /// Whether ``prefetch(_:)`` can have anything to ask for: `false` when
    /// the source holds every frame already, and a player then skips
    /// working out the frames due next on each tick. It is read on every
    /// tick, so it should cost no more than a load; `true` by default.
    var needsPrefetch: Bool { get }

    /// Forgets what the host's buffer holds: the next draw writes the whole
    /// frame (the host lost its pixels, or swapped buffers).
    func invalidate()

    /// The bytes this drawer holds beyond the source's shared state: its
    /// working canvas and scratch.
    var byteCount: Int { get }
}

extension FrameDrawer {
    /// `true`: every tick hands ``prefetch(_:)`` the frames due next.
    public var needsPrefetch: Bool { true }
}

/// What one ``FrameDrawer/draw(frame:into:bytesPerRow:)`` did.
public enum FrameDraw: Sendable, Hashable {
    /// The buffer already held the frame: nothing was written.
    case unchanged(frame: Int)
    /// `frame` was written; only `changed` (in drawn pixels) can differ
    /// from what the buffer held before. `isComplete` is `false` when the
    /// frame's data failed part-way and the rows decoded are shown.
    case drawn(frame: Int, changed: PixelRect, isComplete: Bool)
    /// `frame` is not decoded yet: nothing was written, the buffer still
    /// holds `shown` (`nil`: nothing drawn yet), and the decode was asked
    /// for.
    case late(frame: Int, shown: Int?)
    /// `frame` cannot be drawn: the shared ``FrameMemoryBudget`` has no
    /// room for what drawing it needs (the source's working state: its
    /// canvases and decoder buffers), so the player shows `shown` as a
    /// still (`nil`: nothing drawn yet; a host shows a poster). Nothing was
    /// written and no decode was asked for; later draws ask the budget
    /// again, less and less often while it keeps refusing, and draw once
    /// it has room. A player counts the frame as skipped.
    case still(frame: Int, shown: Int?)
    /// `frame` (or one on the way to it) failed with nothing to show;
    /// the buffer still holds `shown`. `reason` says what failed.
    case failed(frame: Int, shown: Int?, reason: String)

    /// The frame the buffer holds after the draw, or `nil` when nothing
    /// has been drawn into it.
    public var shownFrame: Int? {
        switch self {
        case .unchanged(let frame), .drawn(let frame, _, _): frame
        case .late(_, let shown), .still(_, let shown), .failed(_, let shown, _): shown
        }
    }
}
