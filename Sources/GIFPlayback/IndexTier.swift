@_spi(Benchmarks) import GIF
import Playback

/// The index tier a ``GIFFrameSource`` keeps: the frames' stored palette
/// indices, shared by the source's seeker, its decode-ahead for drawers and
/// every drawer's seeker, and the frames giflib decoded to choose it.
struct IndexTier: Sendable {
    /// The stored indices.
    let indices: FrameIndexCache
    /// The frames giflib decoded at creation to choose the tier.
    let probeDecodes: Int

    /// The index tier of a source of `image` with `budget` bytes for
    /// indices, scaled by `filter` (`nil`: full size).
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
    /// tier (`GIFFrameSource.makeDrawer(notifying:)`), which keeps no small
    /// frames, either keeps every frame's indices up to the whole budget
    /// (`FrameIndexCache.readAlone()`), compressed where the GIF's raw
    /// indices would not fit it.
    init(of image: GIFImage, budget: Int, filter: BoxFilter?) {
        // At a display size, indices kept as they are keep each row's
        // drawn pixels too, so that a draw scales each changed row's.
        let scaled = filter != nil
        let rowsNeed = scaled ? image.info.frames.reduce(0) { $0 + $1.rect.height } * FrameIndexCache.drawnRowBytes : 0
        let indexNeed = image.info.framePixelCount + rowsNeed
        let frameBytes = filter?.outputByteCount ?? image.info.canvasSize.area * 4
        let framesBytes = frameBytes * image.info.frameCount
        let tierBudget = min(budget, indexNeed)
        if indexNeed < framesBytes {
            indices = FrameIndexCache(budget: tierBudget, keepsDrawnRows: scaled, rawBytes: indexNeed)
            probeDecodes = 0
            return
        }
        guard scaled, budget > 0, let first = image.info.frames.first else {
            indices = FrameIndexCache(budget: 0)
            probeDecodes = 0
            return
        }
        // A drawer keeps no small frames: with one, the cache is read
        // alone and every frame's indices are kept, up to the budget (see
        // `FrameIndexCache.readAlone()`).
        let keeps = FrameIndexCache(
            budget: tierBudget, keepsDrawnRows: true, rawBytes: indexNeed,
            besideFrames: FrameIndexCache.BesideFrames(budget: min(budget, framesBytes), largestEntry: frameBytes - 1))
        let decoder = FrameIndexDecoder()
        let runs = decoder.measureRuns(keeps, frame: 0, of: image)
        let encoded = image.info.frames.reduce(0) { $0 + max(0, $1.dataEnd - $1.dataOffset) }
        let estimate = runs.map { Double($0) * Double(encoded) / Double(max(1, first.dataEnd - first.dataOffset)) }
        indices = estimate.map { $0 < Double(framesBytes) } ?? false ? keeps : FrameIndexCache(
            budget: tierBudget, keepsDrawnRows: true, rawBytes: indexNeed,
            besideFrames: FrameIndexCache.BesideFrames(budget: 0))
        probeDecodes = decoder.decodeCount
    }

    /// The tier of a ``ProgressiveGIFFrameSource``'s engine: every frame's
    /// indices as they are, within `budget` bytes, nothing probed.
    init(progressiveBudget budget: Int) {
        indices = FrameIndexCache(budget: budget)
        probeDecodes = 0
    }
}
