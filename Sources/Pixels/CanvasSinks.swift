// Where a compositor writes its canvas's changes besides the canvas: the
// sinks a presenter (the player's drawers) hands it for the frames of one
// draw. The format library composites into them; what they are for (a
// host's buffer, the rows to scale) is the presenter's business.

/// A host's buffer of the canvas's size, `bytesPerRow` bytes from one
/// row's start to the next, that holds what the canvas holds.
/// `@unchecked Sendable` for its address: it is set only for the
/// frames of one draw, by the thread that holds the buffer and the
/// compositor for that draw, and a checkpoint (the copy that outlives
/// the draw) never keeps it.
package struct CanvasMirror: @unchecked Sendable {
    /// A mirror of the buffer at `base`, rows `bytesPerRow` bytes apart.
    package init(base: UnsafeMutableRawPointer, bytesPerRow: Int) {
        self.base = base
        self.bytesPerRow = bytesPerRow
    }

    /// Where canvas pixel (0, 0) goes.
    package let base: UnsafeMutableRawPointer
    /// The bytes from one row's start to the next.
    package let bytesPerRow: Int

    /// Where canvas pixel (`x`, `y`) is.
    package func pixel(x: Int, y: Int) -> UnsafeMutableRawPointer { base + y * bytesPerRow + x * 4 }

    /// Whether every row starts on a 32-bit word: the start is aligned
    /// and the rows are a whole number of words apart.
    package var isWordAligned: Bool { Int(bitPattern: base) % 4 == 0 && bytesPerRow % 4 == 0 }
}

/// Memory outside the compositor where the canvas's changes are noted
/// row by row: for canvas row `y`, the first and last column changed
/// since the host cleared it, `spans[2y]` and `spans[2y + 1]` (the
/// first past the last: none), widened by each change. Every pixel that
/// changes lies within its row's span; a span may hold pixels that were
/// written with the value they had. `@unchecked Sendable` for its
/// address, as ``CanvasMirror``: set only for the frames of one draw, and
/// never kept by a checkpoint.
package struct CanvasRowChanges: @unchecked Sendable {
    /// Changes noted in `spans`, two numbers a canvas row.
    package init(spans: UnsafeMutablePointer<Int>) { self.spans = spans }

    /// Two numbers a canvas row.
    package let spans: UnsafeMutablePointer<Int>

    /// Notes columns `first ... last` of row `y` as changed.
    package func add(row y: Int, first: Int, last: Int) {
        spans[2 * y] = min(spans[2 * y], first)
        spans[2 * y + 1] = max(spans[2 * y + 1], last)
    }

    /// Notes every pixel of `rect` as changed.
    package func add(_ rect: PixelRect) {
        guard !rect.isEmpty else { return }
        for y in rect.y..<rect.y + rect.height { add(row: y, first: rect.x, last: rect.x + rect.width - 1) }
    }
}
