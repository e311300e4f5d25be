/// The order in which one loop shows the frames.
///
/// A *loop* is one pass of the order below, and it is what the
/// ``LoopPolicy`` counts and ``PlayerEvent/loopCompleted(loopsDone:)``
/// reports.
public enum PlaybackDirection: Sendable, Hashable {
    /// Frames `0, 1, …, n-1`.
    case forward

    /// Frames `n-1, …, 1, 0`.
    case reverse

    /// Forward then back without repeating the end frames:
    /// `0, 1, …, n-1, n-2, …, 1`, so `2n - 2` steps per loop (a single frame
    /// gives `[0]`). The next loop starts again at frame 0, so frames 0 and
    /// `n-1` are each shown once per loop and the motion never stutters. When
    /// a finite count ends, frame 1 (the last step) stays shown; a host that
    /// wants to rest on frame 0 seeks there in its `finished` handler.
    case bounce

    /// The frame indices of one loop in play order, for `frameCount` frames.
    /// - Parameter frameCount: The number of frames in the source.
    package func playOrder(frameCount: Int) -> [Int] {
        guard frameCount > 0 else { return [] }
        switch self {
        case .forward:
            return Array(0..<frameCount)
        case .reverse:
            return Array((0..<frameCount).reversed())
        case .bounce:
            guard frameCount > 2 else { return Array(0..<frameCount) }
            return Array(0..<frameCount) + Array((1..<(frameCount - 1)).reversed())
        }
    }
}
