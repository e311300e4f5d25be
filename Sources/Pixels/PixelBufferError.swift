/// Why pixels could not be written into memory the host owns: a buffer too
/// small or rows too close together for the canvas, a frame that does not
/// hold its pixels, or a draw already in progress.
///
/// Every call that writes a canvas into the host's buffer checks with
/// ``check(width:height:bytesPerRow:bufferCount:)`` before writing anything:
/// Playback's `RenderedFrame.copy(into:bytesPerRow:onlyChanged:)` and the
/// players' and drawers' `draw(into:bytesPerRow:)` throw this error itself;
/// GIF's `FrameSeeker.copyFrame(at:into:bytesPerRow:onlyChanged:)` and
/// GIFPlayback's `DrawingPlayer.draw(into:bytesPerRow:)`, which also decode
/// and so throw `GIFError`, throw it inside `GIFError.Kind.buffer(_:)`.
public enum PixelBufferError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Rows `bytesPerRow` apart are fewer than the `minimum` bytes one
    /// canvas row takes (width × 4), or negative.
    case rowStrideTooSmall(bytesPerRow: Int, minimum: Int)
    /// A buffer of `byteCount` bytes cannot hold the canvas, which takes
    /// `needed` with the row stride given.
    case bufferTooSmall(byteCount: Int, needed: Int)
    /// The frame's pixels do not hold `width × height × 4` bytes
    /// (`byteCount` instead), or a side is negative.
    case malformedFrame(width: Int, height: Int, byteCount: Int)
    /// Another thread was drawing the same player at that moment; nothing
    /// was written (a player's `FrameDrawer` draws on one thread at a time
    /// and never waits).
    case drawnConcurrently

    /// Checks that a buffer of `bufferCount` bytes holds `height` rows of
    /// `width` pixels, four bytes each, `bytesPerRow` apart (the last row
    /// only `width × 4`), without overflowing.
    /// - Returns: The bytes the rows reach: 0 for an empty canvas.
    /// - Throws: ``rowStrideTooSmall(bytesPerRow:minimum:)`` or
    ///   ``bufferTooSmall(byteCount:needed:)``.
    @discardableResult
    public static func check(width: Int, height: Int, bytesPerRow: Int, bufferCount: Int) throws(PixelBufferError) -> Int {
        let (rowBytes, wide) = max(0, width).multipliedReportingOverflow(by: 4)
        guard !wide, bytesPerRow >= rowBytes else {
            throw .rowStrideTooSmall(bytesPerRow: bytesPerRow, minimum: wide ? Int.max : rowBytes)
        }
        guard height > 0, rowBytes > 0 else { return 0 }
        let (rows, overflow1) = (height - 1).multipliedReportingOverflow(by: bytesPerRow)
        let (needed, overflow2) = rows.addingReportingOverflow(rowBytes)
        guard !overflow1, !overflow2, needed <= bufferCount else {
            throw .bufferTooSmall(byteCount: bufferCount, needed: overflow1 || overflow2 ? Int.max : needed)
        }
        return needed
    }

    /// What is wrong, in one line.
    public var description: String {
        switch self {
        case .rowStrideTooSmall(let bytesPerRow, let minimum):
            "the buffer's rows are \(bytesPerRow) bytes apart, fewer than the \(minimum) a canvas row takes"
        case .bufferTooSmall(let byteCount, let needed):
            "the buffer holds \(byteCount) bytes, fewer than the \(needed) the canvas takes"
        case .malformedFrame(let width, let height, let byteCount):
            "the frame is \(width)x\(height) but holds \(byteCount) bytes of pixels"
        case .drawnConcurrently:
            "another thread was drawing the same player"
        }
    }
}
