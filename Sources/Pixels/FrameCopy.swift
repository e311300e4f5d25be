/// What a compositor wrote for one frame: a seeker's copy into a host's
/// buffer, or a frame composited on a canvas.
public struct FrameCopy: Sendable, Hashable {
    /// The frame's position in the file, from 0.
    public var index: Int
    /// The part of the canvas where the frame can differ from frame
    /// `index` − 1: pixels outside it are as they were.
    public var changedRect: PixelRect
    /// `false` when the frame's data failed part-way: what was decoded
    /// of it is drawn, the rest of its rectangle is as it was.
    public var isComplete: Bool

    /// Creates a record of a copy.
    package init(index: Int, changedRect: PixelRect, isComplete: Bool) {
        self.index = index
        self.changedRect = changedRect
        self.isComplete = isComplete
    }
}
