/// Random access to a GIF's composited frames that costs a few frames'
/// decoding, not all the frames before the one asked for.
///
/// A GIF frame is drawn over what the frames before it left, so frame *n*
/// depends on frames 0…*n* − 1. As a seeker decodes forward it saves
/// checkpoints, the compositing state before every ``checkpointInterval``-th
/// frame, as many as `memoryBudget` holds; a later request resumes from the
/// nearest checkpoint at or before the frame (or from where the last request
/// left off, when that is nearer) and decodes at most
/// ``checkpointInterval`` frames. The first checkpoint an animation saves
/// is the canvas after frame 0 (when that frame is whole), so that a loop
/// starting again copies it back instead of compositing frame 0 again.
///
/// The first request for a frame past any checkpoint still decodes the
/// frames on the way, saving checkpoints as it goes; `prepare()` does that
/// for the whole file at once.
///
/// A seeker also keeps each decoded frame's palette indices (its own
/// rectangle, one byte a pixel, or compressed when the whole GIF's would
/// not fit), as many frames as `indexBudget` holds, taken in the order
/// they are first decoded. A frame held there is
/// composited again without giflib, about a tenth of a decode's cost, so a
/// player looping over a GIF whose indices fit decodes each frame once
/// (`decodeCount` stops growing after the first loop), and a seek resumes
/// from a checkpoint by compositing stored frames. The two budgets split a
/// seeker's memory: indices come first, as they save the most work per byte
/// (a whole frame's decode for at most a quarter of a canvas, and for a
/// small changed rectangle far less); checkpoints take what their own budget
/// allows and bound how far back a seek resumes.
///
/// ```swift
/// var seeker = image.makeSeeker()
/// let frame = try seeker.frame(at: 120)
/// show(frame.pixels, frame.size)
/// ```
public struct FrameSeeker {
    /// The image being decoded.
    public private(set) var image: GIFImage
    /// The most bytes the checkpoints may hold.
    package let memoryBudget: Int
    /// The most bytes of stored frame indices.
    package var indexBudget: Int { indices.budget }
    /// Frames between checkpoints: a request decodes at most this many.
    public let checkpointInterval: Int
    /// The layout of the canvases it returns.
    public var pixelFormat: PixelFormat { live.pixelFormat }
    /// Saved states, by the index of the frame they come before.
    private var checkpoints: [Int: FrameIterator] = [:]
    private var checkpointBytes = 0
    /// Where the last request left off.
    private var live: FrameIterator
    /// Where `live`'s canvas can differ from frame 0's: the union of the
    /// changed rectangles of the frames composited on it since it held
    /// frame 0, or `nil` when that is not known (before frame 0, after a
    /// resume from a later checkpoint, or after a frame failed).
    private var sinceFirstFrame: PixelRect?
    /// The index tier, shared by `live` (checkpoints copied from it hold
    /// the same reference, unused).
    private let indices: FrameIndexCache

    /// A seeker over `image` whose checkpoints hold at most
    /// `budget.checkpointBytes` (each holds about one canvas, width × height
    /// × 4 bytes) and whose stored frame indices hold at most
    /// `budget.indexBytes` (one a pixel of each frame's rectangle; 0 turns
    /// the index tier off), with canvases in `pixelFormat`. Negative budgets
    /// count as 0.
    public init(image: GIFImage, budget: DecodingBudget = .default, pixelFormat: PixelFormat = .rgba8) {
        self.init(
            image: image, memoryBudget: budget.checkpointBytes, sharing: FrameIndexCache(budget: budget.indexBytes, rawBytes: image.info.framePixelCount),
            pixelFormat: pixelFormat)
    }

    /// A seeker like ``init(image:budget:pixelFormat:)``
    /// whose stored indices live in `indices`, which other seekers of the
    /// same image (on other threads) read and fill too: a decoding seeker
    /// fills it ahead of the drawing seekers of the players of one GIF.
    package init(image: GIFImage, memoryBudget: Int, sharing indices: FrameIndexCache, pixelFormat: PixelFormat) {
        self.image = image
        self.memoryBudget = memoryBudget
        let canvasBytes = max(1, image.info.canvasSize.area * 4)
        let fitting = max(1, memoryBudget / canvasBytes)
        let frames = max(1, image.info.frameCount)
        // Rounded up without `frames + fitting`, which overflows for a
        // budget near `Int.max` over a canvas of no pixels.
        checkpointInterval = max(1, frames / fitting + (frames % fitting == 0 ? 0 : 1))
        self.indices = indices
        live = image.makeFrameIterator(pixelFormat: pixelFormat)
        live.indexCache = indices
    }

    /// The index tier this seeker stores frame indices in and reads them
    /// from (shared when made with ``init(image:memoryBudget:sharing:pixelFormat:)``).
    package var indexCache: FrameIndexCache { indices }

    /// The frame the next step forward composites: the one after the frame
    /// on the working canvas (0 before the first).
    ///
    /// Stored, kept equal to the working iterator's, like
    /// ``workingAndCheckpointBytes``: a presenter in another module reads
    /// them as fields before and after each draw, where a computed
    /// property's call would copy the whole seeker first.
    package private(set) var position = 0

    /// ``workingStateBytes`` + ``checkpointByteCount``, stored (see
    /// ``position``).
    package private(set) var workingAndCheckpointBytes = 0

    /// The first frame ``frame(at:)`` would have giflib decode on its way to
    /// frame `index` from where it stands now (its working canvas or a
    /// checkpoint), or `nil` when every frame on the way has its indices
    /// stored and the request only composites. A drawing seeker asks before
    /// each draw, so that it never decodes on the host's thread.
    package func firstFrameToDecode(reaching index: Int) -> Int? {
        guard image.info.frames.indices.contains(index) else { return nil }
        if index == 0, image.info.frameCount > 1, checkpoints.index(forKey: 1) != nil { return nil }
        let start: Int
        if live.nextIndex > index || live.nextIndex < nearestCheckpoint(atOrBefore: index) || live.hasEnded {
            start = nearestCheckpoint(atOrBefore: index)
        } else {
            start = live.nextIndex
        }
        return indices.firstMissing(in: start...index)
    }

    /// Where the working canvas, which holds frame ``position`` − 1, can
    /// differ from frame 0's canvas, or `nil` when that is not known. A
    /// host whose buffer holds frame ``position`` − 1 and that goes on to
    /// frame 0 (a loop starting again) needs to write only this rectangle:
    /// every pixel outside it is frame 0's.
    package var changedSinceFirstFrame: PixelRect? { sinceFirstFrame }

    /// The checkpoint a request for frame `index` resumes from (0: the
    /// start).
    private func nearestCheckpoint(atOrBefore index: Int) -> Int {
        stride(from: index / checkpointInterval * checkpointInterval, through: 0, by: -checkpointInterval)
            .first { $0 == 0 || checkpoints.index(forKey: $0) != nil } ?? 0
    }

    /// The number of checkpoints saved so far.
    @_spi(Benchmarks) public var checkpointCount: Int { checkpoints.count }
    /// The bytes the saved checkpoints hold now (at most ``memoryBudget``).
    package var checkpointByteCount: Int { checkpointBytes }
    /// The bytes of frame indices stored now (at most `indexBudget`).
    @_spi(Benchmarks) public var indexBytes: Int { indices.byteCount }
    /// The frames whose indices are stored now (for the benchmarks).
    @_spi(Benchmarks) public var indexedFrameCount: Int { indices.frameCount }
    /// The frames this seeker has had giflib decode so far. Frames drawn
    /// from stored indices do not count: in a steady loop over a GIF whose
    /// indices fit `indexBudget` it stops growing.
    @_spi(Benchmarks) public var decodeCount: Int { live.decodeCount }

    /// Whether the canvas after frame 0 is held (for tests): a loop
    /// starting again then copies it back instead of compositing frame 0.
    var holdsLoopStart: Bool { image.info.frameCount > 1 && checkpoints.index(forKey: 1) != nil }

    /// Whether frame `index`'s indices are held (for tests).
    func holdsIndices(ofFrame index: Int) -> Bool { indices.entry(index) != nil }

    /// The bytes of decoding state this seeker holds beyond its working
    /// state: checkpoints and stored indices.
    package var checkpointAndIndexBytes: Int { checkpointBytes + indices.byteCount }

    /// The bytes this seeker keeps to go on decoding, beyond
    /// ``checkpointAndIndexBytes``: the working canvas (and the area saved for a
    /// frame that restores what was under it), and the decoder's index
    /// buffer, code-check scratch and giflib handle. 0 before the first
    /// frame.
    package var workingStateBytes: Int { live.workingByteCount }

    /// Drops saved state until at most `bytes` of checkpoints and stored
    /// indices remain: checkpoints first, the furthest frame first, then
    /// the indices of the highest-numbered frames (a looping player gains
    /// most from the first frames kept). Later decodes may save checkpoints
    /// again, up to the checkpoint budget; the index store keeps no more
    /// than the trim left it, until it is emptied (see
    /// `FrameIndexCache.trim(toBytes:)`).
    package mutating func trim(toBytes bytes: Int) {
        let target = max(0, bytes)
        for index in checkpoints.keys.sorted(by: >) where checkpointAndIndexBytes > target {
            checkpointBytes -= checkpoints.removeValue(forKey: index)!.stateByteCount
        }
        if checkpointAndIndexBytes > target { indices.trim(toBytes: target - checkpointBytes) }
        noteState()
    }

    /// Stores ``position`` and ``workingAndCheckpointBytes`` after the
    /// working iterator or the checkpoints changed.
    private mutating func noteState() {
        position = live.nextIndex
        workingAndCheckpointBytes = live.workingByteCount + checkpointBytes
    }

    /// The composited frame at `index`.
    ///
    /// - Throws: ``GIFError`` when `index` is out of range, or when a frame
    ///   on the way to it fails (a frame that fails part-way is still
    ///   returned when it is the one asked for).
    public mutating func frame(at index: Int) throws(GIFError) -> CompositedFrame {
        try composite(at: index)
        return live.lastFrame!
    }

    /// Composites the frame at `index` on the working canvas, like
    /// ``frame(at:)`` but building no frame value: a host drawing small
    /// changed rectangles copies them from ``withCanvas(_:)``. Returns the
    /// frame's changed rectangle and whether its data was whole.
    ///
    /// - Throws: As ``frame(at:)``.
    @discardableResult
    package mutating func composite(at index: Int) throws(GIFError) -> FrameCopy {
        defer { noteState() }
        guard image.info.frames.indices.contains(index) else {
            throw GIFError(.frameOutOfRange(index, count: image.info.frameCount), frameIndex: index)
        }
        if index == 0, image.info.frameCount > 1, let afterFirst = checkpoints[1] {
            // A loop starting again: frame 0's canvas copied back, not
            // composited again, and only where the canvas moved away from it.
            live.restore(from: afterFirst, changedIn: sinceFirstFrame)
            sinceFirstFrame = PixelRect(x: 0, y: 0, width: 0, height: 0)
            return FrameCopy(index: index, changedRect: live.changedRect, isComplete: live.lastFrameIsComplete)
        }
        // An iterator that has thrown goes no further: decoding again from
        // before the frame reports that frame's own error, where waiting
        // for it to move would spin forever. The next frame (a player
        // stepping on) resumes from where it stands: no checkpoint lies
        // between.
        if live.nextIndex != index || live.hasEnded, case let nearest = nearestCheckpoint(atOrBefore: index),
           live.nextIndex > index || live.nextIndex < nearest || live.hasEnded {
            if nearest == 0 {
                live.rewind()
                sinceFirstFrame = nil
            } else {
                live.restore(from: checkpoints[nearest]!)
                sinceFirstFrame = nearest == 1 ? PixelRect(x: 0, y: 0, width: 0, height: 0) : nil
            }
        }
        // Unknown until each step succeeds: a frame that throws may have
        // changed the canvas.
        var tracked = sinceFirstFrame
        sinceFirstFrame = nil
        while live.nextIndex < index {
            saveCheckpoint()
            try live.skip(to: live.nextIndex + 1)
            tracked = Self.changedSinceFirstFrame(tracked, after: live.nextIndex, live.changedRect)
        }
        saveCheckpoint()
        guard let complete = try live.step() else {
            throw GIFError(.frameOutOfRange(index, count: image.info.frameCount), frameIndex: index)
        }
        sinceFirstFrame = Self.changedSinceFirstFrame(tracked, after: live.nextIndex, live.changedRect)
        if index == 0, image.info.frameCount > 1 { saveCheckpoint() }
        return FrameCopy(index: index, changedRect: live.changedRect, isComplete: complete)
    }

    /// Composites the frame at `index` like ``composite(at:)``, writing
    /// what it changes on the working canvas to `mirror` as well (a
    /// buffer of rows at least the canvas's width × 4 bytes, and at least
    /// as many as the canvas has: the caller checks): when the mirror held
    /// the working canvas before (the frame composited last), it then
    /// holds this one, with no copy of the changed rectangle; a checkpoint
    /// restored on the way is written to both. Returns whether every change
    /// went to the mirror: not when the seeker had to go back to before
    /// frame 0 to reach `index`, nor when the mirror's rows are not whole
    /// 32-bit words apart from a word-aligned start, which the compositor
    /// does not mirror into (copy the changed rectangle, or the canvas,
    /// then).
    ///
    /// - Throws: As ``frame(at:)``; the mirror may then hold part of a frame.
    package mutating func composite(
        at index: Int, mirroringInto mirror: CanvasMirror
    ) throws(GIFError) -> (copy: FrameCopy, whole: Bool) {
        live.setMirror(mirror)
        defer { live.setMirror(nil) }
        let copy = try composite(at: index)
        return (copy, live.mirrorIsWhole)
    }

    /// Composites the frame at `index` like ``composite(at:)``, noting row
    /// by row each change it makes to the working canvas in `changes`
    /// (see ``CanvasRowChanges``), whose rows the caller cleared. Returns
    /// whether every change was noted: not when the seeker started a
    /// canvas anew on the way to `index` (use the changed rectangle then).
    ///
    /// - Throws: As ``frame(at:)``.
    package mutating func composite(
        at index: Int, notingChangesIn changes: CanvasRowChanges
    ) throws(GIFError) -> (copy: FrameCopy, whole: Bool) {
        live.setRowChanges(changes)
        defer { live.setRowChanges(nil) }
        let copy = try composite(at: index)
        return (copy, live.notesRowChanges)
    }

    /// Calls `body` with the working canvas, which holds the frame
    /// composited last (``position`` − 1), in ``pixelFormat``.
    /// Not generic: called from another module, a generic one would run
    /// unspecialised, through value witnesses, on every draw. Mutating
    /// (it changes nothing) so that a caller holding the seeker in place
    /// passes it by address: a non-mutating call on a seeker reached
    /// through an `inout` copies the whole struct first.
    package mutating func withCanvas(_ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        live.canvas.withUnsafeBufferPointer(body)
    }

    /// Where the working canvas differs from frame 0's after it composited
    /// frame `nextIndex` − 1, which changed `changed`, from where it did
    /// before that frame. Given the iterator's fields, not the iterator:
    /// passing it copies it.
    private static func changedSinceFirstFrame(
        _ before: PixelRect?, after nextIndex: Int, _ changed: PixelRect
    ) -> PixelRect? {
        if nextIndex == 1 { return PixelRect(x: 0, y: 0, width: 0, height: 0) }
        return before?.union(changed)
    }

    /// Composites the frame at `index` like ``frame(at:)`` and writes it into
    /// memory the host owns (a bitmap context's, a texture upload buffer's),
    /// `bytesPerRow` bytes from one row's start to the next, in
    /// ``pixelFormat``. Row `y` of the canvas starts at byte
    /// `y × bytesPerRow`; the bytes past `width × 4` in each row, and every
    /// byte outside the rows written, are left as they were.
    ///
    /// With `onlyChanged`, only the frame's ``CompositedFrame/changedRect``
    /// is written: enough when `buffer` holds frame `index` − 1 (the host
    /// drew frames in order), and the rest of the canvas is untouched.
    /// Nothing is allocated per call once the seeker is warm.
    ///
    /// - Returns: The frame's changed rectangle and whether its data was
    ///   whole.
    /// - Throws: ``GIFError`` with ``GIFError/Kind/buffer(_:)`` holding
    ///   `PixelBufferError.rowStrideTooSmall(bytesPerRow:minimum:)` when
    ///   `bytesPerRow` is below `width × 4`, or
    ///   `PixelBufferError.bufferTooSmall(byteCount:needed:)` when `buffer`
    ///   cannot hold `height` rows, both before decoding anything; otherwise
    ///   as ``frame(at:)``.
    @discardableResult
    public mutating func copyFrame(
        at index: Int, into buffer: UnsafeMutableRawBufferPointer, bytesPerRow: Int, onlyChanged: Bool = false
    ) throws(GIFError) -> FrameCopy {
        let size = image.info.canvasSize
        let needed: Int
        do {
            needed = try PixelBufferError.check(
                width: size.width, height: size.height, bytesPerRow: bytesPerRow, bufferCount: buffer.count)
        } catch {
            throw GIFError(.buffer(error))
        }
        let copy = try composite(at: index)
        let area = onlyChanged ? copy.changedRect : PixelRect(x: 0, y: 0, width: size.width, height: size.height)
        if !area.isEmpty, needed > 0, let target = buffer.baseAddress {
            withCanvas { canvas in
                assert(((area.y + area.height - 1) * size.width + area.x + area.width) * 4 <= canvas.count)
                copyRows(
                    area.height, of: area.width * 4,
                    from: UnsafeRawPointer(canvas.baseAddress!) + (area.y * size.width + area.x) * 4,
                    stride: size.width * 4, to: target + area.y * bytesPerRow + area.x * 4, stride: bytesPerRow)
            }
        }
        return copy
    }

    /// Decodes the whole file once, saving every checkpoint the budget
    /// allows, so that every later ``frame(at:)`` costs at most
    /// ``checkpointInterval`` frames.
    ///
    /// - Throws: ``GIFError`` when a frame fails.
    @_spi(Benchmarks) public mutating func prepare() throws(GIFError) {
        guard image.info.frameCount > 0 else { return }
        _ = try frame(at: image.info.frameCount - 1)
    }

    /// Takes on `grown`, the same GIF read further (a ``ProgressiveGIF``'s
    /// ``ProgressiveGIF/image`` after more bytes came): its bytes start with
    /// this image's and its frames with this image's frames, so the saved
    /// checkpoints and the position stay valid. Stored indices of frames
    /// that failed or whose scan changed are dropped (more bytes may
    /// complete them). For GIFPlayback's frame
    /// source over bytes still arriving; `checkpointInterval` stays the one
    /// chosen for the frames known at creation.
    package mutating func adopt(grown: GIFImage) {
        indices.keepValid(old: image, grown: grown)
        image = grown
        live.image = grown
        for index in checkpoints.keys { checkpoints[index]!.image = grown }
    }

    /// Saves the state before frame `live.nextIndex` when that is a
    /// checkpoint's place (a multiple of ``checkpointInterval``, or 1 in an
    /// animation whose frame 0 is whole: the canvas after frame 0, which
    /// each loop starts from) and the budget has room.
    private mutating func saveCheckpoint() {
        let index = live.nextIndex
        // Frame 0 whole only: one cut short by bytes still arriving (a
        // progressive image) may be completed later.
        let loopStart = index == 1 && image.info.frameCount > 1 && live.lastFrameIsComplete
        guard index > 0, index % checkpointInterval == 0 || loopStart, checkpoints.index(forKey: index) == nil else { return }
        let checkpoint = live.checkpoint()
        let bytes = checkpoint.stateByteCount
        guard checkpointBytes + bytes <= memoryBudget else { return }
        checkpoints[index] = checkpoint
        checkpointBytes += bytes
    }
}
