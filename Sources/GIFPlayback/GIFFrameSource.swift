@_spi(Engine) import EngineSupport
@_spi(Benchmarks) import GIF
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
public final class GIFFrameSource: BudgetedFrameSource, FrameRequestDecoder, Sendable {
    /// The image the frames come from.
    public let image: GIFImage
    /// The threads this source's decodes run on.
    package let executor: FrameDecodeExecutor
    /// The layout of every frame's pixels, chosen at creation.
    public let pixelFormat: PixelFormat
    /// The cell the frames are made for, or `nil` for full size.
    public let displaySize: DisplaySize?
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
    /// The drawers' callbacks.
    let drawers = LockedState(Drawers())
    /// The drawers' working bytes (see ``GIFFrameDrawer``), changed by
    /// their draws without a lock.
    let drawerBytes = Atomic<Int>(0)
    /// How many drawers have a `decoded` callback (see
    /// ``makeDrawer(notifying:)``): a draw asks for no settling without one.
    let notifiedDrawers = Atomic<Int>(0)
    /// Whether a draw asked for the drawers' state to be settled with the
    /// budgets (``drawnStateGrew()``) and the settling has not started yet.
    let settleDue = Atomic<Bool>(false)
    /// The frames' stored palette indices, shared by this source's seeker,
    /// its decode-ahead for drawers and every drawer's seeker.
    let indices: FrameIndexCache
    /// For a ``ProgressiveGIFFrameSource``: the image read furthest so far
    /// and its version, taken on by the seeker before each decode.
    let latest: (@Sendable () -> (version: Int, image: GIFImage)?)?
    /// See ``indexRequestCount``.
    let indexRequests = Atomic<Int>(0)
    /// The frames giflib decoded at creation to choose the index tier.
    let probeDecodes: Int
    /// Each frame's changed pixels as the drawers drew them (scaled, at a
    /// display size), within the checkpoint budget (see
    /// ``FrameDeltaStore``).
    let deltas: FrameDeltaStore?

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
        (self.indices, self.probeDecodes) = Self.indexTier(of: image, budget: indexBudget, filter: filter)
        self.indexBudget = indices.budget
        // At full size the indices' unused share goes to seek checkpoints; a
        // display-size source is a cell of a feed, which plays forward, so
        // its share is left to the frames.
        self.checkpointBudget = budget.checkpointBytes + (self.filter == nil ? indexBudget - self.indexBudget : 0)
        self.scheduler = FrameDecodeScheduler(executor: executor)
        self.latest = nil
        self.deltas = frameCount > 1 ? FrameDeltaStore(frameCount: frameCount, limit: deltaBytes) : nil
    }

    /// The index tier of a source of `image` with `budget` bytes for
    /// indices, and the frames giflib decoded to choose it.
    ///
    /// Indices are kept only where they take fewer bytes than the frames
    /// they stand for: always at full size. At a display size, when the
    /// indices as they are take more bytes than the small frames (a large
    /// GIF in a small cell), what they would take is known only from
    /// decoded frames, as a whole frame mostly one index is kept as runs
    /// (often a hundredth of it). Frame 0 is decoded here (and kept when it
    /// fits) and its runs' bytes per byte of its LZW data stand for every
    /// frame's: when the file's frames would take fewer bytes so than the
    /// small frames, the tier keeps every frame that takes fewer bytes than
    /// its small frame, up to the small frames' bytes in all, and the
    /// player draws from the indices. Otherwise the tier keeps nothing
    /// for a player that fetches small frames: they are cheaper to keep
    /// (and cost nothing to show again). Once a drawer draws from the
    /// tier (``makeDrawer(notifying:)``), which keeps no small frames,
    /// either keeps every frame's indices up to the whole budget
    /// (`FrameIndexCache.serveDrawers()`), compressed where the GIF's raw
    /// indices would not fit it.
    private static func indexTier(of image: GIFImage, budget: Int, filter: BoxFilter?) -> (FrameIndexCache, Int) {
        // At a display size, indices kept as they are keep each row's
        // drawn pixels too, so that a draw scales each changed row's.
        let scaled = filter != nil
        let rowsNeed = scaled ? image.info.frames.reduce(0) { $0 + $1.rect.height } * FrameIndexCache.drawnRowBytes : 0
        let indexNeed = image.info.framePixelCount + rowsNeed
        let frameBytes = filter?.outputByteCount ?? image.info.canvasSize.area * 4
        let framesBytes = frameBytes * image.info.frameCount
        let tierBudget = min(budget, indexNeed)
        if indexNeed < framesBytes {
            return (FrameIndexCache(budget: tierBudget, keepsDrawnRows: scaled, rawBytes: indexNeed), 0)
        }
        guard scaled, budget > 0, let first = image.info.frames.first else { return (FrameIndexCache(budget: 0), 0) }
        // A drawer keeps no small frames: with one, every frame's indices
        // are kept, up to the budget (see `FrameIndexCache.serveDrawers()`).
        let keeps = FrameIndexCache(
            budget: tierBudget, keepsDrawnRows: true, rawBytes: indexNeed,
            undrawn: FrameIndexCache.Undrawn(budget: min(budget, framesBytes), largestEntry: frameBytes - 1))
        let decoder = FrameIndexDecoder()
        let runs = decoder.measureRuns(keeps, frame: 0, of: image)
        let encoded = image.info.frames.reduce(0) { $0 + max(0, $1.dataEnd - $1.dataOffset) }
        let estimate = runs.map { Double($0) * Double(encoded) / Double(max(1, first.dataEnd - first.dataOffset)) }
        let tier = estimate.map { $0 < Double(framesBytes) } ?? false ? keeps : FrameIndexCache(
            budget: tierBudget, keepsDrawnRows: true, rawBytes: indexNeed, undrawn: FrameIndexCache.Undrawn(budget: 0))
        return (tier, decoder.decodeCount)
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
        self.indices = FrameIndexCache(budget: self.indexBudget)
        self.probeDecodes = 0
        self.scheduler = FrameDecodeScheduler(executor: executor)
        self.latest = latest
        (self.displaySize, self.filter) = (nil, nil)
        self.deltas = nil
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
    @_spi(Benchmarks) public var decodeCount: Int { probeDecodes + scheduler.holdings.decodeCount }

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

    /// Drops the seek checkpoints, the frames' recorded changes (for good)
    /// and the decoder's canvas and giflib handle
    /// (the `FrameCache` reading this source went away); the next frame
    /// request starts again from frame 0 or a new checkpoint. A decode
    /// running now finishes, and its seeker is dropped after it.
    package func releaseDecodingState() {
        scheduler.release()
        indices.removeAll()
        dropRecordedChanges()
    }

    /// Drops the recorded changes for good and has every drawer let go of
    /// the set it holds (one waits for a draw in progress), so the memory
    /// is given back on return.
    private func dropRecordedChanges() {
        guard let deltas else { return }
        deltas.drop()
        for release in drawers.withLock({ Array($0.releases.values) }) { release() }
    }

    /// Registers drawer `id`'s letting go of the recorded changes it holds,
    /// called when they are dropped.
    func onRecordedChangesDropped(for id: Int, _ release: @escaping @Sendable () -> Void) {
        drawers.withLock { $0.releases[id] = release }
    }

    /// Drops the frames' recorded changes (for good: they are not recorded
    /// again), then seek checkpoints, then stored frame indices (the last
    /// frames first), until at most `bytes` of decoding state remain, for a
    /// memory budget shared across sources. Done now when no decode runs, else when
    /// the running decode ends. Later decodes may store again within this
    /// source's budgets.
    ///
    /// The working state (`workingStateByteCount`: the full-size canvas
    /// and the decoder's buffers, kept between decodes so that playing on
    /// costs one frame) counts in `decodingStateByteCount` too: asked for
    /// less than it, the source drops its whole decoding state, as
    /// `releaseDecodingState()` does, and the next frame starts again
    /// from frame 0.
    public func trimDecodingState(toBytes bytes: Int) {
        if let deltas, deltas.byteCount > 0, decodingStateByteCount > max(0, bytes) { dropRecordedChanges() }
        switch scheduler.trim(toBytes: bytes, besides: drawerBytes.load(ordering: .relaxed)) {
        case .trimmed:
            break
        case .noSeeker(let left):
            indices.trim(toBytes: left)
        case .belowWorkingState:
            if decodingStateByteCount > max(0, bytes) { releaseDecodingState() }
        }
    }

    /// The bytes of the seeker kept between decodes, for a shared memory
    /// budget: its stored indices, its checkpoints, the frames' recorded
    /// changes and its working state (`workingStateByteCount`); 0 after
    /// `releaseDecodingState()` until the next decode.
    package var decodingStateByteCount: Int {
        let holdings = scheduler.holdings
        return holdings.checkpointBytes + holdings.workingBytes + drawerBytes.load(ordering: .relaxed) + indices.byteCount
            + indices.passingByteCount + (deltas?.byteCount ?? 0)
    }

    /// What the seeker keeps between decodes so that playing on costs one
    /// frame (`FrameSeeker.workingStateBytes`): the full-size canvas
    /// (display-size frames are scaled from it) with the area saved for a
    /// frame that restores what was under it, and the decoder's buffers
    /// (the largest frame's indices so far, the code check's scratch,
    /// giflib's handle). It is the floor a shared budget trims a playing
    /// source's state to. 0 when no decoding state is held.
    package var workingStateByteCount: Int {
        scheduler.holdings.workingBytes + drawerBytes.load(ordering: .relaxed)
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

    // MARK: Decoding a request

    /// What the drawers want to hear.
    struct Drawers {
        /// The latest drawer's id.
        var lastID = 0
        /// Called after the decode-ahead stores a frame (see
        /// ``makeDrawer(notifying:)``).
        var decodedCallbacks: [Int: @Sendable () -> Void] = [:]
        /// Each drawer's letting go of the recorded changes it holds.
        var releases: [Int: @Sendable () -> Void] = [:]
    }

    func makeSeeker() -> FrameSeeker {
        FrameSeeker(image: image, memoryBudget: checkpointBudget, sharing: indices, pixelFormat: pixelFormat)
    }

    func decodeFrame(
        _ index: Int, into pixels: inout [UInt8], with loan: inout FrameDecodeScheduler.SeekerLoan
    ) -> Result<RenderedFrame, any Error> {
        if let (version, grown) = latest?(), version != loan.version {
            loan.seeker.adopt(grown: grown)
            loan.version = version
        }
        do {
            let changed: PixelRect
            if let filter {
                // Scaled straight from the seeker's canvas (the frame shares
                // it and is dropped before the next decode draws on it), so
                // no full-size copy is made or kept.
                let full = try loan.seeker.frame(at: index)
                filter.apply(full.pixels, into: &pixels, premultiplied: pixelFormat == .premultipliedBGRA8)
                changed = filter.outputRect(covering: full.changedRect)
            } else {
                let canvasBytes = image.info.canvasSize.area * 4
                if pixels.count != canvasBytes { pixels = [UInt8](repeating: 0, count: canvasBytes) }
                let copy = try pixels.withUnsafeMutableBytes { buffer throws(GIFError) in
                    try loan.seeker.copyFrame(at: index, into: buffer, bytesPerRow: canvasWidth * 4)
                }
                changed = copy.changedRect
            }
            return .success(
                RenderedFrame(
                    index: index, width: canvasWidth, height: canvasHeight, pixels: pixels,
                    pixelFormat: pixelFormat, changedRect: changed))
        } catch {
            return .failure(error)
        }
    }

    func decodeIndices(of index: Int, with decoder: FrameIndexDecoder) -> Bool {
        decoder.fill(indices, frame: index, of: image)
    }

    func indicesStored() {
        for callback in drawers.withLock({ $0.decodedCallbacks.values }) { callback() }
    }

    /// Whether every frame's recorded change is held, so that drawers
    /// stepping through a loop copy them (for tests).
    package var drawsFromRecordedChanges: Bool { recordedChangesObject != nil }

    /// The sealed set of recorded changes, as an object whose lifetime a
    /// test can watch (`nil` when none is held).
    package var recordedChangesObject: AnyObject? { deltas?.sealed }

    /// A draw changed what the drawers hold enough for a shared memory
    /// budget to count this source's state again: the recorded changes
    /// grew (see ``FrameDeltaStore/record(_:rect:of:bytesPerRow:rows:projectedWithin:)``),
    /// or a drawer's working bytes did. Called by the drawer with its lock
    /// released.
    ///
    /// The budget is not told here, on the drawing thread: counting may
    /// have it trim another source, whose drawers let go of their recorded
    /// changes under their own locks, so a draw would wait for another
    /// drawer's draw. The draw only sets a flag (an atomic exchange; the
    /// first since the last settling also queues it, one short lock), and
    /// the `decoded` callbacks run on this source's decode thread
    /// (``executor``), ahead of its queued decodes (see
    /// ``settleDrawnState()``). Until then the budget counts the state as
    /// it stood: it may be over its limit by what the draws added, for as
    /// long as the decode thread takes to get there. A source whose
    /// drawers have no callback (a ``DrawingPlayer``'s) asks for nothing.
    func drawnStateGrew() {
        guard notifiedDrawers.load(ordering: .relaxed) > 0, !settleDue.exchange(true, ordering: .acquiringAndReleasing)
        else { return }
        scheduler.settleDrawnState(decoder: self)
    }

    /// Tells the drawers' `decoded` callbacks (a shared memory budget
    /// counting this source) of the state the draws left, on the decode
    /// thread (see ``drawnStateGrew()``). The flag is cleared first, so a
    /// draw growing the state while the callbacks run asks again.
    func settleDrawnState() {
        settleDue.store(false, ordering: .releasing)
        indicesStored()
    }
}
