/// One frame as it is shown: the whole canvas after the frame was drawn over
/// what earlier frames left.
public struct CompositedFrame: Sendable, Hashable {
    /// What the scanner knows about the frame: rectangle, delay, disposal…
    public var info: FrameInfo
    /// The canvas size.
    public var size: PixelSize
    /// The canvas, `size.width × size.height` pixels of four bytes in
    /// ``pixelFormat`` (RGBA8, not premultiplied, unless another format was
    /// asked for), or of three bytes, red, green, blue, over ``background``;
    /// row-major, top row first.
    public var pixels: [UInt8]
    /// The layout of ``pixels``, chosen when the iterator or seeker was made
    /// (`PixelFormat.rgba8`, the colour order, over ``background``).
    public var pixelFormat: PixelFormat
    /// The part of the canvas where this frame's pixels can differ from frame
    /// ``index`` − 1's: the bounding box of this frame's rectangle and the
    /// area frame ``index`` − 1's disposal restored (disposal 2 or 3; none
    /// for 0 and 1), clipped to the canvas. For a frame with a transparent
    /// index, the bounding box of the pixels it draws (those not
    /// transparent) stands for its rectangle: an optimiser's frame that
    /// covers the canvas but is transparent except where something moved
    /// changes only that part. A frame a seeker draws from indices kept as
    /// runs (a frame mostly of one index) reports the box of the pixels
    /// whose value it changes, which can be smaller still: encoders that
    /// write every frame whole repeat most of the canvas in each. The whole
    /// canvas for frame 0
    /// (the previous frame is taken as nothing drawn). Empty, at the origin,
    /// when the frame changes nothing (its rectangle lies off the canvas and
    /// the previous frame disposed of nothing).
    ///
    /// It is relative to frame ``index`` − 1, however this frame was reached
    /// (in order, after a seek or after a rewind): a host that last drew
    /// frame ``index`` − 1 needs to update only this rectangle; a host that
    /// last drew another frame updates the whole canvas. Every pixel outside
    /// it equals frame ``index`` − 1's.
    public var changedRect: PixelRect
    /// `false` when the frame's data failed part-way: the rows decoded so far
    /// are shown, the rest of the rectangle keeps the canvas as it was, and
    /// the iterator reports the error on its next call.
    public var isComplete: Bool
    /// The opaque colour every transparent pixel shows when the canvas was
    /// composited over a background
    /// (`GIFImage.makeFrameIterator(parallel:background:)`): ``pixels``
    /// are then three bytes a pixel, a binary PPM's pixels as they stand.
    /// `nil` for four bytes a pixel in ``pixelFormat``, with alpha.
    public var background: Palette.Color? = nil

    /// The bytes of one pixel of ``pixels``: 3 over ``background``, else 4.
    package var bytesPerPixel: Int { background == nil ? 4 : 3 }

    /// The frame's position in the file, from 0.
    public var index: Int { info.index }
    /// The frame's rectangle as stored (unclipped).
    public var rect: PixelRect { info.rect }
    /// The delay as stored (centiseconds, as a `Duration`).
    public var delay: Duration { info.delay }
    /// The delay browsers show (0 or 1 cs become 100 ms).
    public var browserDelay: Duration { info.browserDelay }
    /// The frame's disposal.
    public var disposal: Disposal { info.disposal }

    /// The pixel at column `x`, row `y` of the canvas, as RGBA8 not
    /// premultiplied, whatever ``pixelFormat`` is (a premultiplied colour is
    /// divided by its alpha; alpha 0 gives transparent black; a canvas over
    /// ``background`` is opaque).
    package func pixel(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
        if background != nil {
            let i = (y * size.width + x) * 3
            return (pixels[i], pixels[i + 1], pixels[i + 2], 255)
        }
        let i = (y * size.width + x) * 4
        switch pixelFormat {
        case .rgba8:
            return (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
        case .premultipliedBGRA8:
            let alpha = pixels[i + 3]
            guard alpha > 0 else { return (0, 0, 0, 0) }
            func unscaled(_ c: UInt8) -> UInt8 {
                UInt8(min(255, (UInt32(c) * 255 + UInt32(alpha) / 2) / UInt32(alpha)))
            }
            return (unscaled(pixels[i + 2]), unscaled(pixels[i + 1]), unscaled(pixels[i]), alpha)
        }
    }
}
