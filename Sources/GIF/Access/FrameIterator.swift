import EngineSupport

/// Decodes and composites a GIF's frames in order, one at a time, in memory
/// proportional to the canvas.
///
/// When a frame's data fails part-way, ``next()`` first returns the frame with
/// the rows decoded so far (``CompositedFrame/isComplete`` is `false`), then
/// throws on the following call. A file cut short after its last whole frame
/// also throws, after that frame. A frame whose image data holds no pixels
/// at all (`FrameInfo.hasNoImageData`) is returned too, as the canvas it
/// leaves, and the error follows it. Once it has thrown or returned `nil`,
/// it returns `nil`.
///
/// An iterator reuses one giflib handle and its buffers from frame to frame.
/// A parallel one (``GIFImage/makeFrameIterator(parallel:pixelFormat:)``) also decodes
/// the frames after the current one on other threads while it composites.
/// Use one iterator from one thread at a time.
public struct FrameIterator {
    /// The image being decoded.
    public internal(set) var image: GIFImage
    /// The index of the frame the next call to ``next()`` returns.
    package private(set) var nextIndex = 0
    /// Whether frames are decoded ahead on other threads: asked for with
    /// ``GIFImage/makeFrameIterator(parallel:pixelFormat:)``, and worth it (more than one
    /// processor and frame, and 524,288 pixels or more in all).
    public var isParallel: Bool { ahead != nil }
    /// The layout of the canvases it returns (the colour order of a canvas
    /// over `background`).
    public let pixelFormat: PixelFormat
    /// The opaque colour transparent pixels show on a canvas of three bytes
    /// a pixel (``GIFImage/makeFrameIterator(parallel:background:)``); `nil`
    /// for four bytes a pixel in ``pixelFormat``.
    package let background: Palette.Color?
    /// The canvas state, once frame 0 began (``hasCompositor``); until
    /// then a shared empty one that holds no canvas. Not an optional: a
    /// field read through an optional copies the whole compositor,
    /// retaining and releasing its arrays, several times a frame.
    private var compositor = Self.noCompositor
    /// Whether ``compositor`` is this iterator's own, sized for the canvas.
    private var hasCompositor = false
    private var decoder: FrameDecoder?
    private var ahead: ParallelFrameDecoder?
    private var pendingError: GIFError?
    private var done = false
    /// The index tier a seeker lends: frames held there are drawn without
    /// decoding, and decoded frames are offered to it. `nil` for a plain or
    /// parallel iterator.
    var indexCache: FrameIndexCache?
    /// Where frames the index tier keeps as runs are read, a band at a time.
    private var indexBand: [UInt8] = []
    /// The frames this iterator has had giflib decode, on this thread or (for
    /// a parallel iterator) on the threads ahead. A frame drawn from a
    /// seeker's stored indices does not count, so a seeker looping over a
    /// GIF whose indices it holds shows no growth after the first loop.
    @_spi(Benchmarks) public private(set) var decodeCount = 0
    /// Whether each frame's ``CompositedFrame/changedRect`` is narrowed to
    /// the pixels a frame with a transparent index draws (a pass over its
    /// indices, a small share of a decode): `true`, unless the caller never
    /// reads the changed rectangle (the command's writers). Set before the
    /// first frame.
    package var narrowsChangedRect = true

    /// `forceParallel` decodes ahead whenever there are two or more frames,
    /// for tests.
    init(
        image: GIFImage, parallel: Bool = false, forceParallel: Bool = false, pixelFormat: PixelFormat = .rgba8,
        background: Palette.Color? = nil
    ) {
        self.image = image
        self.pixelFormat = background == nil ? pixelFormat : .rgba8
        self.background = background
        if forceParallel ? image.info.frameCount > 1 : parallel && Self.worthDecodingAhead(image.info) {
            ahead = ParallelFrameDecoder(image: image)
        }
    }

    /// Whether a parallel iterator over `info` decodes ahead: with two or more
    /// processors, two or more frames, and ``decodeAheadArea`` pixels or more.
    /// The processor count is asked last: on Linux it is a read of
    /// `/sys/devices/system/cpu/online` (an open, a read and a close), which
    /// a feed of single-frame GIFs need not pay for each iterator.
    static func worthDecodingAhead(_ info: GIFInfo) -> Bool {
        guard info.frameCount > 1 else { return false }
        return info.framePixelCount >= decodeAheadArea && WorkerThread.processorCount > 1
    }

    /// The fewest pixels decoded ahead: 16 batches of
    /// ``ParallelFrameDecoder/batchArea``. Starting a
    /// worker thread and handing it batches costs CPU time (its stack, its
    /// giflib handle, the wake-ups); below this a small animation spends
    /// more of it than a second core would save.
    static let decodeAheadArea = 16 * ParallelFrameDecoder.batchArea

    /// The next composited frame, or `nil` after the last.
    ///
    /// - Throws: ``GIFError`` naming the frame, the byte offset and how many
    ///   frames were decoded before it.
    public mutating func next() throws(GIFError) -> CompositedFrame? {
        // Built here rather than through `lastFrame`: through it (and its
        // copy of the compositor) large single-frame decodes run slower
        // (`BenchmarkReport --decode` on large-gif-checkerboard), most
        // likely a large canvas freed at another point and the next decode
        // faulting in fresh pages.
        guard let complete = try advance() else { return nil }
        return CompositedFrame(
            info: image.info.frames[nextIndex - 1], size: image.info.canvasSize, pixels: compositor.canvas, pixelFormat: pixelFormat,
            changedRect: compositor.changedRect, isComplete: complete, background: background)
    }

    /// The frame composited last, from the state held now (also after
    /// ``restore(from:)`` of a checkpoint taken right after that frame):
    /// incomplete when its error is pending. `nil` before frame 0.
    var lastFrame: CompositedFrame? {
        guard nextIndex > 0, hasCompositor else { return nil }
        return CompositedFrame(
            info: image.info.frames[nextIndex - 1], size: image.info.canvasSize, pixels: compositor.canvas,
            pixelFormat: pixelFormat, changedRect: compositor.changedRect, isComplete: pendingError == nil,
            background: background)
    }

    /// Whether the frame composited last was whole (its error is not
    /// pending); `false` before frame 0.
    var lastFrameIsComplete: Bool { nextIndex > 0 && pendingError == nil }

    /// Composites the next frame without building a frame value: whether
    /// its data was whole, or `nil` after the last frame. Throws as
    /// ``next()``; ``lastFrame`` and ``canvas`` then hold the frame.
    mutating func step() throws(GIFError) -> Bool? {
        try advance()
    }

    /// The working canvas, in ``pixelFormat`` (empty before frame 0).
    var canvas: [UInt8] { compositor.canvas }

    /// Writes what the next frames change on the canvas to `mirror` too
    /// (see ``Compositor/setMirror(_:)``); `nil` stops. Only a canvas that
    /// exists (after frame 0) is mirrored.
    mutating func setMirror(_ mirror: CanvasMirror?) {
        if hasCompositor { compositor.setMirror(mirror) }
    }

    /// Whether a mirror is set and every change to the canvas since was
    /// written to it.
    var mirrorIsWhole: Bool { hasCompositor && compositor.mirrorIsWhole }

    /// Notes each change the next frames make to the canvas in `changes`
    /// (see ``Compositor/rowChanges``); `nil` stops. Only a canvas
    /// that exists (after frame 0) has its changes noted.
    mutating func setRowChanges(_ changes: CanvasRowChanges?) {
        if hasCompositor { compositor.rowChanges = changes }
    }

    /// Whether changes are noted and every change to the canvas since they
    /// were set was: the compositor that noted them still draws (a
    /// checkpoint taken in its place notes nothing).
    var notesRowChanges: Bool { hasCompositor && compositor.rowChanges != nil }

    /// Composites frames up to, not including, `index`, without copying
    /// their canvases out.
    mutating func skip(to index: Int) throws(GIFError) {
        while nextIndex < index, try advance() != nil {}
    }

    /// Takes on `checkpoint`'s position and canvas, reusing this iterator's
    /// canvas storage and decoder (see ``Compositor/restore(from:changedIn:)``):
    /// when `region` is given, this iterator's canvas differs from the
    /// checkpoint's only inside it, and only that is copied.
    /// The decode count and index tier stay this iterator's own.
    mutating func restore(from checkpoint: FrameIterator, changedIn region: PixelRect? = nil) {
        nextIndex = checkpoint.nextIndex
        pendingError = checkpoint.pendingError
        done = checkpoint.done
        if checkpoint.hasCompositor, hasCompositor {
            compositor.restore(from: checkpoint.compositor, changedIn: region)
        } else {
            compositor = checkpoint.compositor
            hasCompositor = checkpoint.hasCompositor
        }
    }

    /// The part of the canvas the frame composited last changed (see
    /// ``CompositedFrame/changedRect``); empty before frame 0.
    var changedRect: PixelRect { compositor.changedRect }

    /// Goes back to before frame 0, keeping the canvas storage and the
    /// giflib handle, so that looping allocates nothing.
    mutating func rewind() {
        nextIndex = 0
        pendingError = nil
        done = false
        if hasCompositor { compositor.rewind() }
        if ahead != nil { ahead = ParallelFrameDecoder(image: image) }
    }

    /// Whether it has ended: after its last frame, or after it threw. It
    /// then returns `nil` until rewound.
    var hasEnded: Bool { done }

    /// A copy to keep as a checkpoint, holding no more than resuming needs.
    func checkpoint() -> FrameIterator {
        var copy = self
        if hasCompositor { copy.compositor = compositor.checkpoint() }
        return copy
    }

    /// The bytes this iterator's canvas state holds (for checkpoint budgets).
    var stateByteCount: Int { compositor.byteCount }

    /// The bytes this iterator holds to go on decoding: its canvas state
    /// (``stateByteCount``) and its decoder's buffers, kept between frames
    /// (see `FrameDecoder.byteCount`).
    var workingByteCount: Int { stateByteCount + (decoder?.byteCount ?? 0) }

    /// The compositor an iterator holds before its first frame: no canvas,
    /// no bytes, shared, so that making an iterator allocates no canvas.
    private static let noCompositor = Compositor(canvasSize: PixelSize(width: 0, height: 0))

    /// Composites the next frame: whether its data was whole, or `nil`
    /// after the last frame. The frame's information is left to the
    /// caller to read from the image when it needs it: a copy returned
    /// each frame costs retains and releases that a host drawing small
    /// frames pays for nothing.
    private mutating func advance() throws(GIFError) -> Bool? {
        guard !done else { return nil }
        if let error = pendingError ?? (nextIndex == image.info.frameCount ? finalError() : nil) {
            done = true
            throw error
        }
        guard nextIndex < image.info.frameCount else {
            done = true
            return nil
        }
        let frame = image.info.frames[nextIndex]
        if !hasCompositor {
            compositor = Compositor(canvasSize: image.info.canvasSize, format: pixelFormat, background: background)
            compositor.narrowsChanges = narrowsChangedRect
            hasCompositor = true
        }
        compositor.begin(frame, globalPalette: image.info.globalPalette)
        let outcome = decodeAndDraw(frame)
        compositor.end(frame, outcome: outcome)
        nextIndex += 1
        guard var failure = outcome.error(in: frame) else { return true }
        // A frame with no image data at all still counts: it is shown as the
        // canvas it leaves, and the error follows it, as browsers show it.
        let shown = outcome.decodedAnything || frame.hasNoImageData
        failure.framesDecoded = shown ? nextIndex : nextIndex - 1
        guard shown else {
            done = true
            throw failure
        }
        pendingError = failure
        return false
    }

    private func finalError() -> GIFError? {
        guard var error = image.info.error else { return nil }
        error.framesDecoded = nextIndex
        return error
    }

    /// Draws `frame` from the index tier when it holds the frame, else
    /// decodes it (ahead on other threads, or here) and offers the indices
    /// to the tier.
    private mutating func decodeAndDraw(_ frame: FrameInfo) -> FrameDecoder.Outcome {
        assert(indexCache == nil || ahead == nil, "the index tier is for sequential iterators only")
        if let indexCache, let outcome = indexCache.draw(frame, into: &compositor, band: &indexBand) {
            return outcome
        }
        decodeCount += 1
        if let ahead, let outcome = ahead.withFrame(frame.index, { indices, outcome in
            compositor.draw(frame, indices: indices, outcome: outcome)
            return outcome
        }) {
            return outcome
        }
        if decoder == nil { decoder = FrameDecoder() }
        let decoder = decoder!
        // Interlaced frames are never banded: tested here so that a frame
        // read from the file is not read for nothing and then again below.
        if indexCache == nil, !frame.isInterlaced, frame.rect.area >= FrameDecoder.bandedFramePixels,
           let outcome = decoder.withData(of: frame, in: image, { local, bytes -> FrameDecoder.Outcome? in
               decoder.decodeInBands(local, bytes: bytes) { rows, indices in
                   compositor.drawBand(frame, rows: rows, indices: indices)
               }
           }) {
            // A large frame whose indices are not kept: no buffer the size
            // of the frame, so its indices never leave the cache.
            return outcome
        }
        let outcome = decoder.withData(of: frame, in: image) { local, bytes in decoder.decode(local, bytes: bytes) }
        decoder.withIndices { indices in
            compositor.draw(frame, indices: indices, outcome: outcome)
            indexCache?.offer(frame, indices: indices, outcome: outcome, drawn: compositor.drawnBox)
        }
        return outcome
    }
}
