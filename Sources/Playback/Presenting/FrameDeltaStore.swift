@_spi(Engine) import EngineSupport
import Synchronization

/// The pixels each frame of a GIF changes, as drawn (at full size, or
/// scaled to the source's display size), kept so that a drawer stepping
/// through a loop it has drawn once copies them into the host's buffer
/// instead of compositing (and scaling) the frame again.
///
/// A frame's delta is its changed rectangle of the canvas after it, which
/// covers every pixel that differs from the frame before (at a display
/// size, of each row only the stretch the draw scaled, when it scaled row
/// by row: the rest of the row reads no change); the restart
/// delta is frame 0's canvas where the loop's frames changed it, what a
/// loop starting again from the last frame writes. Drawers record them as
/// they step through frames composited whole. Once every frame's and the
/// restart's are in, the set is sealed and read without a lock per frame;
/// a set that would pass ``limit`` is given up, as soon as its first frames
/// at their size over the whole loop would pass it by far, as is one
/// dropped to give memory back (a shared budget's trim, or a reservation
/// it refused): from then on this store records nothing, so a budget that trims
/// it does not see it grow back loop after loop.
///
/// Shared by every drawer of one source, on any thread: a lock guards the
/// table, and each delta is immutable.
package final class FrameDeltaStore: Sendable {
    /// One frame's changed rectangle and its pixels, as recorded, in one
    /// allocation of its own that the delta frees: rows of `rect.width × 4`
    /// bytes, or with spans, each row's stretch of it (`first | end << 16`,
    /// columns of the canvas, one `UInt32` a row of `rect` before the
    /// pixels; empty when `first` is not below `end`), the rows' stretches
    /// packed one after another. A sealed set keeps the deltas as they
    /// were recorded: sealing copies no pixels.
    final class Delta: @unchecked Sendable {
        let rect: PixelRect
        /// The row stretches, or `nil` for whole rows.
        let spans: UnsafeMutablePointer<UInt32>?
        let pixels: UnsafeMutableRawPointer
        /// The bytes allocated: stretches and pixels.
        let byteCount: Int
        private let memory: UnsafeMutableRawPointer

        /// A delta of `rect` with room for `pixelBytes` of pixels, and for
        /// its row stretches when `withSpans`; the caller fills them in.
        init(rect: PixelRect, withSpans: Bool, pixelBytes: Int) {
            let spanBytes = withSpans ? rect.height * MemoryLayout<UInt32>.stride : 0
            self.rect = rect
            byteCount = spanBytes + pixelBytes
            memory = .allocate(byteCount: max(1, byteCount), alignment: 16)
            spans = withSpans ? memory.bindMemory(to: UInt32.self, capacity: rect.height) : nil
            pixels = memory + spanBytes
        }

        deinit { memory.deallocate() }
    }

    /// The columns a draw wrote in each row (``BoxFilter``'s `rowColumns`):
    /// row `y` from `columns[2 (y - firstRow)]` up to
    /// `columns[2 (y - firstRow) + 1]`; rows it does not reach wrote none.
    struct RowColumns {
        let columns: UnsafeBufferPointer<Int>
        let firstRow: Int

        /// Row `y`'s stretch within `rect`'s columns, `first ..< end`
        /// (empty when `first` is not below `end`).
        func stretch(_ y: Int, within rect: PixelRect) -> (first: Int, end: Int) {
            let j = y - firstRow
            guard j >= 0, 2 * j + 1 < columns.count else { return (rect.x, rect.x) }
            return (max(columns[2 * j], rect.x), min(columns[2 * j + 1], rect.x + rect.width))
        }
    }

    /// A whole set: frame `i`'s delta (`i` = 0: the restart's). Its
    /// storage is read through ``storage``, pointers that a drawer keeps
    /// beside the set, so that a draw retains nothing; `@unchecked
    /// Sendable` for them: written only in `init`, read-only after.
    package final class Sealed: @unchecked Sendable {
        /// The set's storage, valid while the set lives: whoever reads
        /// through it holds the set.
        let storage: Storage
        /// The deltas, kept alive for the storage's pointers into them.
        private let deltas: [Delta]

        init(_ deltas: [Delta]) {
            self.deltas = deltas
            let entries = UnsafeMutablePointer<Storage.Entry>.allocate(capacity: max(1, deltas.count))
            for (i, delta) in deltas.enumerated() {
                (entries + i).initialize(to: Storage.Entry(
                    rect: delta.rect, spans: delta.spans.map { UnsafePointer($0) },
                    pixels: UnsafeRawPointer(delta.pixels)))
            }
            storage = Storage(count: deltas.count, entries: entries)
        }

        deinit { storage.entries.deallocate() }
    }

    /// A sealed set's storage (``Sealed/storage``): plain pointers, copied
    /// and read with no reference counting.
    struct Storage {
        /// Where a frame's delta is.
        fileprivate struct Entry {
            let rect: PixelRect
            let spans: UnsafePointer<UInt32>?
            let pixels: UnsafeRawPointer
        }

        /// The frames the set is for.
        let count: Int
        fileprivate let entries: UnsafeMutablePointer<Entry>

        /// Writes frame `index`'s pixels (0: the restart's) into `buffer`,
        /// whose rows are `bytesPerRow` apart and which the caller checked
        /// holds the canvas, and returns its rectangle.
        func apply(_ index: Int, to buffer: UnsafeMutableRawPointer, bytesPerRow: Int) -> PixelRect {
            let entry = entries[index], rect = entry.rect, rowBytes = rect.width * 4
            guard !rect.isEmpty else { return rect }
            let from = entry.pixels, to = buffer + rect.y * bytesPerRow + rect.x * 4
            if let spans = entry.spans {
                var from = from, row = buffer + rect.y * bytesPerRow
                for span in UnsafeBufferPointer(start: spans, count: rect.height) {
                    let first = Int(span & 0xFFFF), bytes = (Int(span >> 16) - first) * 4
                    if bytes > 0 {
                        (row + first * 4).copyMemory(from: from, byteCount: bytes)
                        from += bytes
                    }
                    row += bytesPerRow
                }
            } else if rowBytes == bytesPerRow {
                // Whole rows of a buffer without padding: one copy.
                to.copyMemory(from: from, byteCount: rect.height * rowBytes)
            } else if rowBytes <= Self.inlineRowBytes {
                Self.copySmallRows(rect.height, of: rowBytes, from: from, to: to, stride: bytesPerRow)
            } else {
                copyRows(rect.height, of: rowBytes, from: from, stride: rowBytes, to: to, stride: bytesPerRow)
            }
            return rect
        }

        /// Rows up to this long (a sprite's 16 or 32 pixels) are copied
        /// 16 bytes at a time in place: a library call a row cost more
        /// than the copy.
        static let inlineRowBytes = 128

        /// Copies `rows` rows of `rowBytes` bytes (whole pixels), packed at
        /// `from`, to rows `stride` bytes apart at `to`: 16 bytes at a
        /// time, then 8 and 4.
        @inline(__always)
        private static func copySmallRows(
            _ rows: Int, of rowBytes: Int, from: UnsafeRawPointer, to: UnsafeMutableRawPointer, stride: Int
        ) {
            var from = from, to = to
            for _ in 0..<rows {
                var offset = 0
                while offset &+ 16 <= rowBytes {
                    to.storeBytes(of: from.loadUnaligned(fromByteOffset: offset, as: SIMD16<UInt8>.self),
                                  toByteOffset: offset, as: SIMD16<UInt8>.self)
                    offset &+= 16
                }
                if offset &+ 8 <= rowBytes {
                    to.storeBytes(of: from.loadUnaligned(fromByteOffset: offset, as: UInt64.self),
                                  toByteOffset: offset, as: UInt64.self)
                    offset &+= 8
                }
                if offset < rowBytes {
                    to.storeBytes(of: from.loadUnaligned(fromByteOffset: offset, as: UInt32.self),
                                  toByteOffset: offset, as: UInt32.self)
                }
                from += rowBytes
                to += stride
            }
        }
    }

    private struct Table {
        /// By frame index; empty until the first delta is recorded.
        var deltas: [Delta?] = []
        var recorded = 0
        var byteCount = 0
        var sealed: Sealed?
        /// Set once the set would pass the limit or was dropped.
        var givenUp = false

        /// Whether frame `index`'s delta is still to record, among
        /// `frameCount` frames.
        func wants(_ index: Int, of frameCount: Int) -> Bool {
            !givenUp && sealed == nil && (0..<frameCount).contains(index) && (deltas.isEmpty || deltas[index] == nil)
        }
    }

    /// The most bytes of pixels kept.
    let limit: Int
    /// The frames a set is for.
    let frameCount: Int
    private let table = LockedState(Table())
    /// Whether deltas are still recorded (not sealed, not given up): read
    /// without the lock on every frame a drawer composites.
    private let recording = Atomic<Bool>(true)
    /// Moves on when the set is sealed or dropped.
    private let changes = Atomic<Int>(0)
    /// The bytes of pixels between two reports to the memory budget
    /// (``record(_:rect:of:bytesPerRow:rows:)``'s result).
    static let reportStep = 256 << 10
    /// The frames recorded before the set's size is projected over the
    /// loop (see ``record(_:rect:of:bytesPerRow:rows:)``).
    static let framesBeforeProjecting = 16
    /// How many times its limit a set's projection passes before the set
    /// is given up early.
    static let projectionMargin = 2.0

    /// A store for the `frameCount` frames of a GIF, of at most `limit`
    /// bytes of pixels. Nothing is allocated until a delta is recorded.
    ///
    /// With `allowance`, each delta's bytes are asked of it before they
    /// are held, frames alone making room (a draw never has another source
    /// trim); a delta refused gives the set up, as one past the limit does.
    package init(frameCount: Int, limit: Int, allowance: StateAllowance? = nil) {
        self.limit = max(0, limit)
        self.frameCount = max(0, frameCount)
        self.allowance = allowance
    }

    /// What each delta's bytes are asked of before they are held.
    private let allowance: StateAllowance?

    /// The whole set, once sealed.
    package var sealed: Sealed? { table.withLock { $0.sealed } }

    /// A count that moves on when the set is sealed or dropped, read
    /// without the lock: a drawer keeps the set it read while this stands
    /// still.
    var generation: Int { changes.load(ordering: .acquiring) }

    /// The bytes held: pixels, and row stretches.
    package var byteCount: Int { table.withLock { $0.byteCount } }

    /// Whether deltas are still recorded (the set neither sealed nor given
    /// up), read without the lock.
    var isRecording: Bool { recording.load(ordering: .relaxed) }

    /// Records frame `index`'s delta (0: the restart's): `rect` of
    /// `pixels`, whose rows are `bytesPerRow` apart (a drawer's full-size
    /// canvas, or at a display size the host's buffer it has just written),
    /// copied with the lock released. Does nothing when it is held already
    /// or the set is given up; gives the set up, before copying anything,
    /// when it would pass ``limit``, and once ``framesBeforeProjecting``
    /// frames are in, when their bytes times the frames over the frames
    /// recorded (the set's projected size) would pass it
    /// ``projectionMargin`` times. With `rows`, only each row's
    /// stretch of `rect` is kept, and four bytes a row. Returns whether the
    /// bytes held changed enough for a shared memory budget to count them
    /// again: the set sealed or given up, or another ``reportStep`` bytes
    /// recorded.
    @discardableResult
    func record(
        _ index: Int, rect: PixelRect, of pixels: UnsafeRawBufferPointer, bytesPerRow: Int, rows: RowColumns? = nil
    ) -> Bool {
        // A frame that changes nothing has an empty delta.
        let rect = rect.isEmpty ? PixelRect(x: 0, y: 0, width: 0, height: 0) : rect
        let rowBytes = rect.width * 4
        guard rect.x >= 0, rect.y >= 0, rect.x + rect.width <= 0xFFFF, (rect.x + rect.width) * 4 <= bytesPerRow,
              rect.isEmpty || (rect.y + rect.height - 1) * bytesPerRow + rect.x * 4 + rowBytes <= pixels.count
        else { return false }
        // With each row's stretch: its pixels and four bytes a row.
        var size = rect.height * rowBytes
        if let rows, !rect.isEmpty {
            size = 4 * rect.height
            for y in rect.y..<rect.y + rect.height {
                let (first, end) = rows.stretch(y, within: rect)
                size += max(0, end - first) * 4
            }
        }
        guard recording.load(ordering: .relaxed) else { return false }
        let fits = table.withLock { table -> Bool? in
            guard table.wants(index, of: frameCount) else { return nil }
            guard table.byteCount + size <= limit else {
                table = Table(givenUp: true)
                return false
            }
            return true
        }
        guard let fits else { return false }
        guard fits else {
            recording.store(false, ordering: .relaxed)
            return true
        }
        if let allowance, !allowance.reserve(size) {
            drop()
            return true
        }
        let withSpans = rows != nil && !rect.isEmpty
        let delta = Delta(rect: rect, withSpans: withSpans, pixelBytes: withSpans ? size - 4 * rect.height : size)
        if let base = pixels.baseAddress {
            if let rows, let spans = delta.spans {
                var to = delta.pixels
                for j in 0..<rect.height {
                    let (first, end) = rows.stretch(rect.y + j, within: rect)
                    guard first < end else {
                        spans[j] = 0
                        continue
                    }
                    spans[j] = UInt32(first) | UInt32(end) << 16
                    let bytes = (end - first) * 4
                    to.copyMemory(from: base + (rect.y + j) * bytesPerRow + first * 4, byteCount: bytes)
                    to += bytes
                }
            } else {
                copyRows(
                    rect.height, of: rowBytes, from: base + rect.y * bytesPerRow + rect.x * 4, stride: bytesPerRow,
                    to: delta.pixels, stride: rowBytes)
            }
        }
        return table.withLock { table in
            // Another drawer may have recorded it, or the set been
            // dropped, meanwhile.
            guard table.wants(index, of: frameCount), table.byteCount + size <= limit else { return false }
            if table.deltas.isEmpty { table.deltas = Array(repeating: nil, count: frameCount) }
            let before = table.byteCount / Self.reportStep
            table.deltas[index] = delta
            table.byteCount += size
            table.recorded += 1
            // A set whose frames so far, at the same size for the rest of
            // the loop, would pass the limit ``projectionMargin`` times, is
            // given up now, not held until it does. (The margin,
            // because a GIF's first frames often change more than the
            // rest: an intro, a shuffle being sorted.)
            let projected = Double(table.byteCount) * Double(frameCount) / Double(table.recorded)
            if table.recorded >= Self.framesBeforeProjecting, table.recorded < frameCount,
               projected > Self.projectionMargin * Double(limit) {
                table = Table(givenUp: true)
                recording.store(false, ordering: .relaxed)
                return true
            }
            if table.recorded == frameCount {
                table.sealed = Sealed(table.deltas.map { $0! })
                table.deltas = []
                recording.store(false, ordering: .relaxed)
                changes.add(1, ordering: .releasing)
                return true
            }
            return table.byteCount / Self.reportStep != before
        }
    }

    /// Drops every delta and records no more: memory given back once the
    /// drawers holding the set let it go (see
    /// `releaseDecodingState()`).
    package func drop() {
        table.withLock { $0 = Table(givenUp: true) }
        recording.store(false, ordering: .relaxed)
        changes.add(1, ordering: .releasing)
    }
}
