import GIF
import Playback

/// Where `gif sheet` puts each frame: a grid of cells, left to right and
/// top to bottom, each the frame scaled to fit ``cellSize`` square (aspect
/// ratio kept, never scaled up) over a label strip. Every ``step``-th frame
/// is taken (0, step, 2 × step, …), the smallest step whose rows fit
/// ``maxHeight``.
///
/// With ``gap`` pixels around and between cells, cell `n` (the frame
/// `n × step`) has its image at
/// x = gap + (n mod columns) × (imageWidth + gap),
/// y = gap + (n div columns) × (imageHeight + labelHeight + gap),
/// and its label just below the image.
struct SheetLayout: Equatable {
    /// Pixels around the grid and between cells.
    static let gap = 4
    /// The most pixels a sheet may have: 64 Mi (256 MiB of RGBA).
    static let maxPixels = 1 << 26

    /// The frames in the file.
    let frameCount: Int
    /// Every `step`-th frame is in the sheet, from frame 0.
    let step: Int
    let columns: Int
    let rows: Int
    /// A frame's size in its cell.
    let imageWidth: Int
    let imageHeight: Int
    /// The label font's scale: each font pixel is `labelScale` square.
    let labelScale: Int

    /// The strip under each image for its label.
    var labelHeight: Int { (SheetFont.glyphHeight + 2) * labelScale }
    /// The number of frames in the sheet.
    var cellCount: Int { (frameCount + step - 1) / step }
    /// The last frame in the sheet.
    var lastFrame: Int { (cellCount - 1) * step }
    var width: Int { Self.gap + columns * (imageWidth + Self.gap) }
    var height: Int { Self.gap + rows * (imageHeight + labelHeight + Self.gap) }

    /// The cell of `frame`, or `nil` when the sheet skips it.
    func cell(of frame: Int) -> Int? {
        frame % step == 0 && frame / step < cellCount ? frame / step : nil
    }

    /// The top-left pixel of cell `cell`'s image.
    func origin(of cell: Int) -> (x: Int, y: Int) {
        (Self.gap + cell % columns * (imageWidth + Self.gap),
         Self.gap + cell / columns * (imageHeight + labelHeight + Self.gap))
    }

    /// The layout of `frameCount` frames of `canvas`.
    /// - Parameters:
    ///   - cellSize: Frames are scaled down to fit this many pixels square.
    ///   - columns: The columns, or `nil` for as many as fit `maxWidth`
    ///     (and no more than there are frames).
    ///   - maxWidth: The widest sheet, when `columns` is `nil`.
    ///   - maxHeight: The tallest sheet: frames are skipped evenly to fit.
    /// - Throws: ``SheetError`` when there is nothing to lay out, a single
    ///   cell does not fit, or the sheet would pass ``maxPixels``.
    init(
        canvas: PixelSize, frameCount: Int, cellSize: Int, columns: Int?, maxWidth: Int, maxHeight: Int
    ) throws(SheetError) {
        guard frameCount > 0 else { throw .noFrames }
        guard canvas.width > 0, canvas.height > 0 else { throw .emptyCanvas(canvas) }
        let image = Poster.fit(width: canvas.width, height: canvas.height, maxWidth: cellSize, maxHeight: cellSize)
        (imageWidth, imageHeight) = image
        labelScale = image.width >= 96 ? 2 : 1
        let labelHeight = (SheetFont.glyphHeight + 2) * labelScale
        let cellWidth = image.width + Self.gap, cellHeight = image.height + labelHeight + Self.gap
        let fittingColumns = (maxWidth - Self.gap) / cellWidth
        let fittingRows = (maxHeight - Self.gap) / cellHeight
        guard columns != nil || fittingColumns >= 1 else {
            throw .cellDoesNotFit(side: "width", cell: Self.gap + cellWidth, limit: maxWidth)
        }
        guard fittingRows >= 1 else {
            throw .cellDoesNotFit(side: "height", cell: Self.gap + cellHeight, limit: maxHeight)
        }
        let grid = min(columns ?? fittingColumns, frameCount)
        let capacity = grid * fittingRows
        self.frameCount = frameCount
        step = (frameCount + capacity - 1) / capacity
        self.columns = grid
        rows = ((frameCount + step - 1) / step + grid - 1) / grid
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, pixels <= Self.maxPixels else { throw .tooLarge(width: width, height: height) }
    }
}

/// Why a contact sheet cannot be laid out.
enum SheetError: Error, Equatable, CustomStringConvertible {
    /// The file has no frames.
    case noFrames
    /// The canvas has no pixels.
    case emptyCanvas(PixelSize)
    /// One cell, with the gaps around it, is wider or taller than allowed.
    case cellDoesNotFit(side: String, cell: Int, limit: Int)
    /// The sheet would have more than ``SheetLayout/maxPixels`` pixels.
    case tooLarge(width: Int, height: Int)

    var description: String {
        switch self {
        case .noFrames: "the file has no frames to put in a sheet"
        case .emptyCanvas(let size): "the canvas is \(size), with no pixels to show"
        case .cellDoesNotFit(let side, let cell, let limit):
            "one cell with its gaps is \(cell) pixels in \(side), more than the --max-\(side) of \(limit)"
        case .tooLarge(let width, let height):
            "the sheet would be \(width)x\(height), more than the \(SheetLayout.maxPixels) pixels a sheet may have"
        }
    }
}
