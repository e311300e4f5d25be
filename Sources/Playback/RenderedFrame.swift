/// One composited frame as the host draws it: the whole canvas in RGBA8.
///
/// Pixels are stored row by row, four bytes per pixel (red, green, blue,
/// alpha), not premultiplied, so `pixels.count == width * height * 4`.
public struct RenderedFrame: Sendable, Hashable {
    /// The frame's index in its ``FrameSource``.
    public var index: Int

    /// The canvas width in pixels.
    public var width: Int

    /// The canvas height in pixels.
    public var height: Int

    /// The RGBA8 pixels, `width * height * 4` bytes, top row first.
    public var pixels: [UInt8]

    /// Creates a frame from already composited pixels.
    /// - Parameters:
    ///   - index: The frame's index in its source.
    ///   - width: The canvas width in pixels.
    ///   - height: The canvas height in pixels.
    ///   - pixels: `width * height * 4` RGBA8 bytes.
    public init(index: Int, width: Int, height: Int, pixels: [UInt8]) {
        self.index = index
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The bytes this frame occupies in a ``FrameCache``: the pixel count
    /// times four. The cache's budget is measured in these bytes.
    public var byteCount: Int { pixels.count }
}
