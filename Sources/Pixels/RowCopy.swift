/// Copies `rows` rows of `rowBytes` bytes each from `source`, rows
/// `sourceStride` bytes apart, to `target`, rows `targetStride` bytes
/// apart: the canvas rectangles the library moves (a changed rectangle into
/// a host's buffer, a canvas's area into the storage that restores it).
/// The row addresses are stepped, not recomputed with overflow checks each
/// row: for the rows of a small changed rectangle (64 bytes for 16 pixels)
/// the addressing cost as much as the copy.
@inlinable
package func copyRows(
    _ rows: Int, of rowBytes: Int, from source: UnsafeRawPointer, stride sourceStride: Int,
    to target: UnsafeMutableRawPointer, stride targetStride: Int
) {
    guard rowBytes > 0 else { return }
    var from = source, to = target
    for _ in 0..<max(0, rows) {
        to.copyMemory(from: from, byteCount: rowBytes)
        from += sourceStride
        to += targetStride
    }
}
