@_spi(Engine) import EngineSupport
@_spi(Benchmarks) import GIF
import Playback
import Synchronization

/// A ``GIFFrameSource``'s drawing side: one player's frames composited from
/// the palette indices the source stores, on the thread that draws, and
/// presented into the host's buffer by a ``FramePresenter`` (Playback's:
/// which frame the buffer holds, which write branch, scaling, recorded
/// changes). This type only joins the two: the seeker is the presenter's
/// compositor, and a frame whose indices are not stored yet makes the draw
/// late.
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
    private let source: GIFFrameSource
    /// Names this drawer to its source.
    private let id: Int
    private let state: LockedState<State>
    /// Whether a frame not stored yet is decoded here rather than asked for.
    private let decodesOnCallingThread: Bool
    /// The most bytes this drawer's working state takes, counted before
    /// its first draw (``GIFFrameSource/drawerWorkingBound(checkpointBudget:)``
    /// and the presenter's rows).
    private let workingBound: Int
    /// The checkpoint bytes its seeker is made with.
    private let seekerBudget: Int
    /// Set while a draw runs: a second thread drawing at the same time is
    /// told so (`PixelBufferError.drawnConcurrently`), where anything else
    /// taking the lock (a count read, the source letting go of its
    /// recorded changes) only makes a draw wait.
    private let drawing = Atomic<Bool>(false)

    /// Frames asked for past the one that is late, so that the decode-ahead
    /// keeps ahead once it caught up.
    static let lateLookahead = 4

    /// `@unchecked Sendable` for its seeker: a `FrameSeeker` is not (its
    /// iterator holds giflib's handle and buffers, shared by its copies);
    /// this one is used only with the ``state`` lock held, by one thread at
    /// a time, and only values (frames, counts) leave the lock. The
    /// presenter's recorded changes and rows are read under the lock too.
    private struct State: @unchecked Sendable {
        var seeker: FrameSeeker
        var presenter: FramePresenter
        /// The working bytes reported to the source last.
        var reportedBytes = 0

        /// The drawer's working bytes: the seeker's and the presenter's.
        var byteCount: Int { seeker.workingAndCheckpointBytes + presenter.byteCount }
    }

    /// A drawer of `source`'s frames from `indices`, with `checkpointBudget`
    /// bytes of seek checkpoints (`nil`: one canvas, the loop start's).
    init(
        source: GIFFrameSource, id: Int, indices: FrameIndexCache, filter: BoxFilter?, checkpointBudget: Int? = nil,
        decodesOnCallingThread: Bool = false, branches: DrawBranches = .all
    ) {
        self.source = source
        self.id = id
        self.decodesOnCallingThread = decodesOnCallingThread
        self.width = source.canvasWidth
        self.height = source.canvasHeight
        self.pixelFormat = source.pixelFormat
        self.seekerBudget = checkpointBudget ?? source.image.info.canvasSize.area * 4
        let seeker = FrameSeeker(
            image: source.image, memoryBudget: seekerBudget, sharing: indices, pixelFormat: source.pixelFormat)
        let presenter = FramePresenter(
            canvas: source.image.info.canvasSize, frameCount: source.frameCount, filter: filter,
            pixelFormat: source.pixelFormat, branches: branches, deltas: source.deltas)
        self.workingBound = source.drawerWorkingBound(checkpointBudget: seekerBudget) + presenter.byteCount
        self.state = LockedState(State(seeker: seeker, presenter: presenter))
        source.drawerBoundChanged(by: workingBound)
        source.onRecordedChangesDropped(for: id) { [weak self] in self?.releaseRecordedChanges() }
        source.onWorkingStateDropped(for: id) { [weak self] in self?.releaseWorkingState() }
    }

    /// Lets go of the working canvases (the seeker starts again empty): the
    /// source gave its working state back, as a budget without room for it
    /// asked. The host's buffer keeps the frame drawn; the next draw the
    /// budget has room for writes the whole frame. Waits for a draw in
    /// progress.
    private func releaseWorkingState() {
        state.withLock { state in
            state.seeker = FrameSeeker(
                image: source.image, memoryBudget: seekerBudget, sharing: source.indices,
                pixelFormat: source.pixelFormat)
            state.presenter.releaseRecordedChanges()
            let bytes = state.byteCount
            if bytes != state.reportedBytes {
                source.drawerBytesChanged(by: bytes - state.reportedBytes)
                state.reportedBytes = bytes
            }
        }
    }

    /// Lets go of the source's recorded changes, which it dropped: called
    /// by whoever trims the source (a budget settling on a decode thread, a
    /// host's trim), which waits here for a draw in progress.
    private func releaseRecordedChanges() {
        state.withLock { $0.presenter.releaseRecordedChanges() }
    }

    /// The frame the host's buffer holds, as far as the drawer knows.
    var drawnFrame: Int? { state.withLock { $0.presenter.drawn } }

    /// The frames this drawer's seeker had giflib decode (on the calling
    /// thread: only with `decodesOnCallingThread`).
    var decodeCount: Int { state.withLock { $0.seeker.decodeCount } }

    /// The stored indices (shared with the source) and this drawer's
    /// checkpoints.
    var checkpointAndIndexBytes: Int { state.withLock { $0.seeker.checkpointAndIndexBytes } }

    /// Why the latest draw failed (``FrameDraw/failed(frame:shown:reason:)``),
    /// or `nil`.
    var failure: GIFError? { state.withLock { $0.presenter.failure as? GIFError } }

    /// Decodes every frame on the calling thread, storing indices and
    /// checkpoints as the budgets allow.
    func prepare() throws(GIFError) {
        try state.withLock { state throws(GIFError) in try state.seeker.prepare() }
    }

    deinit {
        let bytes = state.withLock { $0.reportedBytes }
        source.drawerEnded(id, bytes: bytes)
        source.drawerBoundChanged(by: -workingBound)
    }

    var byteCount: Int { state.withLock { $0.byteCount } }

    func invalidate() {
        state.withLock { $0.presenter.invalidate() }
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
        // What drawing holds is counted before it is held: while it is
        // asked the draw is late; refused, the buffer keeps its frame.
        if !decodesOnCallingThread, case let room = source.workingRoomForDraw(), room != .granted {
            let shown = state.withLock { $0.presenter.drawn }
            if shown == index { return .unchanged(frame: index) }
            return room == .still ? .still(frame: index, shown: shown) : .late(frame: index, shown: shown)
        }
        let result = state.withLock { state -> FrameDraw in
            // The room given back since it was checked: nothing is grown.
            if !decodesOnCallingThread, !source.holdsWorkingRoom {
                return .late(frame: index, shown: state.presenter.drawn)
            }
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
        let plan: FramePresenter.Plan
        switch state.presenter.begin(index, canvas: &state.seeker, into: buffer, bytesPerRow: bytesPerRow) {
        case .done(let draw): return draw
        case .composite(let planned): plan = planned
        }
        if !decodesOnCallingThread, !source.holdsEveryFrame {
            let missing = plan.stepping
                ? state.seeker.indexCache.firstMissing(in: plan.shown! + 1...index)
                : state.seeker.firstFrameToDecode(reaching: index)
            if let missing {
                // Far behind, the canvas steps on through the frames held
                // (the buffer left as it is): a full budget's few passing
                // frames are enough, each of the gap's decoded about once.
                if missing > state.seeker.position { _ = try? state.seeker.composite(at: missing - 1) }
                late = missing
                return .late(frame: index, shown: plan.shown)
            }
        }
        return state.presenter.present(
            plan, canvas: &state.seeker, into: buffer, bytesPerRow: bytesPerRow, deltasGrew: &deltasGrew)
    }
}

/// A drawer whose lock a test can hold from a thread of its own, standing
/// for a draw in progress there (or one that never ends), to show what
/// waits for it.
package protocol DrawerLockHolding: AnyObject, Sendable {
    /// Runs `body` with the drawer's lock held.
    func withLockHeld(_ body: () -> Void)
}

extension GIFFrameDrawer: DrawerLockHolding {
    func withLockHeld(_ body: () -> Void) {
        state.withLock { _ in body() }
    }
}
