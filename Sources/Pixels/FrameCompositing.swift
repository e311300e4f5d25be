/// What a presenter (Playback's `FramePresenter`) composites a player's
/// frames on: a working canvas at the image's full size, four bytes a
/// pixel, that a format's frames are composited onto one after another
/// (a GIF's `FrameSeeker` is one). The presenter decides what goes to the
/// host's buffer; the compositor only composites, writing each change to
/// the sinks it is given (``CanvasMirror``, ``CanvasRowChanges``) as well
/// as to its canvas. Declared here, beside the sinks, so that a format
/// module conforms its compositor where it is defined, and a presenter
/// reads it without knowing the format.
///
/// Used under the drawer's lock, by one thread at a time. Every
/// requirement is `mutating`, reads too: a presenter holds the compositor
/// `inout`, and a non-mutating call on a generic value reached that way
/// copies the whole value first (a seeker's canvas, iterator and tables).
package protocol FrameCompositing {
    /// The frame the next composite step starts from: the frame
    /// composited last, plus one (0 before any).
    var position: Int { mutating get }
    /// Where the canvas differs from frame 0's, when the compositor knows
    /// it (it followed every frame from frame 0), for a loop starting
    /// again to write only that.
    var changedSinceFirstFrame: PixelRect? { mutating get }

    /// Whether every frame of `frames` composites whole, so that none
    /// can fail part-way (a failed draw leaves the host's buffer as it
    /// was, so a frame that might fail is not written straight into it).
    mutating func compositesWhole(_ frames: ClosedRange<Int>) -> Bool

    /// Composites frame `index` on the canvas.
    mutating func composite(at index: Int) throws -> FrameCopy

    /// Composites frame `index` like ``composite(at:)``, writing each
    /// change to `mirror` as well; returns whether every change since the
    /// mirror held the canvas went to it.
    mutating func composite(at index: Int, mirroringInto mirror: CanvasMirror) throws -> (copy: FrameCopy, whole: Bool)

    /// Composites frame `index` like ``composite(at:)``, noting each
    /// change row by row in `changes`; returns whether every change was
    /// noted.
    mutating func composite(at index: Int, notingChangesIn changes: CanvasRowChanges) throws
        -> (copy: FrameCopy, whole: Bool)

    /// Calls `body` with the canvas, which holds frame ``position`` − 1.
    mutating func withCanvas(_ body: (UnsafeBufferPointer<UInt8>) -> Void)
}
