import GIF
import Playback

/// The drawing side of the source: making drawers, knowing what they hold,
/// and queueing the indices they ask for on the decode-ahead.
extension GIFFrameSource {
    /// A drawer of this source's frames into a host's buffer, sharing the
    /// source's stored indices, or `nil` when the player's frame cache
    /// serves draws better. The drawer composites from the stored indices
    /// on the thread that draws, writes the changed rectangle (scaled alone
    /// at a display size), and reports a frame not decoded yet as late and
    /// asks this source's decode-ahead for it; `decoded`
    /// is called after each frame the decode-ahead adds, and after draws
    /// grew what the drawers hold (`drawnStateGrew()`), both on the
    /// `executor`'s thread, so that a shared memory budget counts them.
    public func makeDrawer(notifying decoded: (@Sendable () -> Void)?) -> (any FrameDrawer)? {
        // A progressive source's frames change as bytes arrive, and a source
        // shown at a display size whose small frames take fewer bytes than
        // its indices keeps no indices: both are drawn from the player's
        // frame cache.
        guard latest == nil, filter == nil || indexBudget > 0 else { return nil }
        indices.keepPassingFrames()
        indices.readAlone()
        return GIFFrameDrawer(source: self, id: nextDrawerID(notifying: decoded), indices: indices, filter: filter)
    }

    /// A drawer that decodes on the calling thread (a ``DrawingPlayer``'s),
    /// with `checkpointBudget` bytes of seek checkpoints of its own.
    func makeCallingThreadDrawer(checkpointBudget: Int) -> GIFFrameDrawer {
        indices.readAlone()
        return GIFFrameDrawer(
            source: self, id: nextDrawerID(notifying: nil), indices: indices, filter: filter, checkpointBudget: checkpointBudget,
            decodesOnCallingThread: true)
    }

    /// A drawer as ``makeDrawer(notifying:)`` makes (`nil` where that makes
    /// none), that takes only the write branches in `branches`, decoding
    /// on the calling thread when `decodesOnCallingThread`: what the
    /// drawing contract's tests force each branch with.
    package func makeDrawer(
        branches: DrawBranches, decodesOnCallingThread: Bool, notifying decoded: (@Sendable () -> Void)? = nil
    ) -> (any FrameDrawer)? {
        guard latest == nil, filter == nil || indexBudget > 0 else { return nil }
        if !decodesOnCallingThread { indices.keepPassingFrames() }
        indices.readAlone()
        return GIFFrameDrawer(
            source: self, id: nextDrawerID(notifying: decoded), indices: indices, filter: filter,
            checkpointBudget: decodesOnCallingThread ? image.info.canvasSize.area * 4 * 4 : nil,
            decodesOnCallingThread: decodesOnCallingThread, branches: branches)
    }

    /// A new drawer's id, with `decoded` kept for it (see
    /// ``makeDrawer(notifying:)``).
    private func nextDrawerID(notifying decoded: (@Sendable () -> Void)?) -> Int {
        drawers.register(notifying: decoded)
    }

    /// Forgets drawer `id`'s callback and its canvases' bytes: the drawer
    /// went away.
    func drawerEnded(_ id: Int, bytes: Int) {
        drawers.ended(id, bytes: bytes)
    }

    /// Whether every frame's indices are stored (within the index budget):
    /// a drawer then has nothing to ask the decode-ahead for. One atomic
    /// load.
    var holdsEveryFrame: Bool { indices.storedFrameCount >= frameCount }

    /// The requests for indices the drawers made so far (look-ahead and
    /// late draws, each a lock and a lookup even when every frame asked
    /// for is stored), for tests: once ``holdsEveryFrame``, ticks and
    /// draws make none.
    package var indexRequestCount: Int { window.requestCount }

    /// Queues decode-ahead of `frames`' indices (those not stored nor
    /// queued already), as ``FrameRequestPriority/needed`` when `urgent`,
    /// else as look-ahead, widened by the ``window``.
    func requestIndices(_ frames: [Int], urgent: Bool) {
        window.countRequest()
        guard !indices.holdsAll(frames) else { return }
        let queued = window.frames(for: frames, urgent: urgent)
        scheduler.requestIndices(queued, priority: urgent ? .now : .prefetch, decoder: self) {
            indices.entry($0) != nil
        }
    }

    /// A drawer's canvases grew or shrank by `delta` bytes: an atomic add,
    /// so that a draw, which calls it with its own lock held, takes no lock
    /// of the source's for it. A shared budget counts the new figure when
    /// next told (see ``drawnStateGrew()``).
    func drawerBytesChanged(by delta: Int) {
        drawers.bytesChanged(by: delta)
    }

    /// A drawer's most working bytes came (`delta`) or went (negative).
    func drawerBoundChanged(by delta: Int) {
        drawers.boundChanged(by: delta)
    }

    /// Registers drawer `id`'s letting go of its working canvases, called
    /// when the source gives back its working state.
    func onWorkingStateDropped(for id: Int, _ release: @escaping @Sendable () -> Void) {
        drawers.onDropped(.workingState, for: id, release)
    }

    /// Registers drawer `id`'s letting go of the recorded changes it holds,
    /// called when they are dropped.
    func onRecordedChangesDropped(for id: Int, _ release: @escaping @Sendable () -> Void) {
        drawers.onDropped(.recordedChanges, for: id, release)
    }

    /// Whether every frame's recorded change is held, so that drawers
    /// stepping through a loop copy them (for tests).
    package var drawsFromRecordedChanges: Bool { recordedChangesObject != nil }

    /// The sealed set of recorded changes, as an object whose lifetime a
    /// test can watch (`nil` when none is held).
    package var recordedChangesObject: AnyObject? { deltas?.sealed }

    /// A draw changed what the drawers hold enough for a shared memory
    /// budget to count this source's state again: the recorded changes
    /// grew (see ``FrameDeltaStore/record(_:rect:of:bytesPerRow:rows:)``),
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
        guard drawers.settleNeeded() else { return }
        scheduler.settleDrawnState(decoder: self)
    }

    /// Tells the drawers' `decoded` callbacks (a shared memory budget
    /// counting this source) of the state the draws left, on the decode
    /// thread (see ``drawnStateGrew()``). The flag is cleared first, so a
    /// draw growing the state while the callbacks run asks again.
    ///
    /// An ask for the drawers' working state (``workingRoomForDraw()``)
    /// is made here too, where the budget may trim other sources.
    func settleDrawnState() {
        drawers.settleStarted()
        workingRoom.ask(workingNeed, through: stateAllowance)
        indicesStored()
    }

    /// The most bytes a drawer's seeker holds drawing this GIF at full
    /// size: its canvas, with the area a frame that restores what was
    /// under it saves (the largest such frame's), and its checkpoints
    /// within `checkpointBudget`, each at most as much.
    func drawerWorkingBound(checkpointBudget: Int) -> Int {
        let canvas = image.info.canvasSize.area * 4
        let saved = image.info.frames.lazy.filter { $0.disposal.effective == .restorePrevious }
            .map { $0.rect.area * 4 }.max() ?? 0
        return canvas + saved + min(max(0, checkpointBudget), canvas + saved)
    }

    /// The working state the drawers need to draw at all: each drawer's
    /// canvases at their most (``drawerWorkingBound(checkpointBudget:)``)
    /// and the decode-ahead's buffers (``decoderBound``); 0 without
    /// drawers.
    var workingNeed: Int {
        let drawn = drawers.workingBound
        return drawn > 0 ? drawn + decoderBound : 0
    }

    /// Where the drawers' working state stands with the shared budget
    /// (see `WorkingRoom`): granted, asked (queued here on the decode
    /// thread, ahead of the decodes), or a still waiting before it asks
    /// again. Called by a drawer before it draws and as its player ticks,
    /// with no lock of this source's held.
    func workingRoomForDraw() -> WorkingRoom.Room {
        let room = workingRoom.room(for: workingNeed, through: stateAllowance)
        if room == .asking(queue: true) { scheduler.settleDrawnState(decoder: self) }
        return room
    }

    /// Whether the budget counts the drawers' working state: a source that
    /// is a still asks for no decodes.
    var holdsWorkingRoom: Bool { workingRoom.covers(workingNeed) }

    /// A frame passed on to the drawers adds `bytes` beyond what the
    /// stored indices free: asked of the shared budget as working state
    /// (room made from what other sources keep beyond theirs), on the
    /// decode thread. Refused, this source gives its working state back and
    /// its players show stills until the budget has room.
    func passingGrew(by bytes: Int) -> Bool {
        guard !stateAllowance.reserveWorking(bytes) else { return true }
        releaseDecodingState()
        releaseWorkingState(refused: true)
        return false
    }

    /// Has every drawer let go of its working canvases, then gives the
    /// grant back (`refused`: the budget had no room for what was to be
    /// added, which starts the wait before the drawers ask again).
    func releaseWorkingState(refused: Bool) {
        drawers.release(.workingState)
        workingRoom.revoke(refused: refused)
    }
}
