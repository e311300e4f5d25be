/// What a ``FramePresenter`` composites a player's frames on: a working
/// canvas at the image's full size, in the presenter's pixel format, four
/// bytes a pixel, that a format's frames are composited onto one after
/// another (a GIF's `FrameSeeker` is one). The presenter decides what goes
/// to the host's buffer; the compositor only composites, writing each
/// change to the sinks it is given as well as to its canvas.
///
/// Used under the drawer's lock, by one thread at a time.
package protocol FrameCompositing {
    /// The frames of one loop.
    var frameCount: Int { get }
    /// The canvas's size, in pixels.
    var canvasSize: PixelSize { get }
    /// The frame the next composite step starts from: the frame
    /// composited last, plus one (0 before any).
    var position: Int { get }
    /// Where the canvas differs from frame 0's, when the compositor knows
    /// it (it followed every frame from frame 0), for a loop starting
    /// again to write only that.
    var changedSinceFirstFrame: PixelRect? { get }
    /// The bytes a loop's worth of stored input would take, as the frames
    /// stored so far take them (`Int.max` before any is stored): what
    /// recorded changes at a display size must stay within to be worth
    /// keeping.
    var projectedLoopInputBytes: Int { get }

    /// Whether every frame of `frames` composites whole, so that none
    /// can fail part-way (a failed draw leaves the host's buffer as it
    /// was, so a frame that might fail is not written straight into it).
    func compositesWhole(_ frames: ClosedRange<Int>) -> Bool

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
