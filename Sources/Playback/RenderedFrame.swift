/// One composited frame as the host draws it: the whole canvas, four bytes
/// per pixel in ``pixelFormat`` (RGBA8 unless the source was asked for
/// another layout).
///
/// Pixels are stored row by row, top row first, so
/// `pixels.count == width * height * 4`.
public struct RenderedFrame: Sendable, Hashable {
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

    /// Set on the images a player draws into canvases of its own (see
    /// ``Player/currentImage(isolation:)``): while any image holds it, the player
    /// draws its next frame into its other canvas. Not part of the value.
    var lease: ImageLease?

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

    /// Whether the two frames have the same index, size, layout, changed
    /// rectangle and pixels.
    public static func == (lhs: RenderedFrame, rhs: RenderedFrame) -> Bool {
        lhs.index == rhs.index && lhs.width == rhs.width && lhs.height == rhs.height
            && lhs.pixelFormat == rhs.pixelFormat && lhs.changedRect == rhs.changedRect && lhs.pixels == rhs.pixels
    }

    /// Hashes what equality compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(index)
        hasher.combine(width)
        hasher.combine(height)
        hasher.combine(pixelFormat)
        hasher.combine(changedRect)
        hasher.combine(pixels)
    }

    /// The bytes this frame occupies in a ``FrameCache``: the pixel count
    /// times four. The cache's budget is measured in these bytes.
    package var byteCount: Int { pixels.count }

    /// Writes the frame into memory the host owns (a bitmap context's, a
    /// texture upload buffer's), in ``pixelFormat``, with rows
    /// `bytesPerRow` apart: canvas row `y` starts at byte `y × bytesPerRow`.
    /// The bytes past `width × 4` in each row, and every byte outside the
    /// rows written, are left as they were.
    ///
    /// With `onlyChanged`, only ``changedRect`` (clipped to the canvas) is
    /// written: enough when `buffer` holds frame ``index`` − 1.
    ///
    /// - Throws: `PixelBufferError` when `bytesPerRow` is below
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
