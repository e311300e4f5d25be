/// One composited frame as the host draws it: the whole canvas, four bytes
/// per pixel in ``pixelFormat`` (RGBA8 unless the source was asked for
/// another layout).
///
/// Pixels are stored row by row, top row first, so
/// `pixels.count == width * height * 4`.
public struct RenderedFrame: Sendable, Hashable {
    /// How a frame's four bytes per pixel are laid out; chosen once per
    /// source.
    public enum PixelFormat: Sendable, Hashable, CaseIterable {
        /// Red, green, blue, alpha; not premultiplied.
        case rgba8
        /// Blue, green, red, alpha, each colour multiplied by alpha / 255:
        /// what Core Graphics (premultiplied-first, 32-bit little-endian)
        /// and most GPUs (`BGRA8Unorm`) take as they are.
        case premultipliedBGRA8
    }

    /// The frame's index in its ``FrameSource``.
    public var index: Int

    /// The canvas width in pixels.
    public var width: Int

    /// The canvas height in pixels.
    public var height: Int

    /// The pixels, `width * height * 4` bytes in ``pixelFormat``, top row
    /// first.
    public var pixels: [UInt8]

    /// The layout of ``pixels``.
    public var pixelFormat: PixelFormat

    /// The part of the canvas where this frame can differ from frame
    /// ``index`` − 1 of the same source: a host that last drew frame
    /// ``index`` − 1 updates (or uploads) only this rectangle; after any
    /// other frame, or for frame 0 (whose rectangle is the whole canvas), it
    /// updates the whole canvas. May be empty when nothing changed.
    public var changedRect: PixelRect

    /// Creates a frame from already composited pixels.
    /// - Parameters:
    ///   - index: The frame's index in its source.
    ///   - width: The canvas width in pixels.
    ///   - height: The canvas height in pixels.
    ///   - pixels: `width * height * 4` bytes in `pixelFormat`.
    ///   - pixelFormat: The layout of `pixels`; RGBA8 unless given.
    ///   - changedRect: Where the frame can differ from frame `index` − 1;
    ///     `nil` (the default) for the whole canvas.
    public init(
        index: Int, width: Int, height: Int, pixels: [UInt8], pixelFormat: PixelFormat = .rgba8,
        changedRect: PixelRect? = nil
    ) {
        self.index = index
        self.width = width
        self.height = height
        self.pixels = pixels
        self.pixelFormat = pixelFormat
        self.changedRect = changedRect ?? PixelRect(x: 0, y: 0, width: max(0, width), height: max(0, height))
    }

    /// The bytes this frame occupies in a ``FrameCache``: the pixel count
    /// times four. The cache's budget is measured in these bytes.
    public var byteCount: Int { pixels.count }

    /// Writes the frame into memory the host owns (a bitmap context's, a
    /// texture upload buffer's), in ``pixelFormat``, with rows
    /// `bytesPerRow` apart: canvas row `y` starts at byte `y × bytesPerRow`.
    /// The bytes past `width × 4` in each row, and every byte outside the
    /// rows written, are left as they were.
    ///
    /// With `onlyChanged`, only ``changedRect`` (clipped to the canvas) is
    /// written: enough when `buffer` holds frame ``index`` − 1.
    ///
    /// - Throws: ``PixelBufferError`` when `bytesPerRow` is below
    ///   `width × 4`, when `buffer` cannot hold `height` rows, or when
    ///   ``pixels`` does not hold `width × height × 4` bytes; nothing is
    ///   written then.
    public func copy(
        into buffer: UnsafeMutableRawBufferPointer, bytesPerRow: Int, onlyChanged: Bool = false
    ) throws(PixelBufferError) {
        guard width >= 0, height >= 0,
              case let (area, overflow) = width.multipliedReportingOverflow(by: height), !overflow,
              area <= Int.max / 4, pixels.count == area * 4
        else {
            throw .malformedFrame(width: width, height: height, byteCount: pixels.count)
        }
        try PixelBufferError.check(width: width, height: height, bytesPerRow: bytesPerRow, bufferCount: buffer.count)
        guard area > 0, let target = buffer.baseAddress else { return }
        let whole = PixelRect(x: 0, y: 0, width: width, height: height)
        let rect = onlyChanged ? changedRect.clipped(toWidth: width, height: height) : whole
        guard !rect.isEmpty else { return }
        let count = rect.width * 4
        pixels.withUnsafeBytes { source in
            let source = source.baseAddress!
            for y in rect.y..<rect.y + rect.height {
                let from = (y * width + rect.x) * 4, to = y * bytesPerRow + rect.x * 4
                (target + to).copyMemory(from: source + from, byteCount: count)
            }
        }
    }
}

/// A rectangle of a frame's canvas, in whole pixels, origin at the top left.
public struct PixelRect: Sendable, Hashable, CustomStringConvertible {
    /// The left edge.
    public var x: Int
    /// The top edge.
    public var y: Int
    /// The width; 0 or less holds no pixels.
    public var width: Int
    /// The height; 0 or less holds no pixels.
    public var height: Int

    /// Creates a rectangle.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// Whether the rectangle holds no pixels.
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// The part of this rectangle inside a `width × height` canvas at the
    /// origin; empty when they do not overlap.
    public func clipped(toWidth canvasWidth: Int, height canvasHeight: Int) -> PixelRect {
        let canvasWidth = max(0, canvasWidth), canvasHeight = max(0, canvasHeight)
        let left = min(max(x, 0), canvasWidth), top = min(max(y, 0), canvasHeight)
        let (right0, o1) = x.addingReportingOverflow(width)
        let (bottom0, o2) = y.addingReportingOverflow(height)
        let right = min(max(o1 ? (width > 0 ? Int.max : Int.min) : right0, left), canvasWidth)
        let bottom = min(max(o2 ? (height > 0 ? Int.max : Int.min) : bottom0, top), canvasHeight)
        return PixelRect(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// `"WIDTHxHEIGHT+X+Y"`.
    public var description: String { "\(width)x\(height)+\(x)+\(y)" }
}

/// A host buffer ``RenderedFrame/copy(into:bytesPerRow:onlyChanged:)``
/// cannot write into, or a frame it cannot read.
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
    /// was written (see ``FrameDrawer``).
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
