/// What a display-size draw stepping on keeps so that it scales each
/// row's changed stretch, not the box of the change (the **row-by-row**
/// branch): for each full-size canvas row, the first and last column the
/// frames of a draw changed (two numbers a row, as the compositor notes
/// them), and for each drawn row, the columns scaled (two numbers a row).
/// See ``BoxFilter/apply(_:region:changedColumns:rowColumns:into:bytesPerRow:premultiplied:)``.
/// Allocated once, with the presenter.
final class ScaledRows {
    let spans: UnsafeMutableBufferPointer<Int>
    let columns: UnsafeMutableBufferPointer<Int>

    init(canvasHeight: Int, drawnHeight: Int) {
        spans = .allocate(capacity: 2 * canvasHeight)
        columns = .allocate(capacity: 2 * drawnHeight)
    }

    deinit {
        spans.deallocate()
        columns.deallocate()
    }

    var byteCount: Int { (spans.count + columns.count) * MemoryLayout<Int>.stride }

    /// Where a compositor notes each row's changes.
    var changes: CanvasRowChanges { CanvasRowChanges(spans: spans.baseAddress!) }

    /// Marks every canvas row unchanged: its first column past its last.
    func clear() {
        for y in 0..<spans.count / 2 {
            spans[2 * y] = .max
            spans[2 * y + 1] = -1
        }
    }
}
