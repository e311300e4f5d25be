/// Where a canvas goes in a ``DisplaySize``'s cell, in pixels: the size the
/// whole canvas is scaled to, the part of that a crop keeps (the frame),
/// and where the frame sits in the cell.
///
/// Along each axis the frame is the scaled canvas, or the cell's side of it
/// where the scaled canvas is longer; the spare length (the cell's beyond
/// the frame, or the scaled canvas's beyond the cell) is split by
/// ``DisplaySize/alignment``: all after the frame (left, top), half each
/// side (centre, rounded down before), or all before (right, bottom).
///
/// ```swift
/// let thumb = DisplaySize(width: 200, height: 200, contentMode: .aspectFit).geometry(width: 30, height: 20)
/// print(thumb.width, thumb.height, thumb.y)   // 200 133 33: a band above and below
/// ```
public struct DisplayGeometry: Sendable, Hashable {
    /// The canvas width (negative sides read as 0).
    package let canvasWidth: Int
    /// The canvas height.
    package let canvasHeight: Int
    /// The cell's width in pixels: its points × scale, rounded, 1…``Poster/maxSide``.
    package let cellWidth: Int
    /// The cell's height in pixels.
    package let cellHeight: Int
    /// The width of the whole canvas scaled (at most ``maxScaledSide``).
    package let scaledWidth: Int
    /// The height of the whole canvas scaled.
    package let scaledHeight: Int
    /// The frame's left column in the scaled canvas: the columns cropped on the left.
    package let cropX: Int
    /// The frame's top row in the scaled canvas: the rows cropped above.
    package let cropY: Int
    /// The frame's width: the pixels a frame source at this size hands out.
    public let width: Int
    /// The frame's height.
    public let height: Int
    /// Where the frame's left column goes in the cell (0 when cropped).
    public let x: Int
    /// Where the frame's top row goes in the cell (0 when cropped).
    public let y: Int

    /// The longest side a canvas is scaled to (2³⁴), whatever the sides a
    /// source reports: only the cropped part is ever made, and this bound
    /// keeps the resampling arithmetic in 64 bits.
    package static let maxScaledSide = 1 << 34

    /// Whether the frame is the canvas itself: no scaling and no crop.
    package var isIdentity: Bool {
        scaledWidth == canvasWidth && scaledHeight == canvasHeight && width == canvasWidth && height == canvasHeight
    }

    init(canvasWidth: Int, canvasHeight: Int, size: DisplaySize) {
        let (w, h) = (max(0, canvasWidth), max(0, canvasHeight))
        (self.canvasWidth, self.canvasHeight) = (w, h)
        let cell = (Self.pixels(size.maxWidth, size.scale), Self.pixels(size.maxHeight, size.scale))
        (cellWidth, cellHeight) = cell
        let natural = (Self.natural(w, size.scale), Self.natural(h, size.scale))
        let scaled: (Int, Int)
        if w == 0 || h == 0 {
            scaled = Poster.fit(width: w, height: h, maxWidth: cell.0, maxHeight: cell.1)
        } else {
            switch size.contentMode {
            case .shrinkToFit where natural.0 <= cell.0 && natural.1 <= cell.1, .natural:
                scaled = natural
            case .shrinkToFit, .aspectFit:
                scaled = Poster.aspectFit(width: w, height: h, maxWidth: cell.0, maxHeight: cell.1)
            case .aspectFill:
                // The axis with the larger ratio binds; the other overflows.
                let byWidth = w.multipliedFullWidth(by: cell.1), byHeight = h.multipliedFullWidth(by: cell.0)
                scaled = (byWidth.high, byWidth.low) <= (byHeight.high, byHeight.low)
                    ? (cell.0, Self.saturated(h, by: cell.0, over: w))
                    : (Self.saturated(w, by: cell.1, over: h), cell.1)
            case .stretch:
                scaled = cell
            }
        }
        (scaledWidth, scaledHeight) = scaled
        (width, height) = (min(scaled.0, cell.0), min(scaled.1, cell.1))
        cropX = (scaled.0 - width) * size.alignment.horizontal / 2
        cropY = (scaled.1 - height) * size.alignment.vertical / 2
        x = (cell.0 - width) * size.alignment.horizontal / 2
        y = (cell.1 - height) * size.alignment.vertical / 2
    }

    /// `points` × `scale` rounded, 1…``Poster/maxSide``.
    private static func pixels(_ points: Int, _ scale: Double) -> Int {
        let value = (Double(points) * scale).rounded()
        return value >= Double(Poster.maxSide) ? Poster.maxSide : max(1, Int(value))
    }

    /// A canvas side of `side` pixels (> 0) at `scale`: `side` points
    /// rounded to pixels, at least 1 and at most ``maxScaledSide``.
    private static func natural(_ side: Int, _ scale: Double) -> Int {
        if scale == 1 { return min(side, maxScaledSide) }
        let value = (Double(side) * scale).rounded()
        return value >= Double(maxScaledSide) ? maxScaledSide : max(1, Int(value))
    }

    /// `value` × `factor` / `divisor` rounded, at most ``maxScaledSide``;
    /// operands > 0.
    private static func saturated(_ value: Int, by factor: Int, over divisor: Int) -> Int {
        if Double(value) * Double(factor) / Double(divisor) >= Double(maxScaledSide) { return maxScaledSide }
        return max(1, Poster.scaledRounded(value, by: factor, over: divisor))
    }
}
