extension FramePresenter {
    /// The **recorded-changes** branch: writes the recorded changes of the
    /// frames after the one shown up to `index` into `buffer`, which holds
    /// the frame shown, and returns the rectangle they cover, counting on
    /// through the loop's end (frame 0's change is the restart's); `nil`
    /// (writing nothing) when the branch is off, the set is not sealed,
    /// nothing is shown, or `index` is more than half a loop on (a step
    /// back, in a player going backwards). A host slower than the GIF
    /// copies the changes on the way, where the compositor, left behind by
    /// these draws, would composite from a checkpoint.
    mutating func drawRecorded(_ index: Int, into buffer: UnsafeMutableRawBufferPointer, bytesPerRow: Int)
        -> PixelRect?
    {
        guard let shown = drawn, branches.contains(.recordedChanges), let generation = deltas?.generation else {
            return nil
        }
        if generation != recordedGeneration {
            recorded = deltas?.sealed
            recordedGeneration = generation
        }
        guard let sealed = recordedStorage, let base = buffer.baseAddress else { return nil }
        let count = sealed.count
        guard (0..<count).contains(shown), (0..<count).contains(index) else { return nil }
        let steps = index >= shown ? index - shown : index - shown + count
        guard steps > 0, steps <= max(Self.maximumSteppedFrames, count / 2) else { return nil }
        var changed = PixelRect(x: 0, y: 0, width: 0, height: 0)
        var frame = shown
        for _ in 0..<steps {
            frame = frame + 1 == count ? 0 : frame + 1
            changed = changed.union(sealed.apply(frame, to: base, bytesPerRow: bytesPerRow))
        }
        return changed
    }

    /// Lets go of the recorded changes, which their store dropped.
    package mutating func releaseRecordedChanges() {
        recorded = nil
        recordedGeneration = -1
    }

    /// Records `frame`'s changed pixels (frame 0: the restart's) from the
    /// canvas, when composited whole at full size and not recorded yet;
    /// returns whether a shared memory budget should count the store
    /// again (see ``FrameDeltaStore/record(_:rect:of:bytesPerRow:rows:)``).
    func record(_ frame: FrameCopy, canvas: inout some FrameCompositing) -> Bool {
        guard filter == nil, frame.isComplete, let deltas else { return false }
        let bytesPerRow = width * 4
        var grew = false
        canvas.withCanvas { pixels in
            grew = deltas.record(
                frame.index, rect: frame.changedRect, of: UnsafeRawBufferPointer(pixels), bytesPerRow: bytesPerRow)
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
    /// recorded: every other pixel of the rectangle reads no change. Kept
    /// within the store's limit, as at full size: a set scaled to a cell
    /// is small beside the stored indices it lets later loops leave unread,
    /// and a shared budget gives recorded changes back first.
    func recordScaled(
        _ frame: FrameCopy, from buffer: UnsafeMutableRawBufferPointer, bytesPerRow: Int,
        rows: FrameDeltaStore.RowColumns?
    ) -> Bool {
        guard filter != nil, frame.isComplete, let deltas, deltas.isRecording else { return false }
        return deltas.record(
            frame.index, rect: scaled(frame.changedRect), of: UnsafeRawBufferPointer(buffer), bytesPerRow: bytesPerRow,
            rows: rows)
    }
}
