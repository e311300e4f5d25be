import GIF
import Synchronization

/// The frames a ``GIFFrameSource``'s decode-ahead queues for its drawers'
/// requests, and how many requests they made.
final class DecodeAheadWindow: Sendable {
    /// The source's frame count.
    let frameCount: Int
    /// See ``requestCount``.
    private let requests = Atomic<Int>(0)

    /// A window over `frameCount` frames.
    init(frameCount: Int) {
        self.frameCount = frameCount
    }

    /// The requests for indices the drawers made so far (look-ahead and
    /// late draws, each a lock and a lookup even when every frame asked
    /// for is stored).
    var requestCount: Int { requests.load(ordering: .relaxed) }

    /// Counts a drawer's request, whether or not it queues anything.
    func countRequest() {
        requests.add(1, ordering: .relaxed)
    }

    /// The frames to queue for a request of `frames`: as asked when
    /// `urgent`, else widened (see ``widened(_:)``).
    func frames(for frames: [Int], urgent: Bool) -> [Int] {
        urgent ? frames : widened(frames)
    }

    /// Look-ahead `frames` (the frame shown, then the frames due next) and
    /// as many frames again past its last, in the direction it steps, up to
    /// as many frames in all as the index tier keeps past its budget (so
    /// that a GIF whose indices do not fit still finds the frame it shows
    /// among them): the next ticks then find their look-ahead held and ask
    /// for nothing, and the decode-ahead's thread wakes once for a window
    /// of frames rather than once a frame as the player moves on.
    func widened(_ frames: [Int]) -> [Int] {
        let count = frameCount
        let extra = min(frames.count - 1, FrameIndexCache.passingLimit - frames.count)
        guard frames.count >= 2, count > 1, extra > 0 else { return frames }
        let step = (frames[frames.count - 1] - frames[frames.count - 2] + count) % count
        guard step == 1 || step == count - 1 else { return frames }
        var wide = frames
        var frame = frames[frames.count - 1]
        for _ in 0..<extra {
            frame = (frame + step) % count
            wide.append(frame)
        }
        return wide
    }
}
