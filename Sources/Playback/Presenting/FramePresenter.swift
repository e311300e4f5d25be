/// One player's presentation into the host's buffer: which frame the buffer
/// holds, and which write branch takes it to the next (``DrawBranches``),
/// over frames a ``FrameCompositing`` composites at full size.
///
/// A draw goes, first branch that applies:
/// 1. the buffer holds the frame already: nothing is written;
/// 2. **recorded changes** (`FramePresenter+RecordedChanges.swift`): a
///    loop drawn once copies each frame's change as recorded, full size or
///    scaled, neither compositing nor scaling;
/// 3. otherwise the compositor composites the frames on the way; stepping
///    on from the frame shown, only their changed rectangles are written:
///    - **mirror** (`FramePresenter+Stepping.swift`, full size): each
///      change goes to the buffer as it is made on the canvas;
///    - **row by row** (`ScaledRows.swift`, display size): each canvas
///      row's changed stretch is noted and scaled;
///    - **whole rectangle** (`FramePresenter+Writing.swift`): the changed
///      rectangle (or the whole frame: a first draw, a seek) is copied or
///      scaled from the canvas.
///
/// Every branch yields the same pixels (the drawing contract's harness
/// checks each alone). A value held under its drawer's lock.
package struct FramePresenter {
    /// The drawn size: the canvas's, or the display size's.
    let width: Int
    let height: Int
    let pixelFormat: PixelFormat
    /// The compositor's canvas size, and the frames of one loop.
    let canvasSize: PixelSize
    let frameCount: Int
    /// Scales the canvas to the display size; `nil` at full size.
    let filter: BoxFilter?
    /// The write branches a draw may take.
    let branches: DrawBranches
    /// The frames' recorded changes, shared by the source's drawers.
    let deltas: FrameDeltaStore?

    /// The frame the host's buffer holds, as far as the presenter knows.
    package private(set) var drawn: Int?
    /// Why the latest draw failed, if it did.
    package private(set) var failure: (any Error)?
    /// The recorded changes as last read, and the store's generation then:
    /// read again only when that moves on. A draw reads them through their
    /// storage, which `recorded` keeps alive.
    var recorded: FrameDeltaStore.Sealed? {
        didSet { recordedStorage = recorded?.storage }
    }
    private(set) var recordedStorage: FrameDeltaStore.Storage?
    var recordedGeneration = -1
    /// At a display size, where a draw stepping on notes each row's
    /// changes.
    let scaledRows: ScaledRows?

    /// The most frames one draw composites one after another, writing
    /// their changed rectangles, when the player moved on by more than one
    /// frame since the last draw (a host slower than the GIF). Beyond it
    /// the draw writes the whole frame once.
    package static let maximumSteppedFrames = 8

    /// A presenter of the `frameCount` frames of a `canvas`-sized
    /// compositor, scaled by `filter` (`nil`: full size), in
    /// `pixelFormat`, through `branches`, copying and recording the changes
    /// in `deltas`.
    package init(
        canvas: PixelSize, frameCount: Int, filter: BoxFilter?, pixelFormat: PixelFormat, branches: DrawBranches,
        deltas: FrameDeltaStore?
    ) {
        self.canvasSize = canvas
        self.frameCount = frameCount
        self.width = filter?.width ?? canvas.width
        self.height = filter?.height ?? canvas.height
        self.pixelFormat = pixelFormat
        self.filter = filter
        self.branches = branches
        self.deltas = deltas
        self.scaledRows = filter.map { ScaledRows(canvasHeight: canvas.height, drawnHeight: $0.height) }
    }

    /// The presenter's own bytes: the rows a display-size draw notes.
    package var byteCount: Int { scaledRows?.byteCount ?? 0 }

    /// Forgets what the host's buffer holds: the next draw writes the
    /// whole frame.
    package mutating func invalidate() { drawn = nil }

    /// How one draw reaches its frame from the frame shown, once no
    /// earlier branch applied (``begin(_:canvas:into:bytesPerRow:)``).
    package struct Plan {
        /// The frame asked for.
        package let index: Int
        /// The frame the buffer holds.
        package let shown: Int?
        /// Stepping on from `shown` through at most
        /// ``maximumSteppedFrames``: only the frames' changes are written,
        /// and only `shown` + 1 … `index` are composited.
        package let stepping: Bool
        /// A loop starting again from the last frame: where the canvas
        /// moved away from frame 0's, written alone.
        let sinceFirstFrame: PixelRect?
    }

    /// What ``begin(_:canvas:into:bytesPerRow:)`` found.
    package enum Start {
        /// The draw is done: nothing to write, no such frame, or the
        /// recorded changes written.
        case done(FrameDraw)
        /// The frames on the way are to be composited as planned.
        case composite(Plan)
    }

    /// Starts a draw of frame `index` into `buffer` (rows `bytesPerRow`
    /// apart, checked to hold the drawn size), which holds ``drawn``: the
    /// branches that need no compositing, then the plan for those that do.
    /// The compositor is only read; it is passed `inout` so that a large
    /// one held in place is read there, never copied for the call.
    package mutating func begin(
        _ index: Int, canvas: inout some FrameCompositing, into buffer: UnsafeMutableRawBufferPointer,
        bytesPerRow: Int
    ) -> Start {
        if drawn == index { return .done(.unchanged(frame: index)) }
        let count = frameCount
        guard (0..<count).contains(index) else {
            return .done(.failed(frame: index, shown: drawn, reason: "there is no frame \(index)"))
        }
        if let changed = drawRecorded(index, into: buffer, bytesPerRow: bytesPerRow) {
            failure = nil
            drawn = index
            return .done(.drawn(frame: index, changed: changed, isComplete: true))
        }
        let shown = drawn
        // Stepping on from the frame shown writes only the changed
        // rectangles; anything else (the first draw, a seek, playing
        // backwards, a loop starting again from another frame than the
        // last) writes the whole frame.
        let stepping = branches.contains(.changedOnly) && shown.map {
            $0 < index && index - $0 <= Self.maximumSteppedFrames && canvas.position == $0 + 1
        } ?? false
        // A loop starting again from the last frame drawn writes only where
        // the canvas moved away from frame 0's, when the compositor knows.
        let restarts = index == 0 && count > 1 && shown == count - 1 && canvas.position == count
        let sinceFirstFrame = branches.contains(.changedOnly) && restarts ? canvas.changedSinceFirstFrame : nil
        failure = nil
        return .composite(Plan(index: index, shown: shown, stepping: stepping, sinceFirstFrame: sinceFirstFrame))
    }

    /// Composites the planned frames and writes them into `buffer`;
    /// `deltasGrew` is set when the recorded changes grew enough for a
    /// shared memory budget to count them again.
    package mutating func present<Canvas: FrameCompositing>(
        _ plan: Plan, canvas: inout Canvas, into buffer: UnsafeMutableRawBufferPointer, bytesPerRow: Int,
        deltasGrew: inout Bool
    ) -> FrameDraw {
        let index = plan.index, shown = plan.shown, stepping = plan.stepping
        // The buffer is left as it was when a frame fails; what it holds is
        // then known only while the compositor has not moved on.
        drawn = nil
        do {
            // Composited on the canvas and copied from it: no frame value
            // is built for each draw. Stepping on at full size through
            // frames that composite whole, each change goes to the host's
            // buffer as it is made on the canvas, and nothing is copied
            // after; a frame that could fail part-way is composited on the
            // canvas alone, so that a failed draw leaves the buffer as it
            // was. A loop starting again writes frame 0's rows to the
            // canvas and the buffer as it restores them: it cannot fail.
            var changed = PixelRect(x: 0, y: 0, width: width, height: height)
            let mirrors = filter == nil && branches.contains(.mirror)
                && (plan.sinceFirstFrame != nil || stepping && canvas.compositesWhole(shown! + 1...index))
            var steps = Steps(
                mirror: mirrors ? buffer.baseAddress.map { CanvasMirror(base: $0, bytesPerRow: bytesPerRow) } : nil,
                rows: stepping && branches.contains(.rowByRow) ? scaledRows : nil)
            var frame = try steps.step(&canvas, to: stepping ? shown! + 1 : index)
            // The change the buffer holds whole once written: at a display
            // size, recorded from there (see ``recordScaled``).
            var last: FrameCopy?
            if stepping {
                deltasGrew = record(frame, canvas: &canvas) || deltasGrew
                changed = frame.changedRect
                while frame.index < index {
                    frame = try steps.step(&canvas, to: frame.index + 1)
                    deltasGrew = record(frame, canvas: &canvas) || deltasGrew
                    changed = changed.union(frame.changedRect)
                }
                changed = scaled(changed)
                last = frame
            } else if let sinceFirstFrame = plan.sinceFirstFrame {
                let restart = FrameCopy(index: 0, changedRect: sinceFirstFrame, isComplete: frame.isComplete)
                deltasGrew = record(restart, canvas: &canvas) || deltasGrew
                changed = scaled(sinceFirstFrame)
                last = restart
            } else if index == 0, shown == frameCount - 1 {
                // A loop starting again where the compositor did not follow
                // the frames: frame 0's whole canvas is its change (in the
                // canvas's pixels, which a display size scales).
                let size = canvasSize
                let whole = PixelRect(x: 0, y: 0, width: size.width, height: size.height)
                let restart = FrameCopy(index: 0, changedRect: whole, isComplete: frame.isComplete)
                deltasGrew = record(restart, canvas: &canvas) || deltasGrew
                last = restart
            }
            if !steps.mirrored {
                let byRow = steps.noted ? steps.rows : nil
                var written = Written.nothing
                canvas.withCanvas { pixels in
                    written = write(pixels, region: changed, byRow: byRow, into: buffer, bytesPerRow: bytesPerRow)
                }
                if let last, written != .nothing {
                    let rows = written == .byRow ? byRow.map {
                        FrameDeltaStore.RowColumns(columns: UnsafeBufferPointer($0.columns), firstRow: changed.y)
                    } : nil
                    deltasGrew = recordScaled(last, from: buffer, bytesPerRow: bytesPerRow, rows: rows) || deltasGrew
                }
            }
            drawn = index
            return .drawn(frame: index, changed: changed, isComplete: frame.isComplete)
        } catch {
            drawn = stepping ? nil : shown
            failure = error
            return .failed(frame: index, shown: drawn, reason: String(describing: error))
        }
    }
}
