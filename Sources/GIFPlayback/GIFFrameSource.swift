import GIF
import Playback
import Synchronization

/// A GIF as a `Playback` frame source: the glue between the two modules.
///
/// Frames are decoded on demand by one ``FrameSeeker`` kept between calls:
/// asking for the frame after the last one asked for (what a player and its
/// cache do) costs one frame's decode, and a jump back resumes from the
/// nearest checkpoint the seeker saved on the way, within its memory budget.
///
/// One decode runs at a time. The seeker is lent to a request for its
/// decode and handed straight to the next request waiting, if any; a lock
/// guards only that hand-over, never a decode, and a waiting request is
/// suspended, so it holds no thread of Swift's cooperative pool meanwhile.
public final class GIFFrameSource: FrameSource, Sendable {
    /// The image the frames come from.
    public let image: GIFImage
    private let checkpointBudget: Int
    private let state: Mutex<State>

    /// The default memory budget for seek checkpoints: 8 MiB, a few canvases
    /// of a typical GIF, so that nine sources in a feed stay small. The
    /// player's frame cache has its own budget.
    public static let defaultCheckpointBudget = 8 << 20

    /// Wraps an opened image; `checkpointBudget` bounds the canvases kept to
    /// make jumps back cheap.
    public init(image: GIFImage, checkpointBudget: Int = defaultCheckpointBudget) {
        self.image = image
        self.checkpointBudget = checkpointBudget
        self.state = Mutex(State())
    }

    /// Opens and scans the GIF at `path`.
    public convenience init(contentsOf path: String, limits: DecodingLimits = .default) throws(GIFError) {
        self.init(image: try GIFImage(contentsOf: path, limits: limits))
    }

    /// The seek checkpoints held now (see ``FrameSeeker``), for diagnostics:
    /// while a decode runs, the count when it started.
    public var checkpointCount: Int { state.withLock { $0.checkpointCount } }

    /// The number of frames the scan found.
    public var frameCount: Int { image.info.frameCount }
    /// The canvas width, after the first-frame growth rule.
    public var canvasWidth: Int { image.info.canvasSize.width }
    /// The canvas height, after the first-frame growth rule.
    public var canvasHeight: Int { image.info.canvasSize.height }
    /// The stored delays; the player applies its delay policy.
    public var frameDelays: [Duration] { image.info.frames.map(\.delay) }
    /// The stored loop count: `nil` without a loop extension, 0 forever.
    public var storedLoopCount: Int? { image.info.loopCount.stored }

    /// The composited frame at `index`, RGBA8.
    ///
    /// - Throws: ``GIFError`` when the frame cannot be decoded. A frame whose
    ///   data fails part-way is returned with the rows decoded.
    public func frame(at index: Int) async throws -> RenderedFrame {
        try await frame(at: index, reusing: [])
    }

    /// Drops the seek checkpoints and the decoder's canvas and giflib handle
    /// (the ``FrameCache`` reading this source went away); the next frame
    /// request starts again from frame 0 or a new checkpoint. A decode
    /// running now finishes, and its seeker is dropped after it.
    public func releaseDecodingState() {
        state.withLock { state in
            state.generation += 1
            state.checkpointCount = 0
            state.idle = nil
        }
    }

    /// The composited frame at `index`, drawn into `storage` when it is a
    /// whole canvas nobody else holds (what a ``FrameCache`` hands back from
    /// an evicted frame), so steady playback allocates no pixels.
    ///
    /// - Throws: As ``frame(at:)``.
    public func frame(at index: Int, reusing storage: consuming [UInt8]) async throws -> RenderedFrame {
        var pixels = consume storage
        var loan = await borrowSeeker()
        defer { giveBack(loan) }
        _ = try loan.seeker.copyFrame(at: index, into: &pixels)
        return RenderedFrame(index: index, width: canvasWidth, height: canvasHeight, pixels: pixels)
    }

    // MARK: Lending the seeker

    /// The seeker, lent to one request at a time. `@unchecked Sendable`: a
    /// loan is only ever held by one request, and the ``state`` lock orders
    /// its hand-overs.
    private struct Loan: @unchecked Sendable {
        var seeker: FrameSeeker
        /// The ``State/generation`` it was lent in.
        var generation: Int
    }

    private struct State: ~Copyable {
        /// The seeker while no request holds it (`nil` also before the first
        /// request and after a release).
        var idle: Loan?
        /// Whether a request holds the seeker now.
        var lent = false
        /// Requests waiting for the seeker, first come first served; the
        /// array's storage is reused.
        var waiters: [UnsafeContinuation<Loan?, Never>] = []
        var checkpointCount = 0
        /// Bumped by ``releaseDecodingState()``: an older loan is dropped
        /// when it comes back.
        var generation = 0
    }

    /// Waits, suspended, until no other request holds the seeker, then takes
    /// it (a new one when there is none yet).
    private func borrowSeeker() async -> Loan {
        let handed = await withUnsafeContinuation { (continuation: UnsafeContinuation<Loan?, Never>) in
            let ready = state.withLock { state -> Loan?? in
                guard !state.lent else {
                    state.waiters.append(continuation)
                    return .none
                }
                state.lent = true
                return .some(state.idle.take())
            }
            if let ready { continuation.resume(returning: ready) }
        }
        if let handed { return handed }
        let generation = state.withLock { $0.generation }
        return Loan(seeker: image.makeSeeker(memoryBudget: checkpointBudget), generation: generation)
    }

    /// Hands the seeker to the next waiting request, or keeps it for later;
    /// one lent before a release is dropped instead.
    private func giveBack(_ loan: consuming Loan) {
        let (next, handed) = state.withLock { state -> (UnsafeContinuation<Loan?, Never>?, Loan?) in
            let current = loan.generation == state.generation
            if current { state.checkpointCount = loan.seeker.checkpointCount }
            let kept = current ? loan : nil
            guard !state.waiters.isEmpty else {
                state.idle = kept
                state.lent = false
                return (nil, nil)
            }
            return (state.waiters.removeFirst(), kept)
        }
        next?.resume(returning: handed)
    }
}
