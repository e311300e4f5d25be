/// A frame source's timing facts read at one moment, consistent with each
/// other: what a ``PlaybackTimeline`` is built from.
///
/// A fixed source's timing never changes. A ``ProgressiveFrameSource`` (a file
/// still downloading) hands out a new one each time frames arrive and when
/// the file completes; each new timing extends the one before it: the same
/// delays for the frames already known, maybe more frames, and, once
/// `isComplete`, the final loop count.
public struct FrameSourceTiming: Sendable, Hashable {
    /// Each available frame's delay exactly as stored, in frame order (see
    /// `frameDelays`).
    public var frameDelays: [Duration]

    /// The loop count stored so far (see `storedLoopCount`);
    /// final only once `isComplete`.
    public var storedLoopCount: Int?

    /// Whether every frame has arrived: no more will come, and
    /// `storedLoopCount` is final.
    public var isComplete: Bool

    /// Creates a timing.
    /// - Parameters:
    ///   - frameDelays: The stored delay of each frame available now.
    ///   - storedLoopCount: The stored loop count (`nil`: no extension yet).
    ///   - isComplete: Whether the source has all its frames.
    public init(frameDelays: [Duration], storedLoopCount: Int?, isComplete: Bool = true) {
        self.frameDelays = frameDelays
        self.storedLoopCount = storedLoopCount
        self.isComplete = isComplete
    }

    /// The number of frames available.
    public var frameCount: Int { frameDelays.count }
}
