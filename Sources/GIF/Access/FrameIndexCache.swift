@_spi(Engine) import EngineSupport
import Synchronization

/// The decoded palette indices of a GIF's frames, kept within a byte budget
/// so that compositing a frame again (the next loop, a seek back) costs no
/// LZW decoding: the "index tier" between giflib and the canvases.
///
/// Each entry is one frame's rectangle of indices, row-major in display
/// order as ``FrameDecoder/withIndices(_:)`` lends them, with the decode's
/// ``FrameDecoder/Outcome``, so a frame whose data failed part-way redraws
/// the same rows and reports the same error. A frame's indices take one byte
/// per pixel of its own rectangle, a quarter of a canvas pixel and often far
/// less: a screen recording's frames are small changed rectangles. Each
/// frame is kept in one of three forms (``Form``), chosen when it is stored
/// by its size and what it costs to read back: a whole frame that is mostly
/// one index (transparent around what changed) as ``IndexRuns`` when they
/// take an eighth of it or less, drawn a run at a time; when the GIF's raw
/// indices would not all fit the budget, a whole frame that compresses to
/// seven eighths or less as ``IndexLZ``, read back a band of rows at a time
/// at a small share of a giflib decode; any other frame raw.
///
/// Frames are kept first come, first kept: once the budget is full, later
/// frames are not stored and nothing is evicted. A player loops through the
/// frames in order, and for a cyclic walk keeping a fixed prefix saves one
/// decode per held frame every loop, where evicting the oldest would save
/// none.
///
/// A frame that does not fit may still be offered as *passing*: it is held
/// among the last ``passingLimit`` such frames, oldest dropped first. A
/// decode running ahead of a drawing seeker (one that only composites) hands
/// frames over that way, so frames past the budget still reach it.
///
/// Shared between seekers on different threads (a decoding one and the
/// drawing ones of each player of the same GIF): a lock guards the table,
/// and an entry handed out is an immutable copy-on-write array, so a reader
/// composites from it with the lock released.
package final class FrameIndexCache: Sendable {
    /// One frame's indices and how far its decode got: immutable, and a
    /// class, so that handing one out of the lock to draw from is one
    /// retain, not a copy of its fields.
    package final class Entry: Sendable {
        /// The indices as they are, or encoded as `form` says.
        let indices: [UInt8]
        let form: Form
        let outcome: FrameDecoder.Outcome
        /// The box of the pixels the frame draws that are not transparent
        /// (``DrawnBox/of(_:indices:outcome:rows:)``), found once when
        /// stored so that a draw from the entry scans nothing for its
        /// changed rectangle, with each row's drawn pixels for indices kept
        /// as they are or compressed (a draw from runs finds those as it
        /// writes); `nil` where the compositor keeps the frame's whole
        /// rectangle.
        let drawn: DrawnBox?
        /// The bytes the entry holds: its indices and its rows' drawn
        /// pixels.
        let byteCount: Int

        init(indices: [UInt8], form: Form = .raw, outcome: FrameDecoder.Outcome, drawn: DrawnBox? = nil) {
            self.indices = indices
            self.form = form
            self.outcome = outcome
            self.drawn = drawn
            byteCount = indices.count + (drawn?.rows?.count ?? 0) * FrameIndexCache.drawnRowBytes
        }
    }

    /// How an entry holds its frame's indices, chosen per frame when it is
    /// stored (see ``offer(_:indices:outcome:drawn:)``).
    package enum Form: Sendable {
        /// As they are, one byte a pixel.
        case raw
        /// As ``IndexRuns``, drawn a run at a time.
        case runs
        /// Compressed with ``IndexLZ``, read a band at a time.
        case lz
    }

    /// The most bytes of indices a band drawn from runs takes (at least a
    /// row).
    static let bandBytes = 16 << 10

    private struct Table {
        /// The most bytes stored: the budget, lowered by each trim (see
        /// ``FrameIndexCache/trim(toBytes:)``), back to the budget when
        /// everything is dropped.
        var limit: Int
        /// Whether a trim set ``limit``.
        var trimmed = false
        /// By frame index; grows as frames are offered.
        var entries: [Entry?] = []
        var byteCount = 0
        var frameCount = 0
        /// Frames past the budget handed over to a drawing seeker, oldest
        /// first.
        var passing: [(index: Int, entry: Entry)] = []
        var passingBytes = 0
        /// Frames `0 ..< wholePrefix` are held in `entries`, each whole.
        var wholePrefix = 0

        /// Moves ``wholePrefix`` on past the whole entries that follow it.
        mutating func extendWholePrefix() {
            while wholePrefix < entries.count, let entry = entries[wholePrefix], entry.outcome.failure == nil {
                wholePrefix += 1
            }
        }

        /// Frame `index`'s entry, within the budget or passing.
        func entry(_ index: Int) -> Entry? {
            if index >= 0, index < entries.count, let entry = entries[index] { return entry }
            return passing.last(where: { $0.index == index })?.entry
        }

        /// Whether frame `index`'s entry is held, retaining nothing.
        func holds(_ index: Int) -> Bool {
            (index >= 0 && index < entries.count && entries[index] != nil) || passing.contains { $0.index == index }
        }
    }

    /// The most frames held past the budget.
    package static let passingLimit = 8

    /// The most bytes of indices held once the cache is read alone
    /// (from the start, without ``besideFrames``).
    package let budget: Int
    /// What the cache stores while whole frames are kept beside it, until
    /// it is read alone (``readAlone()``): a display-size source whose
    /// player fetches small frames keeps them, and a frame's indices are
    /// worth keeping beside them only where they take fewer bytes.
    package struct BesideFrames: Sendable {
        /// The most bytes stored; 0: none.
        package var budget: Int
        /// The most bytes one frame's entry may take to be stored within
        /// the budget: a larger one is only ever passed on.
        package var largestEntry: Int

        /// Limits of `budget` bytes, and `largestEntry` for each entry.
        package init(budget: Int, largestEntry: Int = .max) {
            self.budget = max(0, budget)
            self.largestEntry = max(0, largestEntry)
        }
    }
    /// See ``BesideFrames``; `nil`: the same read alone as beside frames.
    let besideFrames: BesideFrames?
    /// Whether a frame kept as its indices keeps each row's drawn pixels.
    let keepsDrawnRows: Bool
    /// The bytes every frame's entry would take kept raw: while the limit
    /// holds them all, no frame is compressed (storing costs a copy, and
    /// reading back nothing); below it, frames are.
    let rawBytes: Int
    private let table: LockedState<Table>
    /// Whether frames past the budget are kept as passing: set once a
    /// drawing seeker reads from this cache.
    private let keepsPassing = Atomic<Bool>(false)
    /// Whether the cache is read alone (``readAlone()``).
    private let readsAlone = Atomic<Bool>(false)
    /// `Table.frameCount`, stored whenever it changes (with the lock held),
    /// so that ``storedFrameCount`` is read without the lock.
    private let storedFrames = Atomic<Int>(0)
    /// How many frames from frame 0 on are held within the budget, each
    /// from a decode that did not fail (`Table.wholePrefix`, stored
    /// whenever it changes, with the lock held): a drawing seeker stepping
    /// through them checks that with one atomic load, not a lock a frame.
    private let wholeFrames = Atomic<Int>(0)

    /// Makes offers of frames past the budget keep them as passing frames,
    /// for the drawing seekers that read from this cache.
    package func keepPassingFrames() { keepsPassing.store(true, ordering: .relaxed) }

    /// Lifts the ``besideFrames`` limits: the cache is read alone, with no
    /// small frames kept beside it, so every frame's indices are worth
    /// keeping, up to ``budget`` (or the limit a trim left, when lower).
    package func readAlone() {
        guard !readsAlone.load(ordering: .relaxed) else { return }
        table.withLock { table in
            readsAlone.store(true, ordering: .relaxed)
            if !table.trimmed { table.limit = budget }
        }
    }

    /// The limit an empty table starts from.
    private var startLimit: Int {
        readsAlone.load(ordering: .relaxed) ? budget : besideFrames?.budget ?? budget
    }

    /// A cache of at most `budget` bytes of indices, or of `besideFrames`'s
    /// until it is read alone (see ``BesideFrames``). With
    /// `keepsDrawnRows`, a frame kept as its indices keeps each row's drawn
    /// pixels too (``DrawnBox/rows``, four bytes a row, counted), for
    /// callers that scale each changed row. `rawBytes` is what the GIF's
    /// frames would take kept raw (their pixels, and their rows' with
    /// `keepsDrawnRows`): when it is over the budget (or a trim's limit),
    /// frames that compress are kept compressed (``IndexLZ``), so that
    /// more of them fit.
    package init(budget: Int, keepsDrawnRows: Bool = false, rawBytes: Int = 0, besideFrames: BesideFrames? = nil) {
        self.budget = max(0, budget)
        self.besideFrames = besideFrames
        self.keepsDrawnRows = keepsDrawnRows
        self.rawBytes = rawBytes
        table = LockedState(Table(limit: min(self.budget, besideFrames?.budget ?? self.budget)))
    }

    /// The bytes each row of a frame kept as its indices adds, with
    /// `keepsDrawnRows`.
    package static let drawnRowBytes = MemoryLayout<UInt32>.size

    /// Asked before an offered frame is kept: whether its bytes may be
    /// held (see ``admit(through:)``).
    private let admission = LockedState<(@Sendable (Int) -> Bool)?>(nil)

    /// Has every frame offered later be kept within the budget only when
    /// `gate` grants its bytes first (a memory budget shared with other
    /// sources, counting them before they are held); a frame refused is
    /// kept as passing, when frames are, as one past the budget is. Called
    /// with no lock of this store held.
    package func admit(through gate: @escaping @Sendable (Int) -> Bool) {
        admission.withLock { $0 = gate }
    }

    /// See ``admitPassing(through:)``.
    private let passingAdmission = LockedState<(@Sendable (Int) -> Bool)?>(nil)

    /// Has a frame ``admit(through:)``'s gate refused be passed on only when
    /// `gate` grants what it adds beyond what the oldest passing frame and the
    /// store's own frames free (refused, it is not kept). Called unlocked.
    package func admitPassing(through gate: @escaping @Sendable (Int) -> Bool) {
        passingAdmission.withLock { $0 = gate }
    }

    /// Bytes of indices held now within the budget.
    package var byteCount: Int { table.withLock { $0.byteCount } }
    /// Bytes of passing frames held now.
    package var passingByteCount: Int { table.withLock { $0.passingBytes } }
    /// Frames held now within the budget.
    package var frameCount: Int { table.withLock { $0.frameCount } }

    /// Frames held now within the budget, read without the lock: one atomic
    /// load, for a check made on every tick (whether every frame of a GIF
    /// is held, so that nothing is left to ask for). A frame stored or
    /// dropped by another thread meanwhile may be counted or not.
    package var storedFrameCount: Int { storedFrames.load(ordering: .acquiring) }

    /// The entry of frame `index`, within the budget or passing.
    package func entry(_ index: Int) -> Entry? {
        table.withLock { $0.entry(index) }
    }

    /// Draws `frame` from its stored indices into `compositor` and returns
    /// its decode's outcome, or returns `nil` when they are not held. Runs
    /// and compressed indices are read into `band` (grown to a band's size
    /// once, then reused) a band of rows at a time.
    func draw(_ frame: FrameInfo, into compositor: inout Compositor, band: inout [UInt8]) -> FrameDecoder.Outcome? {
        guard let entry = entry(frame.index) else { return nil }
        compositor.takeDrawnBox(entry.drawn)
        let width = frame.rect.width
        switch entry.form {
        case .raw:
            entry.indices.withUnsafeBufferPointer { compositor.draw(frame, indices: $0, outcome: entry.outcome) }
        case .runs:
            if entry.indices.withUnsafeBufferPointer({ compositor.drawRuns(frame, runs: $0) }) { return entry.outcome }
            var reader = IndexRuns.Reader(entry.indices)
            Self.drawBands(frame, rowsPerBand: max(1, Self.bandBytes / max(1, width)), into: &compositor, band: &band) {
                reader.read(into: $0) == $0.count
            }
        case .lz:
            entry.indices.withUnsafeBufferPointer { encoded in
                var reader = IndexLZ.Reader(encoded)
                Self.drawBands(frame, rowsPerBand: IndexLZ.rowsPerBand(width: width), into: &compositor, band: &band) {
                    reader.read(into: $0) == $0.count
                }
            }
        }
        return entry.outcome
    }

    /// Draws the whole, not interlaced `frame` `rowsPerBand` rows at a
    /// time, each band's indices read into `band` (grown to a band's size
    /// once, then reused) by `read`, which fills the buffer it is given
    /// and returns whether it could: entries of whole frames fill every
    /// band, so a `false` (a malformed entry) stops the draw there.
    private static func drawBands(
        _ frame: FrameInfo, rowsPerBand: Int, into compositor: inout Compositor, band: inout [UInt8],
        read: (UnsafeMutableBufferPointer<UInt8>) -> Bool
    ) {
        let width = frame.rect.width, height = frame.rect.height
        if band.count < rowsPerBand * width { band = [UInt8](repeating: 0, count: rowsPerBand * width) }
        band.withUnsafeMutableBufferPointer { buffer in
            var row = 0
            while row < height {
                let rows = min(rowsPerBand, height - row)
                let slice = UnsafeMutableBufferPointer(rebasing: buffer[..<(rows * width)])
                guard read(slice) else { return }
                compositor.drawBand(frame, rows: row..<row + rows, indices: UnsafeBufferPointer(slice))
                row += rows
            }
        }
    }

    /// Whether every frame of `frames` has its indices held, checked under
    /// one lock without retaining anything.
    package func holdsAll(_ frames: [Int]) -> Bool {
        table.withLock { table in frames.allSatisfy { table.holds($0) } }
    }

    /// Whether every frame of `frames` has its indices held, from a decode
    /// that did not fail: compositing them one after another then throws
    /// nothing. Checked under one lock.
    package func holdsWhole(_ frames: ClosedRange<Int>) -> Bool {
        if frames.lowerBound >= 0, frames.upperBound < wholeFrames.load(ordering: .acquiring) { return true }
        return table.withLock { table in frames.allSatisfy { table.entry($0).map { $0.outcome.failure == nil } ?? false } }
    }

    /// The first frame of `frames` whose indices are not held, or `nil`.
    package func firstMissing(in frames: ClosedRange<Int>) -> Int? {
        if frames.lowerBound >= 0, frames.upperBound < wholeFrames.load(ordering: .acquiring) { return nil }
        return table.withLock { table in frames.first { !table.holds($0) } }
    }

    /// Keeps a copy of `frame`'s first `area` indices and `outcome` when the
    /// budget has room, or (once ``keepPassingFrames()`` was called) among
    /// the passing frames; does
    /// nothing otherwise, or when already held. The copy is made with the
    /// lock released, in the form ``entry(of:_:outcome:drawn:runnable:compresses:keepsDrawnRows:)``
    /// chooses; frames are compressed only while the store's limit is
    /// below ``rawBytes``. `drawn` is the frame's drawn box when a
    /// compositor found it drawing these indices; otherwise it is found
    /// here.
    func offer(
        _ frame: FrameInfo, indices: UnsafeBufferPointer<UInt8>, outcome: FrameDecoder.Outcome, drawn: DrawnBox? = nil
    ) {
        let passing = keepsPassing.load(ordering: .relaxed)
        let largestEntry = readsAlone.load(ordering: .relaxed) ? Int.max : besideFrames?.largestEntry ?? .max
        let area = frame.rect.area
        guard area <= indices.count || !outcome.decodedAnything else { return }
        // Only a whole frame drawn in display order is read back in bands.
        let runnable = !frame.isInterlaced && outcome.failure == nil && outcome.partialPixels == 0
            && outcome.rows == frame.rect.height
        var compresses = false
        let fits = table.withLock { table -> Bool? in
            if frame.index < table.entries.count, table.entries[frame.index] != nil { return nil }
            compresses = table.limit < rawBytes
            if (table.byteCount + area <= table.limit && area <= largestEntry) || (runnable && table.byteCount < table.limit) {
                return true
            }
            return passing && !table.passing.contains(where: { $0.index == frame.index }) ? false : nil
        }
        guard let fits else { return }
        let whole = UnsafeBufferPointer(rebasing: indices[..<(outcome.decodedAnything ? area : 0)])
        // A frame only passed on is drawn once or twice: not worth compressing.
        let entry = Self.entry(of: frame, whole, outcome: outcome, drawn: drawn, runnable: runnable,
                               compresses: compresses && fits, keepsDrawnRows: keepsDrawnRows)
        // Room for the entry is asked before it is held: a frame the
        // budget over this store has no room for is only passed on, in
        // room this store's own last frames make.
        let admitted = admission.withLock { $0 }?(entry.byteCount) ?? true
        // Refused, passing it on asks for what the store cannot free of its own.
        if !admitted, passing, let gate = passingAdmission.withLock({ $0 }), case let adds = table.withLock({
            entry.byteCount - $0.byteCount - ($0.passing.count == Self.passingLimit ? $0.passing[0].entry.byteCount : 0)
        }), adds > 0, !gate(adds) { return }
        table.withLock { table in
            if fits, admitted, table.byteCount + entry.byteCount <= table.limit, entry.byteCount <= largestEntry {
                if frame.index >= table.entries.count {
                    table.entries.append(contentsOf: repeatElement(nil, count: frame.index + 1 - table.entries.count))
                }
                guard table.entries[frame.index] == nil else { return }
                table.entries[frame.index] = entry
                table.byteCount += entry.byteCount
                table.frameCount += 1
                storedFrames.store(table.frameCount, ordering: .releasing)
                if frame.index == table.wholePrefix {
                    table.extendWholePrefix()
                    wholeFrames.store(table.wholePrefix, ordering: .releasing)
                }
            } else if passing {
                var freed = 0
                if table.passing.count == Self.passingLimit {
                    freed = table.passing.removeFirst().entry.byteCount
                    table.passingBytes -= freed
                }
                if !admitted {
                    var index = table.entries.count - 1
                    while freed < entry.byteCount, index >= 0 {
                        freed += table.entries[index]?.byteCount ?? 0
                        remove(index, from: &table)
                        index -= 1
                    }
                    while let last = table.entries.last, last == nil { table.entries.removeLast() }
                    if table.byteCount < table.limit {
                        table.limit = table.byteCount
                        table.trimmed = true
                    }
                }
                table.passing.append((frame.index, entry))
                table.passingBytes += entry.byteCount
            }
        }
    }

    /// The entry `frame`'s `indices` (its whole rectangle's, or none when
    /// nothing decoded) are kept as, in the form that costs least to read
    /// back among those that take few enough bytes:
    /// - ``Form/runs`` when the frame is whole (`runnable`: decoded in full,
    ///   not interlaced) and ``IndexRuns`` take an eighth of its indices or
    ///   less: a fill a run, cheaper to draw than the indices themselves;
    /// - else ``Form/lz`` when the frame is whole, the GIF's raw indices do
    ///   not fit the store (`compresses`) and ``IndexLZ`` takes at most
    ///   seven eighths of them: a band's decode before each band is drawn,
    ///   a small share of giflib's, for the frames that would otherwise not
    ///   be kept at all;
    /// - else ``Form/raw``, read at no cost.
    /// `drawn` is the frame's drawn box when a compositor found it drawing
    /// these indices; otherwise it is found here (and, with
    /// `keepsDrawnRows`, each row's part of it for indices kept raw or
    /// compressed).
    private static func entry(
        of frame: FrameInfo, _ indices: UnsafeBufferPointer<UInt8>, outcome: FrameDecoder.Outcome, drawn: DrawnBox?,
        runnable: Bool, compresses: Bool, keepsDrawnRows: Bool
    ) -> Entry {
        if runnable, let runs = IndexRuns.encode(indices) {
            return Entry(indices: runs, form: .runs, outcome: outcome,
                         drawn: drawn ?? DrawnBox.of(frame, indices: indices, outcome: outcome))
        }
        let box = keepsDrawnRows
            ? DrawnBox.of(frame, indices: indices, outcome: outcome, rows: true)
            : drawn ?? DrawnBox.of(frame, indices: indices, outcome: outcome)
        if runnable, compresses, let compressed = IndexLZ.encode(indices, width: frame.rect.width) {
            return Entry(indices: compressed, form: .lz, outcome: outcome, drawn: box)
        }
        return Entry(indices: Array(indices), outcome: outcome, drawn: box)
    }

    /// Drops frame `index`'s entry, if held within the budget.
    func remove(_ index: Int) {
        table.withLock { remove(index, from: &$0) }
    }

    private func remove(_ index: Int, from table: inout Table) {
        guard index < table.entries.count, let entry = table.entries[index] else { return }
        table.entries[index] = nil
        table.byteCount -= entry.byteCount
        table.frameCount -= 1
        storedFrames.store(table.frameCount, ordering: .releasing)
        if index < table.wholePrefix {
            table.wholePrefix = index
            wholeFrames.store(index, ordering: .releasing)
        }
    }

    /// Drops the highest-numbered frames, then the oldest passing frames,
    /// until at most `bytes` are held in all, keeping the prefix a looping
    /// player gains most from and the frames just passed on to a drawing
    /// seeker (the next draw's); and stores no more than the trim left from
    /// then on, until ``removeAll()``, frames past that being passed on.
    /// A store that grew back to its own budget after each trim, or a trim
    /// that dropped the passing frames first, would give a shared budget
    /// smaller than the GIF's indices the very frames the decode-ahead had
    /// just decoded for the next draw, again and again, and the draw would
    /// never find them.
    package func trim(toBytes bytes: Int) {
        table.withLock { table in
            let target = max(0, bytes)
            let limit = min(table.limit, max(0, target - table.passingBytes))
            if limit < table.limit { table.trimmed = true }
            table.limit = limit
            var index = table.entries.count - 1
            while table.byteCount > table.limit, index >= 0 {
                remove(index, from: &table)
                index -= 1
            }
            while let last = table.entries.last, last == nil { table.entries.removeLast() }
            while table.byteCount + table.passingBytes > target, !table.passing.isEmpty {
                table.passingBytes -= table.passing.removeFirst().entry.byteCount
            }
        }
    }

    /// Drops every entry.
    package func removeAll() {
        table.withLock { table in
            table = Table(limit: startLimit)
            storedFrames.store(0, ordering: .releasing)
            wholeFrames.store(0, ordering: .releasing)
        }
    }

    /// Drops the entries that `grown` (the same GIF read further) may decode
    /// differently: frames whose data had failed (more bytes may complete
    /// them) and frames whose scan changed.
    func keepValid(old: GIFImage, grown: GIFImage) {
        table.withLock { table in
            table.passing.removeAll()
            table.passingBytes = 0
            for index in table.entries.indices {
                guard let entry = table.entries[index] else { continue }
                let same = index < old.info.frameCount && index < grown.info.frameCount
                    && old.info.frames[index] == grown.info.frames[index]
                if entry.outcome.failure != nil || !same { remove(index, from: &table) }
            }
        }
    }
}
