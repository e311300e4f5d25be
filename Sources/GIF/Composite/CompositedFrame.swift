/// One frame as it is shown: the whole canvas after the frame was drawn over
/// what earlier frames left.
public struct CompositedFrame: Sendable, Hashable {
    /// What the scanner knows about the frame: rectangle, delay, disposal…
    public var info: FrameInfo
    /// The canvas size.
    public var size: PixelSize
    /// The canvas, `size.width × size.height` pixels, RGBA8 (not
    /// premultiplied), row-major, top row first.
    public var pixels: [UInt8]
    /// `false` when the frame's data failed part-way: the rows decoded so far
    /// are shown, the rest of the rectangle keeps the canvas as it was, and
    /// the iterator reports the error on its next call.
    public var isComplete: Bool

    /// The frame's position in the file, from 0.
    public var index: Int { info.index }
    /// The frame's rectangle as stored (unclipped).
    public var rect: FrameRect { info.rect }
    /// The delay as stored (centiseconds, as a `Duration`).
    public var delay: Duration { info.delay }
    /// The delay browsers show (0 or 1 cs become 100 ms).
    public var browserDelay: Duration { info.browserDelay }
    /// The frame's disposal.
    public var disposal: Disposal { info.disposal }

    /// The RGBA8 pixel at column `x`, row `y` of the canvas.
    public func pixel(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
        let i = (y * size.width + x) * 4
        return (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
    }
}
