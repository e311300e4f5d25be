import GIF
import Playback
import Synchronization

/// A GIF as a `Playback` frame source: the glue between the two modules.
///
/// Frames are decoded on demand by one `FrameSeeker` kept between calls:
/// asking for the frame after the last one asked for (what a player and its
/// cache do) costs one frame's decode, and a jump back resumes from the
/// nearest checkpoint the seeker saved on the way, within its memory budget.
///
/// Decodes run on a ``FrameDecodeExecutor``'s threads, never on Swift's
/// cooperative pool: a request is queued, the asking task is suspended
/// (holding no thread) and resumed with its frame. A source's requests run
/// one at a time, in the order asked; a lock guards only the queue and the
/// hand-over of the seeker, never a decode.
public final class GIFFrameSource: FrameSource, Sendable {
    /// The image the frames come from.
    public let image: GIFImage
    /// The threads this source's decodes run on.
    public let executor: FrameDecodeExecutor
    /// The largest frame handed out, or `nil` for full size.
    public let displaySize: DisplaySize?
    /// Scales the full-size canvas to the display size (`nil`: full size).
    private let filter: BoxFilter?
    private let checkpointBudget: Int
    private let state: Mutex<State>
    /// For a ``ProgressiveGIFFrameSource``: the image read furthest so far
    /// and its version, taken on by the seeker before each decode.
    private let latest: (@Sendable () -> (version: Int, image: GIFImage)?)?

    /// The default memory budget for seek checkpoints: 8 MiB, a few canvases
    /// of a typical GIF, so that nine sources in a feed stay small. The
    /// player's frame cache has its own budget.
    public static let defaultCheckpointBudget = 8 << 20

    /// Wraps an opened image; `checkpointBudget` bounds the canvases kept to
    /// make jumps back cheap, and `executor` runs the decodes.
    ///
    /// With a `displaySize`, frames are composited at full size on the
    /// seeker's canvas and box-filtered (`BoxFilter`) straight into the
    /// small frame the cache holds; the source then reports that size as
    /// its canvas.
    public init(
        image: GIFImage, checkpointBudget: Int = defaultCheckpointBudget, executor: FrameDecodeExecutor = .shared,
        displaySize: DisplaySize? = nil
    ) {
        self.image = image
        self.executor = executor
        self.checkpointBudget = checkpointBudget
        self.state = Mutex(State())
        self.latest = nil
        (self.displaySize, self.filter) = Self.scaling(image.info.canvasSize, to: displaySize)
    }

    /// The display size and the filter for a canvas: none when the canvas
    /// already fits.
    private static func scaling(_ canvas: PixelSize, to size: DisplaySize?) -> (DisplaySize?, BoxFilter?) {
        guard let size else { return (nil, nil) }
        let fitted = size.fitting(width: canvas.width, height: canvas.height)
        guard fitted.width != canvas.width || fitted.height != canvas.height else { return (size, nil) }
        return (size, BoxFilter(sourceWidth: canvas.width, sourceHeight: canvas.height,
                                width: fitted.width, height: fitted.height))
    }

    /// The decoding engine of a ``ProgressiveGIFFrameSource``: `image` is
    /// the first snapshot with its canvas known, and `latest` hands the
    /// newest one (the same bytes and frames, and more) to each decode.
    init(
        growing image: GIFImage, checkpointBudget: Int, executor: FrameDecodeExecutor,
        latest: @escaping @Sendable () -> (version: Int, image: GIFImage)?
    ) {
        self.image = image
        self.executor = executor
        self.checkpointBudget = checkpointBudget
        self.state = Mutex(State())
        self.latest = latest
        (self.displaySize, self.filter) = (nil, nil)
    }

    /// Opens and scans the GIF at `path`.
    public convenience init(contentsOf path: String, limits: DecodingLimits = .default) throws(GIFError) {
        self.init(image: try GIFImage(contentsOf: path, limits: limits))
    }

    /// The seek checkpoints held now (see `FrameSeeker`), for diagnostics:
    /// the count after the latest decode.
    public var checkpointCount: Int { state.withLock { $0.checkpointCount } }

    /// The number of frames the scan found.
    public var frameCount: Int { image.info.frameCount }
    /// The canvas width, after the first-frame growth rule; with a
    /// ``displaySize``, the width frames are scaled to.
    public var canvasWidth: Int { filter?.width ?? image.info.canvasSize.width }
    /// The canvas height, after the first-frame growth rule; with a
    /// ``displaySize``, the height frames are scaled to.
    public var canvasHeight: Int { filter?.height ?? image.info.canvasSize.height }
    /// The stored delays; the player applies its delay policy.
    public var frameDelays: [Duration] { image.info.frames.map(\.delay) }
    /// The stored loop count: `nil` without a loop extension, 0 forever.
    public var storedLoopCount: Int? { image.info.loopCount.stored }

    /// The composited frame at `index`, RGBA8.
    ///
    /// - Throws: `GIFError` when the frame cannot be decoded. A frame whose
    ///   data fails part-way is returned with the rows decoded.
    public func frame(at index: Int) async throws -> RenderedFrame {
        try await frame(at: index, reusing: [])
    }

    /// Drops the seek checkpoints and the decoder's canvas and giflib handle
    /// (the `FrameCache` reading this source went away); the next frame
    /// request starts again from frame 0 or a new checkpoint. A decode
    /// running now finishes, and its seeker is dropped after it.
    public func releaseDecodingState() {
        // The seeker leaves the lock before it is freed.
        let dropped = state.withLock { state -> Loan? in
            state.generation += 1
            state.checkpointCount = 0
            state.stateBytes = 0
            return state.idle.take()
        }
        _ = dropped
    }

    /// The bytes of the seeker kept between decodes: its checkpoints and its
    /// full-size canvas (display-size frames are scaled from it); 0 after ``releaseDecodingState()`` until the next decode.
    public var decodingStateByteCount: Int { state.withLock { $0.stateBytes } }

    /// Drops the whole decoding state (as ``releaseDecodingState()``) when it
    /// holds more than `bytes`: a seeker's checkpoints are kept or dropped
    /// together.
    /// - Parameter bytes: The most bytes to keep.
    public func trimDecodingState(toBytes bytes: Int) {
        if decodingStateByteCount > max(0, bytes) { releaseDecodingState() }
    }

    /// This GIF shown at `size`: a source over the same image that
    /// composites at full size and scales each frame as it decodes (itself
    /// when it already shows at `size`).
    /// - Parameter size: The largest frame the host draws.
    public func displaying(at size: DisplaySize) -> any FrameSource {
        if latest != nil { return ScaledFrameSource(base: self, displaySize: size) }
        if size == displaySize { return self }
        return GIFFrameSource(image: image, checkpointBudget: checkpointBudget, executor: executor, displaySize: size)
    }

    /// The composited frame at `index`, drawn into `storage` when it is a
    /// whole canvas nobody else holds (what a `FrameCache` hands back from
    /// an evicted frame), so steady playback allocates no pixels.
    ///
    /// The decode runs on ``executor``; the calling task waits suspended.
    /// When that task is cancelled before the decode has started, the
    /// request is dropped and this throws `CancellationError`; a decode that
    /// has started finishes.
    /// - Throws: As ``frame(at:)``, or `CancellationError`.
    public func frame(at index: Int, reusing storage: consuming [UInt8]) async throws -> RenderedFrame {
        var pixels = consume storage
        let id = state.withLock { state in
            state.lastRequestID += 1
            return state.lastRequestID
        }
        return try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { continuation in
                guard !Task.isCancelled else {
                    continuation.resume(throwing: CancellationError())
                    return
                }
                // Move the pixels into the queued request, so that it holds
                // the only reference and the decode draws into them without
                // a copy.
                var moved: [UInt8] = []
                swap(&moved, &pixels)
                var request: Request? = Request(id: id, index: index, pixels: moved, continuation: continuation)
                moved = []
                let schedule = state.withLock { state -> Bool in
                    if let request = request.take() { state.requests.append(request) }
                    defer { state.scheduled = true }
                    return !state.scheduled
                }
                if schedule { executor.enqueue(self) }
            }
        } onCancel: {
            let dropped = state.withLock { state -> Request? in
                guard let position = state.requests.firstIndex(where: { $0.id == id }) else { return nil }
                return state.requests.remove(at: position)
            }
            dropped?.continuation.resume(throwing: CancellationError())
        }
    }

    // MARK: Running requests on the executor

    /// One frame asked for, waiting for its decode.
    private struct Request: Sendable {
        /// Names the request for ``frame(at:reusing:)``'s cancellation.
        var id: Int
        var index: Int
        var pixels: [UInt8]
        var continuation: UnsafeContinuation<RenderedFrame, any Error>
    }

    /// The seeker between decodes. `@unchecked Sendable`: only the one
    /// decode running for this source uses it, and the ``state`` lock
    /// orders the hand-overs.
    private struct Loan: @unchecked Sendable {
        var seeker: FrameSeeker
        /// The ``State/generation`` it was made in.
        var generation: Int
        /// The version of the growing image the seeker holds (0: ``image``).
        var version = 0
        /// The bytes kept between decodes: the checkpoints and the canvas.
        var byteCount: Int {
            seeker.checkpointByteCount + seeker.image.info.canvasSize.area * 4
        }
    }

    private struct State: ~Copyable {
        /// Requests not yet run, in the order asked; storage reused.
        var requests: [Request] = []
        /// Whether the source is queued on, or running on, the executor.
        var scheduled = false
        /// The latest request's ``Request/id``.
        var lastRequestID = 0
        /// The seeker while no decode runs (`nil` also before the first
        /// decode and after a release).
        var idle: Loan?
        var checkpointCount = 0
        /// ``Loan/byteCount`` of the idle seeker after the latest decode.
        var stateBytes = 0
        /// Bumped by ``releaseDecodingState()``: an older seeker is dropped
        /// when its decode ends.
        var generation = 0
    }

    /// Runs the oldest request on the calling executor thread, then queues
    /// the source again if more are waiting.
    func runOneRequest() {
        var next: Request?
        var lent: Loan?
        var generation = 0
        state.withLock { state in
            guard !state.requests.isEmpty else {
                state.scheduled = false
                return
            }
            next = state.requests.removeFirst()
            lent = state.idle.take()
            generation = state.generation
        }
        guard var request = next.take() else { return }
        var loan = lent.take() ?? Loan(seeker: image.makeSeeker(memoryBudget: checkpointBudget), generation: generation)
        if let (version, grown) = latest?(), version != loan.version {
            loan.seeker.adopt(grown: grown)
            loan.version = version
        }
        let result: Result<RenderedFrame, any Error>
        do {
            if let filter {
                // Scaled straight from the seeker's canvas (the frame shares
                // it and is dropped before the next decode draws on it), so
                // no full-size copy is made or kept.
                let full = try loan.seeker.frame(at: request.index)
                filter.apply(full.pixels, into: &request.pixels)
            } else {
                _ = try loan.seeker.copyFrame(at: request.index, into: &request.pixels)
            }
            result = .success(
                RenderedFrame(index: request.index, width: canvasWidth, height: canvasHeight, pixels: request.pixels))
        } catch {
            result = .failure(error)
        }
        var returned: Loan? = loan
        let more = state.withLock { state -> Bool in
            if let loan = returned.take(), loan.generation == state.generation {
                state.checkpointCount = loan.seeker.checkpointCount
                state.stateBytes = loan.byteCount
                state.idle = loan
            }
            guard !state.requests.isEmpty else {
                state.scheduled = false
                return false
            }
            return true
        }
        request.continuation.resume(with: result)
        if more { executor.enqueue(self) }
    }
}
