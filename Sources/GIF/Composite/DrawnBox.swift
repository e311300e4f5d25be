/// The bounding box of the pixels a frame draws that are not its
/// transparent index, in the frame's coordinates, grown row by row as the
/// frame is drawn.
///
/// A frame whose rectangle covers the canvas but whose pixels are mostly
/// transparent (an optimiser's way of storing "only this moved") changes
/// only this box: a host that redraws, scales or records the changed
/// rectangle then handles that, not the whole canvas.
///
/// Each row is read a word (8 indices) at a time from the left to its first
/// drawn pixel, then from the right down to the box's right edge: a row
/// costs a pass over its transparent margins, not over the pixels drawn.
struct DrawnBox: Sendable {
    private var left = Int.max, right = -1, top = Int.max, bottom = -1
    /// Whether this is the box of a whole draw, known beforehand (see
    /// ``of(_:indices:outcome:rows:)``): ``extend(rows:firstRow:of:width:count:transparent:spans:)``
    /// leaves it as it is.
    private(set) var isWhole = false
    /// Each frame row's first and last drawn pixel, `first | last << 16`
    /// (``emptyRow`` for a row that draws none), when asked for: what a
    /// host that scales each changed row redraws, where the box may span
    /// scattered shapes.
    private(set) var rows: [UInt32]?

    /// A row of ``rows`` that draws no pixel: its first past its last.
    static let emptyRow: UInt32 = 0xFFFF

    /// The first and last drawn column a row of ``rows`` holds (the first
    /// past the last for ``emptyRow``), from the frame's left edge.
    static func columns(of row: UInt32) -> (first: Int, last: Int) {
        (Int(row & 0xFFFF), Int(row >> 16))
    }

    /// An empty box, grown as the frame is drawn.
    init() {}

    /// `rect` (frame coordinates; `nil`: no pixel), marked whole: the box
    /// of a draw found as it was made.
    init(whole rect: PixelRect?) {
        if let rect, !rect.isEmpty {
            left = rect.x
            top = rect.y
            right = rect.x + rect.width - 1
            bottom = rect.y + rect.height - 1
        }
        isWhole = true
    }

    /// The box of the pixels that drawing the frame `frame` decoded into
    /// `indices` with `outcome` draws, as ``Compositor/draw(_:indices:outcome:)``
    /// draws them, marked whole; `nil` when the frame has no transparent
    /// index (its change is its rectangle) or is interlaced and decoded in
    /// part (its rows lie scattered over its rectangle). A frame's indices
    /// do not change, so a store of them computes this once and the draws
    /// from it scan nothing. With `rows`, each row's drawn pixels are kept
    /// too (``rows``), four bytes a frame row.
    static func of(
        _ frame: FrameInfo, indices: UnsafeBufferPointer<UInt8>, outcome: FrameDecoder.Outcome, rows: Bool = false
    ) -> DrawnBox? {
        guard let transparent = frame.transparentIndex, !(frame.isInterlaced && outcome.rows < frame.rect.height)
        else { return nil }
        var box = DrawnBox()
        var spans = rows ? [UInt32](repeating: emptyRow, count: frame.rect.height) : []
        if let base = indices.baseAddress, outcome.decodedAnything {
            let width = frame.rect.width
            spans.withUnsafeMutableBufferPointer { spans in
                let spans = rows ? spans.baseAddress : nil
                box.extend(rows: 0..<outcome.rows, firstRow: 0, of: base, width: width, count: width,
                           transparent: Int(transparent), spans: spans)
                if outcome.partialPixels > 0 {
                    box.extend(rows: outcome.rows..<outcome.rows + 1, firstRow: 0, of: base, width: width,
                               count: outcome.partialPixels, transparent: Int(transparent), spans: spans)
                }
            }
        }
        box.isWhole = true
        if rows { box.rows = spans }
        return box
    }

    /// The box, or `nil` when no pixel was drawn.
    var rect: PixelRect? {
        right < 0 ? nil : PixelRect(x: left, y: top, width: right - left + 1, height: bottom - top + 1)
    }

    /// Adds the pixels of rows `rows` whose index is not `transparent`:
    /// row `y`'s first `count` indices, at `(y - firstRow) * width` from
    /// `base`. With `spans`, puts each row's first and last drawn pixel in
    /// `spans[y]` too (see ``rows``), scanning each row's right margin to
    /// its last drawn pixel rather than to the box's edge.
    mutating func extend(
        rows: Range<Int>, firstRow: Int, of base: UnsafePointer<UInt8>, width: Int, count: Int, transparent: Int,
        spans: UnsafeMutablePointer<UInt32>? = nil
    ) {
        guard !isWhole else { return }
        let pattern = UInt64(truncatingIfNeeded: transparent) &* 0x0101_0101_0101_0101
        let raw = UnsafeRawPointer(base)
        /// Whether the 8 indices at `offset` are all transparent.
        @inline(__always) func clear(_ offset: Int) -> Bool {
            raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self) == pattern
        }
        for y in rows {
            let row = (y - firstRow) * width
            // The first drawn pixel from the left.
            var i = 0
            while i &+ 8 <= count, clear(row &+ i) { i &+= 8 }
            while i < count, Int(base[row &+ i]) == transparent { i &+= 1 }
            guard i < count else { continue }
            left = min(left, i)
            if top == .max { top = y }
            bottom = y
            // The last drawn pixel right of the box, if any (the row's
            // last drawn pixel, for spans).
            let floor = spans == nil ? max(i, right) : i
            var j = count
            while j &- 8 > floor, clear(row &+ j &- 8) { j &-= 8 }
            while j > floor, Int(base[row &+ j &- 1]) == transparent { j &-= 1 }
            right = max(right, j - 1)
            spans?[y] = UInt32(truncatingIfNeeded: i) | UInt32(truncatingIfNeeded: j - 1) << 16
        }
    }
}
