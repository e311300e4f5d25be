/// The decoded palette indices of a GIF's frames, kept within a byte budget
/// so that compositing a frame again (the next loop, a seek back) costs no
/// LZW decoding: the "index tier" between giflib and the canvases.
///
/// Each entry is one frame's rectangle of indices, row-major in display
/// order as ``FrameDecoder/withIndices(_:)`` lends them, with the decode's
/// ``FrameDecoder/Outcome``, so a frame whose data failed part-way redraws
/// the same rows and reports the same error. A frame's indices take one byte
/// per pixel of its own rectangle, a quarter of a canvas pixel and often far
/// less (a screen recording's frames are small changed rectangles).
///
/// Frames are kept first come, first kept: once the budget is full, later
/// frames are not stored and nothing is evicted. A player loops through the
/// frames in order, and for a cyclic walk keeping a fixed prefix saves one
/// decode per held frame every loop, where evicting the oldest would save
/// none.
///
/// Used behind one ``FrameSeeker`` or ``FrameIterator``, from one thread at
/// a time.
final class FrameIndexCache {
    /// One frame's indices and how far its decode got.
    struct Entry {
        var indices: [UInt8]
        var outcome: FrameDecoder.Outcome
    }

    /// The most bytes of indices held.
    let budget: Int
    /// Bytes of indices held now.
    private(set) var byteCount = 0
    /// Frames held now.
    private(set) var frameCount = 0
    /// By frame index; grows as frames are offered.
    private var entries: [Entry?] = []

    init(budget: Int) {
        self.budget = max(0, budget)
    }

    /// Whether a frame of `area` pixels would be kept now.
    func wouldKeep(area: Int) -> Bool { byteCount + area <= budget }

    /// Runs `body` on the stored indices and outcome of frame `index`, or
    /// returns `nil` when they are not held.
    func withEntry<Result>(
        _ index: Int, _ body: (UnsafeBufferPointer<UInt8>, FrameDecoder.Outcome) -> Result
    ) -> Result? {
        guard index < entries.count, let entry = entries[index] else { return nil }
        return entry.indices.withUnsafeBufferPointer { body($0, entry.outcome) }
    }

    /// Keeps a copy of `frame`'s first `area` indices and `outcome` when the
    /// budget has room; does nothing otherwise, or when already held.
    func offer(_ frame: FrameInfo, indices: UnsafeBufferPointer<UInt8>, outcome: FrameDecoder.Outcome) {
        let area = frame.rect.area
        guard area <= indices.count || !outcome.decodedAnything, wouldKeep(area: area) else { return }
        if frame.index >= entries.count {
            entries.append(contentsOf: repeatElement(nil, count: frame.index + 1 - entries.count))
        }
        guard entries[frame.index] == nil else { return }
        let kept = outcome.decodedAnything ? Array(indices[..<area]) : []
        entries[frame.index] = Entry(indices: kept, outcome: outcome)
        byteCount += kept.count
        frameCount += 1
    }

    /// Drops frame `index`'s entry, if held.
    func remove(_ index: Int) {
        guard index < entries.count, let entry = entries[index] else { return }
        entries[index] = nil
        byteCount -= entry.indices.count
        frameCount -= 1
    }

    /// Drops the highest-numbered frames until at most `bytes` are held,
    /// keeping the prefix a looping player gains most from.
    func trim(toBytes bytes: Int) {
        var index = entries.count - 1
        while byteCount > max(0, bytes), index >= 0 {
            remove(index)
            index -= 1
        }
        while let last = entries.last, last == nil { entries.removeLast() }
    }

    /// Drops every entry.
    func removeAll() {
        entries = []
        byteCount = 0
        frameCount = 0
    }

    /// Drops the entries that `grown` (the same GIF read further) may decode
    /// differently: frames whose data had failed (more bytes may complete
    /// them) and frames whose scan changed.
    func keepValid(old: GIFImage, grown: GIFImage) {
        for index in entries.indices {
            guard let entry = entries[index] else { continue }
            let same = index < old.info.frameCount && index < grown.info.frameCount
                && old.info.frames[index] == grown.info.frames[index]
            if entry.outcome.failure != nil || !same { remove(index) }
        }
    }
}
