import Playback

// GIFFrameSource's answers to the FrameSource and BudgetedFrameSource
// requirements that read several of its own members at once, and its
// memory accounting: what it holds and how it gives it back.
extension GIFFrameSource {
    /// The canvas size, after the first-frame growth rule (at a display
    /// size, the frame size the cell shows).
    public var canvasSize: PixelSize { PixelSize(width: canvasWidth, height: canvasHeight) }

    /// The stored delays and loop count; the file was read whole, so it is
    /// complete. The player applies its delay policy.
    public var timing: FrameSourceTiming {
        FrameSourceTiming(frameDelays: frameDelays, storedLoopCount: storedLoopCount)
    }

    /// The bytes of the seeker kept between decodes (its stored indices,
    /// its checkpoints, the frames' recorded changes and its working state),
    /// and of those the working state: the full-size canvas with the area
    /// saved for a frame that restores what was under it, and the decoder's
    /// buffers, the floor a shared budget trims a playing source's state to.
    /// Both 0 after `releaseDecodingState()` until the next decode.
    public var decodingState: DecodingStateBytes {
        DecodingStateBytes(total: decodingStateByteCount, working: workingStateByteCount)
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
    func dropRecordedChanges() {
        guard let deltas else { return }
        deltas.drop()
        drawers.release(.recordedChanges)
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
    ///
    /// With drawers, the working state counts what the shared budget
    /// granted them before they drew (their canvases and the decode-ahead's
    /// buffers at their most, see `WorkingRoom`); below it, the drawers
    /// let go of their canvases too and the grant goes back, and their
    /// players show stills until the budget has room again.
    public func trimDecodingState(toBytes bytes: Int) {
        if let deltas, deltas.byteCount > 0, decodingStateByteCount > max(0, bytes) { dropRecordedChanges() }
        let holdings = scheduler.holdings
        let besides = max(workingRoom.grantedBytes, holdings.workingBytes + drawers.bytes) - holdings.workingBytes
        switch scheduler.trim(toBytes: bytes, besides: besides) {
        case .trimmed:
            break
        case .noSeeker(let left):
            indices.trim(toBytes: left)
        case .belowWorkingState:
            guard decodingStateByteCount > max(0, bytes) else { break }
            releaseDecodingState()
            releaseWorkingState(refused: false)
        }
    }

    /// The bytes of the seeker kept between decodes, for a shared memory
    /// budget: its stored indices, its checkpoints, the frames' recorded
    /// changes and its working state (`workingStateByteCount`); 0 after
    /// `releaseDecodingState()` until the next decode.
    package var decodingStateByteCount: Int {
        let holdings = scheduler.holdings
        return holdings.checkpointBytes + indices.byteCount + (deltas?.byteCount ?? 0) + countedWorking(holdings)
    }

    /// What the seeker keeps between decodes so that playing on costs one
    /// frame (`FrameSeeker.workingStateBytes`): the full-size canvas
    /// (display-size frames are scaled from it) with the area saved for a
    /// frame that restores what was under it, and the decoder's buffers
    /// (the largest frame's indices so far, the code check's scratch,
    /// giflib's handle), the drawers' own, and the frames passed on to
    /// them past the index budget (the next draws'). It is the floor a
    /// shared budget trims a playing source's state to. With drawers under
    /// a shared budget, at least what it granted them before they drew
    /// (see ``trimDecodingState(toBytes:)``). 0 when no decoding state is
    /// held.
    package var workingStateByteCount: Int { countedWorking(scheduler.holdings) }

    /// The working state as counted: the tools' (`holdings`) and the
    /// drawers' bytes, or the grant when it is more (held or not), and the
    /// passing frames.
    private func countedWorking(_ holdings: FrameDecodeScheduler.Holdings) -> Int {
        max(workingRoom.grantedBytes, holdings.workingBytes + drawers.bytes) + indices.passingByteCount
    }
}
