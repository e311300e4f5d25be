@_spi(Engine) import EngineSupport
import GIF
import Playback
import Synchronization

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
        indices.serveDrawers()
        return GIFFrameDrawer(source: self, id: nextDrawerID(notifying: decoded), indices: indices, filter: filter)
    }

    /// A drawer that decodes on the calling thread (a ``DrawingPlayer``'s),
    /// with `checkpointBudget` bytes of seek checkpoints of its own.
    func makeCallingThreadDrawer(checkpointBudget: Int) -> GIFFrameDrawer {
        indices.serveDrawers()
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
        indices.serveDrawers()
        return GIFFrameDrawer(
            source: self, id: nextDrawerID(notifying: decoded), indices: indices, filter: filter,
            checkpointBudget: decodesOnCallingThread ? image.info.canvasSize.area * 4 * 4 : nil,
            decodesOnCallingThread: decodesOnCallingThread, branches: branches)
    }

    /// A new drawer's id, with `decoded` kept for it (see
    /// ``makeDrawer(notifying:)``).
    private func nextDrawerID(notifying decoded: (@Sendable () -> Void)?) -> Int {
        drawers.withLock { drawers -> Int in
            drawers.lastID += 1
            if let decoded {
                drawers.decodedCallbacks[drawers.lastID] = decoded
                notifiedDrawers.add(1, ordering: .relaxed)
            }
            return drawers.lastID
        }
    }

    /// Forgets drawer `id`'s callback and its canvases' bytes: the drawer
    /// went away.
    func drawerEnded(_ id: Int, bytes: Int) {
        drawers.withLock { drawers in
            if drawers.decodedCallbacks.removeValue(forKey: id) != nil { notifiedDrawers.subtract(1, ordering: .relaxed) }
            drawers.releases[id] = nil
        }
        drawerBytes.subtract(bytes, ordering: .relaxed)
    }

    /// Whether every frame's indices are stored (within the index budget):
    /// a drawer then has nothing to ask the decode-ahead for. One atomic
    /// load.
    var holdsEveryFrame: Bool { indices.storedFrameCount >= frameCount }

    /// The requests for indices the drawers made so far (look-ahead and
    /// late draws, each a lock and a lookup even when every frame asked
    /// for is stored), for tests: once ``holdsEveryFrame``, ticks and
    /// draws make none.
    package var indexRequestCount: Int { indexRequests.load(ordering: .relaxed) }

    /// Queues decode-ahead of `frames`' indices (those not stored nor
    /// queued already), as ``FrameRequestPriority/needed`` when `urgent`,
    /// else as look-ahead.
    func requestIndices(_ frames: [Int], urgent: Bool) {
        indexRequests.add(1, ordering: .relaxed)
        guard !indices.holdsAll(frames) else { return }
        scheduler.requestIndices(urgent ? frames : widened(frames), priority: urgent ? .now : .prefetch, decoder: self) {
            indices.entry($0) != nil
        }
    }

    /// Look-ahead `frames` (the frame shown, then the frames due next) and
    /// as many frames again past its last, in the direction it steps, up to
    /// as many frames in all as the index tier keeps past its budget (so
    /// that a GIF whose indices do not fit still finds the frame it shows
    /// among them): the next ticks then find their look-ahead held and ask
    /// for nothing, and the decode-ahead's thread wakes once for a window
    /// of frames rather than once a frame as the player moves on.
    private func widened(_ frames: [Int]) -> [Int] {
        let count = frameCount
        let extra = min(frames.count - 1, FrameIndexCache.passingLimit - frames.count)
        guard frames.count >= 2, count > 1, extra > 0 else { return frames }
        let step = (frames[frames.count - 1] - frames[frames.count - 2] + count) % count
        guard step == 1 || step == count - 1 else { return frames }
        var wide = frames
        var frame = frames[frames.count - 1]
        for _ in 0..<extra {
            frame = (frame + step) % count
            wide.append(frame)
        }
        return wide
    }

    /// A drawer's canvases grew or shrank by `delta` bytes: an atomic add,
    /// so that a draw, which calls it with its own lock held, takes no lock
    /// of the source's for it. A shared budget counts the new figure when
    /// next told (see ``drawnStateGrew()``).
    func drawerBytesChanged(by delta: Int) {
        drawerBytes.add(delta, ordering: .relaxed)
    }
}
