extension FramePresenter {
    /// What ``write(_:region:byRow:into:bytesPerRow:)`` wrote.
    enum Written {
        /// Nothing: the canvas is not the size the filter reads.
        case nothing
        /// Every pixel of the region.
        case whole
        /// Each row's columns in the `columns` of the ``ScaledRows`` given.
        case byRow
    }

    /// The drawn pixels a full-size rectangle reaches.
    func scaled(_ rect: PixelRect) -> PixelRect {
        guard let filter else { return rect }
        return filter.outputRect(covering: rect)
    }

    /// The **whole-rectangle** branch: writes `region` (in drawn pixels) of
    /// the full-size `canvas` into the buffer, scaled when the presenter
    /// shows a display size; with `byRow`, only the drawn pixels that read
    /// a canvas row's noted changes. Returns what it wrote.
    func write(
        _ canvas: UnsafeBufferPointer<UInt8>, region: PixelRect, byRow: ScaledRows?,
        into buffer: UnsafeMutableRawBufferPointer, bytesPerRow: Int
    ) -> Written {
        guard !region.isEmpty else { return .whole }
        if let filter {
            // The filter writes nothing from a canvas of another size than
            // the image's, which it was made for.
            guard canvas.count == canvasSize.area * 4 else { return .nothing }
            let premultiplied = pixelFormat.isPremultiplied
            do {
                if let byRow {
                    let rowsWritten = try filter.apply(
                        canvas, region: region, changedColumns: UnsafeBufferPointer(byRow.spans),
                        rowColumns: byRow.columns, into: buffer, bytesPerRow: bytesPerRow, premultiplied: premultiplied)
                    return rowsWritten ? .byRow : .whole
                }
                try filter.apply(
                    canvas, region: region, into: buffer, bytesPerRow: bytesPerRow, premultiplied: premultiplied)
                return .whole
            } catch {
                return .nothing
            }
        }
        guard let target = buffer.baseAddress, let source = canvas.baseAddress else { return .nothing }
        copyRows(
            region.height, of: region.width * 4, from: source + (region.y * width + region.x) * 4, stride: width * 4,
            to: target + region.y * bytesPerRow + region.x * 4, stride: bytesPerRow)
        return .whole
    }
}
