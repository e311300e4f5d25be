@_spi(Engine) import EngineSupport
@_spi(Benchmarks) import GIF
import Playback
import Synchronization

/// A ``GIFFrameSource``'s drawing side: one player's frames composited from
/// the palette indices the source stores, on the thread that draws, into
/// the host's buffer, with only the changed rectangle written (and, at a
/// display size, only that rectangle scaled: stepping on from the frame
/// shown, only each canvas row's changed stretch in it, as the seeker's
/// compositor notes them).
///
/// The drawer keeps a seeker of its own (a working canvas at full size and
/// the canvas after frame 0, so that a loop starting again copies it back)
/// that never runs giflib: before each draw it checks that every frame on
/// the way has its indices stored, and when one has not, it asks the
/// source's decode-ahead for it and reports the draw late. The indices are
/// shared by every drawer of the source (the players of one GIF in a
/// ``FrameCachePool`` read one source) and counted in its
/// `decodingStateByteCount`.
///
/// A draw takes this drawer's lock and no other drawer's, and never waits
/// on a shared memory budget: what it grows (the recorded changes, its
/// working bytes) it only notes to the source (``GIFFrameSource/drawnStateGrew()``),
/// which settles with the budget on its decode thread. A trim that budget
/// asks for there, or on a host's thread, takes this drawer's lock to let
/// go of the recorded changes, and so waits for a draw in progress; a draw
/// waits for none of that.
///
/// A ``DrawingPlayer``'s drawer decodes on the calling thread instead
/// (`decodesOnCallingThread`): a frame not stored yet is decoded by the
/// seeker there, and the draw is never late.
final class GIFFrameDrawer: FrameDrawer {
    let width: Int
    let height: Int
    let pixelFormat: PixelFormat
    let source: GIFFrameSource
    /// Names this drawer to its source.
    private let id: Int
    private let filter: BoxFilter?
    let state: LockedState<State>
    /// Whether a frame not stored yet is decoded here rather than asked for.
    private let decodesOnCallingThread: Bool
    /// The write branches a draw may take.
    private let branches: DrawBranches
    /// The most bytes this drawer's working state takes, counted before
    /// its first draw (``GIFFrameSource/drawerWorkingBound(checkpointBudget:)``).
    let workingBound: Int
    /// The checkpoint bytes its seeker is made with.
    let seekerBudget: Int
    /// Set while a draw runs: a second thread drawing at the same time is
    /// told so (`PixelBufferError.drawnConcurrently`), where anything else
    /// taking the lock (a count read, the source letting go of its
    /// recorded changes) only makes a draw wait.
    private let drawing = Atomic<Bool>(false)

    /// The most frames one draw composites one after another, writing
    /// their changed rectangles, when the player moved on by more than one
    /// frame since the last draw (a host slower than the GIF). Beyond it
    /// the draw writes the whole frame once.
    static let maximumSteppedFrames = 8

    /// Frames asked for past the one that is late, so that the decode-ahead
    /// keeps ahead once it caught up.
    static let lateLookahead = 4

    /// `@unchecked Sendable` for its seeker: a `FrameSeeker` is not (its
    /// iterator holds giflib's handle and buffers, shared by its copies);
    /// this one is used only with the ``state`` lock held, by one thread at
    /// a time, and only values (frames, counts) leave the lock. The other
    /// fields are `Sendable` values.
    struct State: @unchecked Sendable {
        var seeker: FrameSeeker
        /// The frame the host's buffer holds, as far as the drawer knows.
        var drawn: Int?
        /// The working bytes reported to the source last.
        var reportedBytes = 0
        /// Why the latest draw failed, if it did.
        var failure: GIFError?
        /// The source's recorded changes as last read, and the store's
        /// generation then: read again only when that moves on, and let go
        /// when the source drops them. A draw reads them through their
        /// storage, which `recorded` keeps alive.
        var recorded: FrameDeltaStore.Sealed? {
            didSet { recordedStorage = recorded?.storage }
        }
        private(set) var recordedStorage: FrameDeltaStore.Storage?
        var recordedGeneration = -1
        /// At a display size, where a draw stepping on notes each row's
        /// changes (allocated with the drawer).
        let scaledRows: ScaledRows?

        /// The drawer's working bytes: the seeker's and the rows'.
        var byteCount: Int { seeker.workingAndCheckpointBytes + (scaledRows?.byteCount ?? 0) }
    }

    /// What a display-size draw stepping on keeps so that it scales each
    /// row's changed stretch, not the box of the change: for each
    /// full-size canvas row, the first and last column the frames of a
    /// draw changed (two numbers a row), and for each drawn row, the
    /// columns scaled (two numbers a row). See
    /// ``BoxFilter/apply(_:region:changedColumns:rowColumns:into:bytesPerRow:premultiplied:)``.
    struct ScaledRows {
        let spans: UnsafeMutableBufferPointer<Int>
        let columns: UnsafeMutableBufferPointer<Int>

        init(canvasHeight: Int, drawnHeight: Int) {
            spans = .allocate(capacity: 2 * canvasHeight)
            columns = .allocate(capacity: 2 * drawnHeight)
        }

        var byteCount: Int { (spans.count + columns.count) * MemoryLayout<Int>.stride }

        /// Marks every canvas row unchanged: its first column past its last.
        func clear() {
            for y in 0..<spans.count / 2 {
                spans[2 * y] = .max
                spans[2 * y + 1] = -1
            }
        }

        func deallocate() {
            spans.deallocate()
            columns.deallocate()
        }
    }

    /// A drawer of `source`'s frames from `indices`, with `checkpointBudget`
    /// bytes of seek checkpoints (`nil`: one canvas, the loop start's).
    init(
        source: GIFFrameSource, id: Int, indices: FrameIndexCache, filter: BoxFilter?, checkpointBudget: Int? = nil,
        decodesOnCallingThread: Bool = false, branches: DrawBranches = .all
    ) {
        self.branches = branches
        self.source = source
        self.id = id
        self.filter = filter
        self.decodesOnCallingThread = decodesOnCallingThread
        self.width = source.canvasWidth
        self.height = source.canvasHeight
        self.pixelFormat = source.pixelFormat
        self.seekerBudget = checkpointBudget ?? source.image.info.canvasSize.area * 4
        let seeker = FrameSeeker(
            image: source.image, memoryBudget: seekerBudget, sharing: indices, pixelFormat: source.pixelFormat)
        let scaledRows = filter.map {
            ScaledRows(canvasHeight: source.image.info.canvasSize.height, drawnHeight: $0.height)
        }
        self.workingBound = source.drawerWorkingBound(checkpointBudget: seekerBudget) + (scaledRows?.byteCount ?? 0)
        self.state = LockedState(State(seeker: seeker, scaledRows: scaledRows))
        source.drawerBoundChanged(by: workingBound)
        source.onRecordedChangesDropped(for: id) { [weak self] in self?.releaseRecordedChanges() }
        source.onWorkingStateDropped(for: id) { [weak self] in self?.releaseWorkingState() }
    }

    /// Lets go of the source's recorded changes, which it dropped: called
    /// by whoever trims the source (a budget settling on a decode thread, a
    /// host's trim), which waits here for a draw in progress.
    private func releaseRecordedChanges() {
        state.withLock { state in
            state.recorded = nil
            state.recordedGeneration = -1
        }
    }

    /// The frame the host's buffer holds, as far as the drawer knows.
    var drawnFrame: Int? { state.withLock { $0.drawn } }

    /// The frames this drawer's seeker had giflib decode (on the calling
    /// thread: only with `decodesOnCallingThread`).
    var decodeCount: Int { state.withLock { $0.seeker.decodeCount } }

    /// The stored indices (shared with the source) and this drawer's
    /// checkpoints.
    var checkpointAndIndexBytes: Int { state.withLock { $0.seeker.checkpointAndIndexBytes } }

    /// Why the latest draw failed (``FrameDraw/failed(frame:shown:reason:)``),
    /// or `nil`.
    var failure: GIFError? { state.withLock { $0.failure } }

    /// Decodes every frame on the calling thread, storing indices and
    /// checkpoints as the budgets allow.
    func prepare() throws(GIFError) {
        try state.withLock { state throws(GIFError) in try state.seeker.prepare() }
    }

    deinit {
        let bytes = state.withLock { state in
            state.scaledRows?.deallocate()
            return state.reportedBytes
        }
        source.drawerEnded(id, bytes: bytes)
        source.drawerBoundChanged(by: -workingBound)
    }

    var byteCount: Int { state.withLock { $0.byteCount } }

    func invalidate() {
        state.withLock { $0.drawn = nil }
    }

    /// Asks the source's decode-ahead for `frames`; nothing for a drawer
    /// that decodes on the calling thread (it starts no thread).
    func prefetch(_ frames: [Int]) {
        guard !decodesOnCallingThread, source.workingRoomForDraw() != .still else { return }
        source.requestIndices(frames, urgent: false)
    }

    var needsPrefetch: Bool { !decodesOnCallingThread && !source.holdsEveryFrame }

    func draw(frame index: Int, into buffer: UnsafeMutableRawBufferPointer, bytesPerRow: Int) throws(PixelBufferError)
        -> FrameDraw
    {
        try PixelBufferError.check(width: width, height: height, bytesPerRow: bytesPerRow, bufferCount: buffer.count)
        var late: Int?, deltasGrew = false, bytesGrew = false
        guard !drawing.exchange(true, ordering: .acquiring) else { throw .drawnConcurrently }
        defer { drawing.store(false, ordering: .releasing) }
        // Room for what drawing holds is asked first: late while asked, a still when refused.
        if !decodesOnCallingThread, case let room = source.workingRoomForDraw(), room != .granted {
            let shown = state.withLock { $0.drawn }
            if shown == index { return .unchanged(frame: index) }
            return room == .still ? .still(frame: index, shown: shown) : .late(frame: index, shown: shown)
        }
        let result = state.withLock { state -> FrameDraw in
            if !decodesOnCallingThread, !source.holdsWorkingRoom { return .late(frame: index, shown: state.drawn) }
            let outcome = draw(
                index, into: buffer, bytesPerRow: bytesPerRow, state: &state, late: &late, deltasGrew: &deltasGrew)
            let bytes = state.byteCount
            if bytes != state.reportedBytes {
                source.drawerBytesChanged(by: bytes - state.reportedBytes)
                bytesGrew = bytes > state.reportedBytes
                state.reportedBytes = bytes
            }
            return outcome
        }
        // Noted with the lock released, and only noted: the source settles
        // with its memory budget on its decode thread, so that a trim the
        // budget asks of another source (whose drawers let go of their
        // recorded changes under their locks) never holds up this draw.
        if deltasGrew || bytesGrew { source.drawnStateGrew() }
        if let late {
            // The late frame and a few past it, not the whole way to a
            // frame far ahead, whose passing frames would push these out.
            let last = min(source.frameCount - 1, max(late, index) + Self.lateLookahead, late + Self.lateLookahead)
            var wanted = Array(late...last)
            if index < late { wanted.insert(index, at: 0) }
            source.requestIndices(wanted, urgent: true)
        }
        return result
    }

    private func draw(
        _ index: Int, into buffer: UnsafeMutableRawBufferPointer, bytesPerRow: Int, state: inout State, late: inout Int?,
        deltasGrew: inout Bool
    ) -> FrameDraw {
        if state.drawn == index { return .unchanged(frame: index) }
        guard (0..<source.frameCount).contains(index) else {
            return .failed(frame: index, shown: state.drawn, reason: "there is no frame \(index)")
        }
        let shown = state.drawn
        if let shown, branches.contains(.recordedChanges), let generation = source.deltas?.generation {
            if generation != state.recordedGeneration {
                state.recorded = source.deltas?.sealed
                state.recordedGeneration = generation
            }
            if let recorded = state.recordedStorage,
               let changed = Self.applyDeltas(recorded, from: shown, to: index, into: buffer, bytesPerRow: bytesPerRow) {
                state.failure = nil
                state.drawn = index
                return .drawn(frame: index, changed: changed, isComplete: true)
            }
        }
        // Stepping on from the frame shown writes only the changed
        // rectangles; anything else (the first draw, a seek, playing
        // backwards, a loop starting again from another frame than the
        // last) writes the whole frame.
        let stepping = branches.contains(.changedOnly) && shown.map {
            $0 < index && index - $0 <= Self.maximumSteppedFrames && state.seeker.position == $0 + 1
        } ?? false
        // A loop starting again from the last frame drawn writes only where
        // the canvas moved away from frame 0's, when the seeker knows it.
        let count = source.frameCount
        let restarts = index == 0 && count > 1 && shown == count - 1 && state.seeker.position == count
        let sinceFirstFrame = branches.contains(.changedOnly) && restarts ? state.seeker.changedSinceFirstFrame : nil
        state.failure = nil
        if !decodesOnCallingThread, !source.holdsEveryFrame {
            let missing = stepping
                ? state.seeker.indexCache.firstMissing(in: shown! + 1...index)
                : state.seeker.firstFrameToDecode(reaching: index)
            if let missing {
                // Far behind, the canvas steps on through the frames held
                // (the buffer left as it is): a full budget's few passing
                // frames are enough, each of the gap's decoded about once.
                if missing > state.seeker.position { _ = try? state.seeker.composite(at: missing - 1) }
                late = missing
                return .late(frame: index, shown: shown)
            }
        }
        // The buffer is left as it was when a frame fails; what it holds is
        // then known only while the seeker has not moved on.
        state.drawn = nil
        do {
            // Composited on the seeker's canvas and copied from it: no
            // frame value is built for each draw. Stepping on at full size
            // through frames whose indices are held from whole decodes,
            // each change goes to the host's buffer as it is made on the
            // canvas, and nothing is copied after; a frame that could fail
            // part-way is composited on the canvas alone, so that a failed
            // draw leaves the buffer as it was. A loop starting again
            // writes frame 0's rows to the canvas and the buffer as it
            // restores them: it cannot fail.
            var changed = PixelRect(x: 0, y: 0, width: width, height: height)
            let mirrors = filter == nil && branches.contains(.mirror)
                && (sinceFirstFrame != nil || stepping && state.seeker.indexCache.holdsWhole(shown! + 1...index))
            let mirror = mirrors ? buffer.baseAddress : nil
            var mirrored = mirror != nil
            // Stepping on at a display size, each row's changes are noted
            // and scaled, unless a step cannot note them.
            let rows = stepping && branches.contains(.rowByRow) ? state.scaledRows : nil
            var noted = rows != nil
            rows?.clear()
            func step(to frame: Int) throws(GIFError) -> FrameCopy {
                if let spans = rows?.spans.baseAddress {
                    let (copy, whole) = try state.seeker.composite(at: frame, notingChangesIn: spans)
                    noted = noted && whole
                    return copy
                }
                guard let mirror else { return try state.seeker.composite(at: frame) }
                let (copy, whole) = try state.seeker.composite(at: frame, mirroringInto: mirror, bytesPerRow: bytesPerRow)
                mirrored = mirrored && whole
                return copy
            }
            var frame = try step(to: stepping ? shown! + 1 : index)
            // The change the buffer holds whole once written: at a display
            // size, recorded from there (see ``recordScaled``).
            var last: FrameCopy?
            if stepping {
                deltasGrew = record(frame, state: &state) || deltasGrew
                changed = frame.changedRect
                while frame.index < index {
                    frame = try step(to: frame.index + 1)
                    deltasGrew = record(frame, state: &state) || deltasGrew
                    changed = changed.union(frame.changedRect)
                }
                changed = scaled(changed)
                last = frame
            } else if let sinceFirstFrame {
                let restart = FrameCopy(index: 0, changedRect: sinceFirstFrame, isComplete: frame.isComplete)
                deltasGrew = record(restart, state: &state) || deltasGrew
                changed = scaled(sinceFirstFrame)
                last = restart
            } else if index == 0, shown == count - 1 {
                // A loop starting again where the seeker did not follow
                // the frames: frame 0's whole canvas is its change (in
                // the canvas's pixels, which a display size scales).
                let canvas = source.image.info.canvasSize
                let whole = PixelRect(x: 0, y: 0, width: canvas.width, height: canvas.height)
                let restart = FrameCopy(index: 0, changedRect: whole, isComplete: frame.isComplete)
                deltasGrew = record(restart, state: &state) || deltasGrew
                last = restart
            }
            if !mirrored {
                let byRow = noted ? rows : nil
                var written = Written.nothing
                state.seeker.withCanvas { canvas in
                    written = write(canvas, region: changed, byRow: byRow, into: buffer, bytesPerRow: bytesPerRow)
                }
                if let last, written != .nothing {
                    let rows = written == .byRow ? byRow.map {
                        FrameDeltaStore.RowColumns(columns: UnsafeBufferPointer($0.columns), firstRow: changed.y)
                    } : nil
                    deltasGrew = recordScaled(
                        last, from: buffer, bytesPerRow: bytesPerRow, rows: rows, indices: state.seeker.indexCache)
                        || deltasGrew
                }
            }
            state.drawn = index
            return .drawn(frame: index, changed: changed, isComplete: frame.isComplete)
        } catch {
            state.drawn = stepping ? nil : shown
            state.failure = error
            return .failed(frame: index, shown: state.drawn, reason: error.description)
        }
    }

    /// Writes the recorded changes of the frames after `shown` up to
    /// `index` into `buffer`, which holds frame `shown`, and returns the
    /// rectangle they cover, counting on through the loop's end (frame 0's
    /// change is the restart's); `nil` (writing nothing) when `index` is
    /// `shown` or more than half a loop on (a step back, in a player
    /// going backwards). A host slower than the GIF copies the changes on
    /// the way, where the seeker, left behind by these draws, would
    /// composite from a checkpoint.
    private static func applyDeltas(
        _ sealed: FrameDeltaStore.Storage, from shown: Int, to index: Int, into buffer: UnsafeMutableRawBufferPointer,
        bytesPerRow: Int
    ) -> PixelRect? {
        let count = sealed.count
        guard let base = buffer.baseAddress, (0..<count).contains(shown), (0..<count).contains(index) else { return nil }
        let steps = index >= shown ? index - shown : index - shown + count
        guard steps > 0, steps <= max(maximumSteppedFrames, count / 2) else { return nil }
        var changed = PixelRect(x: 0, y: 0, width: 0, height: 0)
        var frame = shown
        for _ in 0..<steps {
            frame = frame + 1 == count ? 0 : frame + 1
            changed = changed.union(sealed.apply(frame, to: base, bytesPerRow: bytesPerRow))
        }
        return changed
    }

    /// Records `frame`'s changed pixels (frame 0: the restart's) from the
    /// seeker's canvas, when composited whole at full size and not
    /// recorded yet; returns whether the source should tell its memory
    /// budget (see ``FrameDeltaStore/record(_:rect:of:bytesPerRow:rows:)``).
    private func record(_ frame: FrameCopy, state: inout State) -> Bool {
        guard filter == nil, frame.isComplete, let deltas = source.deltas else { return false }
        let bytesPerRow = width * 4
        var grew = false
        state.seeker.withCanvas { canvas in
            grew = deltas.record(
                frame.index, rect: frame.changedRect, of: UnsafeRawBufferPointer(canvas), bytesPerRow: bytesPerRow)
        }
        return grew
    }

    /// At a display size, records `frame`'s changed pixels (frame 0: the
    /// restart's) as scaled, from the host's `buffer` that a draw has just
    /// brought to that frame, when composited whole and not recorded yet:
    /// the draws of later loops then copy them, neither compositing nor
    /// scaling. When one draw stepped over several frames, only the last
    /// one's change is in the buffer as that frame left it; the others are
    /// recorded by the draws of a later loop that step to them one by one,
    /// and until every frame's is in, nothing is drawn from the set.
    /// With `rows`, the columns the draw wrote in each row, only those are
    /// recorded: every other pixel of the rectangle reads no change.
    private func recordScaled(
        _ frame: FrameCopy, from buffer: UnsafeMutableRawBufferPointer, bytesPerRow: Int,
        rows: FrameDeltaStore.RowColumns?, indices: FrameIndexCache
    ) -> Bool {
        guard filter != nil, frame.isComplete, let deltas = source.deltas, deltas.isRecording else { return false }
        // Kept only while, over a loop, they would take no more bytes than
        // the stored indices that they let later loops do without (as the
        // frames held so far take them; no cap before one is held).
        let held = indices.frameCount
        let indexBytes = held > 0 ? Int(Double(indices.byteCount) * Double(source.frameCount) / Double(held)) : .max
        return deltas.record(
            frame.index, rect: scaled(frame.changedRect), of: UnsafeRawBufferPointer(buffer), bytesPerRow: bytesPerRow,
            rows: rows, projectedWithin: indexBytes)
    }

    /// What ``write(_:region:byRow:into:bytesPerRow:)`` wrote.
    private enum Written {
        /// Nothing: the canvas is not the size the filter reads.
        case nothing
        /// Every pixel of the region.
        case whole
        /// Each row's columns in the `columns` of the ``ScaledRows`` given.
        case byRow
    }

    /// The drawn pixels a full-size rectangle reaches.
    private func scaled(_ rect: PixelRect) -> PixelRect {
        guard let filter else { return rect }
        return filter.outputRect(covering: rect)
    }

    /// Writes `region` (in drawn pixels) of the full-size `canvas` into the
    /// buffer, scaled when the drawer shows a display size: with `byRow`,
    /// only the drawn pixels that read a canvas row's noted changes.
    /// Returns what it wrote.
    private func write(
        _ canvas: UnsafeBufferPointer<UInt8>, region: PixelRect, byRow: ScaledRows?,
        into buffer: UnsafeMutableRawBufferPointer, bytesPerRow: Int
    ) -> Written {
        guard !region.isEmpty else { return .whole }
        if let filter {
            // The filter writes nothing from a canvas of another size than
            // the image's, which it was made for.
            guard canvas.count == source.image.info.canvasSize.area * 4 else { return .nothing }
            let premultiplied = pixelFormat == .premultipliedBGRA8
            do {
                if let byRow {
                    let rowsWritten = try filter.apply(
                        canvas, region: region, changedColumns: UnsafeBufferPointer(byRow.spans),
                        rowColumns: byRow.columns, into: buffer, bytesPerRow: bytesPerRow, premultiplied: premultiplied)
                    return rowsWritten ? .byRow : .whole
                }
                try filter.apply(
                    canvas, region: region, into: buffer, bytesPerRow: bytesPerRow, premultiplied: premultiplied)
                return .whole
            } catch {
                return .nothing
            }
        }
        guard let target = buffer.baseAddress, let source = canvas.baseAddress else { return .nothing }
        copyRows(
            region.height, of: region.width * 4, from: source + (region.y * width + region.x) * 4, stride: width * 4,
            to: target + region.y * bytesPerRow + region.x * 4, stride: bytesPerRow)
        return .whole
    }
}
