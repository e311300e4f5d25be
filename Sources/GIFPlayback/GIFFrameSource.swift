import GIF
import Playback

/// A GIF as a `Playback` frame source: the glue between the two modules.
///
/// Frames are decoded on demand by one `FrameSeeker` kept between calls:
/// asking for the frame after the last one asked for (what a player and its
/// cache do) costs one frame's decode, and a jump back resumes from the
/// nearest checkpoint the seeker saved on the way, within its memory budget.
///
/// Decodes run on a ``FrameDecodeExecutor``'s threads, never on Swift's
/// cooperative pool: a request is queued in the source's
/// `FrameDecodeScheduler`, the asking task is suspended (holding no
/// thread) and resumed with its frame. A source's requests run one at a
/// time, the most urgent first (`FrameRequestPriority`: a frame a player
/// needs now, then look-ahead, then the rest) and otherwise in the order
/// asked; the scheduler keeps the seeker between them. This type is the
/// format side (a request decoded into a frame) and the memory accounting.
///
/// The seeker's memory is split in two budgets. The index budget comes
/// first: it keeps each decoded frame's palette indices (one byte a pixel of
/// the frame's own rectangle), so a looping player whose frame cache cannot
/// hold the whole animation re-composites frames from them instead of
/// decoding them again with giflib (compositing is about a tenth of a
/// decode). When the GIF's indices need less than the index budget, the
/// rest goes to the checkpoint budget. At a display size, indices are kept
/// only when they take fewer bytes than the small frames they stand for (a
/// 1000 × 175 GIF of busy frames in a 160-point cell keeps its 18 KB small
/// frames, not 175 KB of indices a frame; one whose frames are mostly one
/// index keeps them as runs of a few KB), and no unused share goes to
/// checkpoints: a cell plays forward. Checkpoints (whole canvases) bound
/// how far back a jump resumes. The composited canvases themselves stay in
/// the player's `FrameCache`.
///
/// The drawers that write into a host's buffer also record what each frame
/// changes (its changed rectangle as composited, and frame 0's where a
/// loop starting again changes it; at a display size, the scaled pixels
/// each row's change reaches) while they step through the first loop of
/// frames composited whole; later loops copy those pixels and composite
/// (and scale) nothing. They are kept within as many bytes again as the
/// `DecodingBudget`'s checkpoint bytes (a set that would take more is not
/// kept: a GIF whose every frame changes the whole canvas keeps its indices
/// alone), at a display size only while they take no more bytes than the
/// indices they let later loops do without (scaled pixels take four bytes
/// each, an index one, so a small shrink of a GIF that changes much keeps
/// its indices alone), and are the first thing a shared budget takes back.
/// So a source holds at most the `DecodingBudget`'s bytes of decoding
/// state, with the checkpoint bytes twice, plus its working state
/// (`workingStateByteCount`: the canvas and the decoder's buffers).
public final class GIFFrameSource: BudgetedFrameSource, FrameRequestDecoder, StateReservingSource, Sendable {
    /// The image the frames come from.
    package let image: GIFImage
    /// The threads this source's decodes run on.
    package let executor: FrameDecodeExecutor
    /// The layout of every frame's pixels, chosen at creation.
    public let pixelFormat: PixelFormat
    /// The cell the frames are made for, or `nil` for full size.
    package let displaySize: DisplaySize?
    /// Scales the full-size canvas to the display size (`nil`: full size).
    let filter: BoxFilter?
    let checkpointBudget: Int
    let indexBudget: Int
    /// The budget asked for at creation, before the split above: what a
    /// source for another display size starts from.
    let askedBudget: DecodingBudget
    /// The request queue and the seeker and decode-ahead decoder lent to
    /// the request that runs.
    let scheduler: FrameDecodeScheduler
    /// The drawers' ids, callbacks and working bytes (see
    /// ``makeDrawer(notifying:)`` and ``drawnStateGrew()``).
    let drawers = DrawerRegistry()
    /// The index tier: the frames' stored palette indices, shared by this
    /// source's seeker, its decode-ahead for drawers and every drawer's
    /// seeker.
    let tier: IndexTier
    /// The stored indices of the ``tier``.
    var indices: FrameIndexCache { tier.indices }
    /// For a ``ProgressiveGIFFrameSource``: the image read furthest so far
    /// and its version, taken on by the seeker before each decode.
    let latest: (@Sendable () -> (version: Int, image: GIFImage)?)?
    /// The frames the decode-ahead queues for the drawers' requests.
    let window: DecodeAheadWindow
    /// Each frame's changed pixels as the drawers drew them (scaled, at a
    /// display size), within the checkpoint budget (see
    /// ``FrameDeltaStore``).
    let deltas: FrameDeltaStore?
    /// What the stored indices and the recorded changes ask before they
    /// grow: the shared budget counting this source, once a cache over
    /// that budget connects it.
    package let stateAllowance = StateAllowance()
    /// The drawers' working state as the shared budget granted it before
    /// they held it, and a still's wait (see ``ensureWorkingRoom()``).
    package let workingRoom = WorkingRoom()
    /// The most bytes the decode-ahead's buffers take
    /// (`FrameIndexDecoder.byteBound(for:)`).
    let decoderBound: Int

    /// Wraps an opened image; `budget` bounds the canvases kept to make
    /// jumps back cheap (its checkpoints) and the frames' palette indices
    /// kept so that no frame is decoded twice (its indices; 0 turns that
    /// off), `executor` runs the decodes, and every frame comes in
    /// `pixelFormat` (applied through the colour table, at no cost per
    /// pixel). The player's frame cache has a budget of its own.
    ///
    /// With a `displaySize`, frames are composited at full size on the
    /// seeker's canvas and resampled (`BoxFilter`) straight into the
    /// frame the cache holds; the source then reports that frame's size as
    /// its canvas. When the GIF's indices as they are would take more
    /// bytes than its frames at that size, frame 0 is decoded here, on the
    /// calling thread, to see how small the indices keep (see the type's
    /// notes on the index budget).
    public convenience init(
        image: GIFImage, budget: DecodingBudget = .default,
        executor: FrameDecodeExecutor = .shared, pixelFormat: PixelFormat = .rgba8,
        displaySize: DisplaySize? = nil
    ) {
        self.init(image: image, budget: budget, executor: executor, pixelFormat: pixelFormat, displaySize: displaySize,
                  deltaBytes: max(0, budget.checkpointBytes))
    }

    /// A source as ``init(image:budget:executor:pixelFormat:displaySize:)``
    /// makes, keeping at most `deltaBytes` of the frames' recorded changes.
    init(
        image: GIFImage, budget: DecodingBudget, executor: FrameDecodeExecutor, pixelFormat: PixelFormat,
        displaySize: DisplaySize?, deltaBytes: Int
    ) {
        self.image = image
        self.frameCount = image.info.frameCount
        self.pixelFormat = pixelFormat
        self.executor = executor
        (self.displaySize, self.filter) = Self.scaling(image.info.canvasSize, to: displaySize)
        let indexBudget = max(0, budget.indexBytes)
        self.askedBudget = budget
        self.tier = IndexTier(of: image, budget: indexBudget, filter: filter)
        self.indexBudget = tier.indices.budget
        // At full size the indices' unused share goes to seek checkpoints; a
        // display-size source is a cell of a feed, which plays forward, so
        // its share is left to the frames.
        self.checkpointBudget = budget.checkpointBytes + (self.filter == nil ? indexBudget - self.indexBudget : 0)
        self.scheduler = FrameDecodeScheduler(executor: executor)
        self.window = DecodeAheadWindow(frameCount: frameCount)
        self.decoderBound = FrameIndexDecoder.byteBound(for: image)
        self.latest = nil
        self.deltas = frameCount > 1
            ? FrameDeltaStore(frameCount: frameCount, limit: deltaBytes, allowance: stateAllowance) : nil
        indices.admit { [stateAllowance] in stateAllowance.reserve($0) }
        indices.admitPassing { [weak self] in self?.passingGrew(by: $0) ?? true }
    }

    /// The display size and the filter for a canvas: none when the canvas
    /// is shown as it is.
    private static func scaling(_ canvas: PixelSize, to size: DisplaySize?) -> (DisplaySize?, BoxFilter?) {
        guard let size else { return (nil, nil) }
        guard !size.geometry(width: canvas.width, height: canvas.height).isIdentity else { return (size, nil) }
        return (size, BoxFilter(sourceWidth: canvas.width, sourceHeight: canvas.height, displaySize: size))
    }

    /// The decoding engine of a ``ProgressiveGIFFrameSource``: `image` is
    /// the first snapshot with its canvas known, and `latest` hands the
    /// newest one (the same bytes and frames, and more) to each decode.
    init(
        progressive image: GIFImage, budget: DecodingBudget,
        executor: FrameDecodeExecutor, latest: @escaping @Sendable () -> (version: Int, image: GIFImage)?
    ) {
        self.image = image
        self.frameCount = image.info.frameCount
        self.pixelFormat = .rgba8
        self.executor = executor
        self.checkpointBudget = budget.checkpointBytes
        self.indexBudget = max(0, budget.indexBytes)
        self.askedBudget = budget
        self.tier = IndexTier(progressiveBudget: self.indexBudget)
        self.scheduler = FrameDecodeScheduler(executor: executor)
        self.window = DecodeAheadWindow(frameCount: frameCount)
        self.decoderBound = FrameIndexDecoder.byteBound(for: image)
        self.latest = latest
        (self.displaySize, self.filter) = (nil, nil)
        self.deltas = nil
        indices.admit { [stateAllowance] in stateAllowance.reserve($0) }
        indices.admitPassing { [weak self] in self?.passingGrew(by: $0) ?? true }
    }

    /// Opens and scans the GIF at `path`, holding its bytes in memory; its
    /// frames come in `pixelFormat`.
    public convenience init(
        contentsOf path: String, limits: DecodingLimits = .default, pixelFormat: PixelFormat = .rgba8
    ) throws(GIFError) {
        self.init(image: try GIFImage(contentsOf: path, limits: limits), pixelFormat: pixelFormat)
    }

    /// Opens and scans the GIF at `path`, keeping the file open and reading
    /// each frame's data from it when the frame is decoded
    /// (`GIFImage(readingFramesFromFileAt:limits:)`): for a feed, where the
    /// encoded files would otherwise sit in memory beside the frame budget.
    /// Its frames come in `pixelFormat`.
    public convenience init(
        readingFramesFromFileAt path: String, limits: DecodingLimits = .default, pixelFormat: PixelFormat = .rgba8
    ) throws(GIFError) {
        self.init(image: try GIFImage(readingFramesFromFileAt: path, limits: limits), pixelFormat: pixelFormat)
    }

    /// The seek checkpoints held now (see `FrameSeeker`), for diagnostics:
    /// the count after the latest decode.
    package var checkpointCount: Int { scheduler.holdings.checkpointCount }

    /// The bytes of frame indices the seeker holds (see `FrameSeeker`), for
    /// diagnostics and memory accounting: the figure after the latest decode.
    @_spi(Benchmarks) public var indexBytes: Int { indices.byteCount }

    /// The bytes of checkpoints and stored indices (with those of frames
    /// handed over in passing) held after the latest decode: the decoding
    /// state beyond the working state (`workingStateByteCount`).
    package var checkpointAndIndexBytes: Int {
        scheduler.holdings.checkpointBytes + indices.byteCount + indices.passingByteCount
    }

    /// The frames giflib has decoded for this source so far, across
    /// releases. A player looping over a GIF whose indices fit the index
    /// budget sees it stop growing after the first loop.
    @_spi(Benchmarks) public var decodeCount: Int { tier.probeDecodes + scheduler.holdings.decodeCount }

    /// The number of frames the scan found (stored: a drawer and its
    /// player's ticks read it on every frame).
    public let frameCount: Int
    /// The canvas width, after the first-frame growth rule.
    package var canvasWidth: Int { filter?.width ?? image.info.canvasSize.width }
    /// The canvas height, after the first-frame growth rule.
    package var canvasHeight: Int { filter?.height ?? image.info.canvasSize.height }
    /// The stored delays; the player applies its delay policy.
    package var frameDelays: [Duration] { image.info.frames.map(\.delay) }
    /// The stored loop count: `nil` without a loop extension, 0 forever.
    package var storedLoopCount: Int? { image.info.loopCount.stored }

    /// The composited frame at `index`, in ``pixelFormat``.
    ///
    /// - Throws: `GIFError` when the frame cannot be decoded. A frame whose
    ///   data fails part-way is returned with the rows decoded.
    public func frame(at index: Int) async throws -> RenderedFrame {
        try await frame(at: index, reusing: [])
    }

    /// This GIF shown at `size`: a source over the same image that
    /// composites at full size and scales each frame as it decodes (itself
    /// when it already shows at `size`).
    /// - Parameter size: The cell the host draws in.
    public func displaying(at size: DisplaySize) -> any FrameSource {
        if latest != nil { return ScaledFrameSource(base: self, displaySize: size) }
        if size == displaySize { return self }
        return GIFFrameSource(
            image: image, budget: askedBudget, executor: executor, pixelFormat: pixelFormat, displaySize: size)
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
    package func frame(at index: Int, reusing storage: consuming [UInt8]) async throws -> RenderedFrame {
        try await frame(at: index, reusing: storage, priority: .background)
    }

    /// The composited frame at `index`, as `frame(at:reusing:)`, queued
    /// with `priority`: it runs before this source's less urgent requests,
    /// and this source goes before sources with only less urgent ones on
    /// the `executor`.
    /// - Throws: As ``frame(at:)``, or `CancellationError`.
    public func frame(
        at index: Int, reusing storage: consuming [UInt8], priority: FrameRequestPriority
    ) async throws -> RenderedFrame {
        try await scheduler.frame(at: index, reusing: storage, priority: priority, decoder: self)
    }
}
