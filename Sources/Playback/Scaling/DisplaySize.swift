/// The cell a host shows an animation in, and how the canvas is placed in
/// it: frames are composited at full size and resampled (``BoxFilter``)
/// into the pixels the cell shows, so a cache holds only those.
///
/// The modes are CSS's `object-fit` ones, under UIKit's names where UIKit
/// has one:
///
/// | ``ContentMode`` | UIKit / CSS | The frame |
/// |---|---|---|
/// | ``ContentMode/shrinkToFit`` (default) | CSS `scale-down` | ``ContentMode/aspectFit``, but never larger than the natural size |
/// | ``ContentMode/aspectFit`` | `scaleAspectFit` / `contain` | the whole canvas inside the cell, aspect kept, scaled up or down |
/// | ``ContentMode/aspectFill`` | `scaleAspectFill` / `cover` | covers the cell, aspect kept, the overflow cropped |
/// | ``ContentMode/stretch`` | `scaleToFill` / `fill` | exactly the cell, aspect not kept |
/// | ``ContentMode/natural`` | `center`, `top`… / `none` | the natural size, cropped to the cell where larger |
///
/// Sides are in points and ``scale`` is pixels per point (2 on a Retina
/// screen), so a frame is `width` × `height` pixels covering
/// `width / scale` × `height / scale` points. A canvas pixel is one point
/// (as a browser shows an `<img>` and UIKit a `UIImage` of scale 1): the
/// natural size of a 30 × 20 GIF at scale 2 is 60 × 40 pixels.
///
/// The frame is only the part of the cell the canvas covers (a fitted GIF
/// is not padded); ``geometry(width:height:)`` says where it goes in the
/// cell (``DisplayGeometry/x``, ``DisplayGeometry/y``) and which part of
/// the scaled canvas a crop keeps, both by ``alignment``.
///
/// Shrinking is always an exact area average; growing is ``upscaling``:
/// ``Upscaling/smooth`` (bilinear, the default, as browsers and UIKit
/// draw) or ``Upscaling/nearest`` (pixel art stays sharp).
///
/// ```swift
/// let cell = DisplaySize(maxWidth: 160, maxHeight: 160)
/// let small = source.displaying(at: cell)
/// print(small.canvasWidth, small.canvasHeight) // 160 96 for 500 × 300 frames
/// ```
public struct DisplaySize: Sendable, Hashable, CustomStringConvertible {
    /// How the canvas is sized to the cell (see ``DisplaySize``).
    public enum ContentMode: String, Sendable, Hashable, CaseIterable {
        /// The natural size when it fits the cell, else ``aspectFit``:
        /// never scaled up. The mode of ``DisplaySize/init(maxWidth:maxHeight:)``.
        case shrinkToFit
        /// The whole canvas inside the cell, aspect ratio kept, scaled up or
        /// down so that it touches two sides.
        case aspectFit
        /// The cell covered, aspect ratio kept; the part of the canvas that
        /// overflows is cropped, keeping the side ``DisplaySize/alignment`` says.
        case aspectFill
        /// Exactly the cell; the aspect ratio is not kept.
        case stretch
        /// The natural size (one point a canvas pixel), cropped to the cell
        /// where it is larger.
        case natural
    }

    /// Which side of the cell a canvas smaller than it keeps to, and which
    /// part of a canvas larger than it is kept; UIKit's content-mode
    /// positions. A feed that crops a tall GIF to its top and a wide one to
    /// its left uses ``topLeft``.
    public enum Alignment: String, Sendable, Hashable, CaseIterable {
        /// Centred on both axes.
        case center
        /// At the top, centred across.
        case top
        /// At the bottom, centred across.
        case bottom
        /// At the left, centred up and down.
        case left
        /// At the right, centred up and down.
        case right
        /// At the top left.
        case topLeft
        /// At the top right.
        case topRight
        /// At the bottom left.
        case bottomLeft
        /// At the bottom right.
        case bottomRight

        /// 0 (left), 1 (centre) or 2 (right) halves of the spare width.
        var horizontal: Int {
            switch self {
            case .left, .topLeft, .bottomLeft: 0
            case .center, .top, .bottom: 1
            case .right, .topRight, .bottomRight: 2
            }
        }

        /// 0 (top), 1 (centre) or 2 (bottom) halves of the spare height.
        var vertical: Int {
            switch self {
            case .top, .topLeft, .topRight: 0
            case .center, .left, .right: 1
            case .bottom, .bottomLeft, .bottomRight: 2
            }
        }
    }

    /// How an axis drawn larger than the canvas is filled in. An axis drawn
    /// smaller is always the exact area average (a box filter).
    public enum Upscaling: String, Sendable, Hashable, CaseIterable {
        /// Bilinear, from the four nearest pixel centres (edges repeated):
        /// the default, as browsers and UIKit draw an enlarged image.
        case smooth
        /// The pixel whose area holds the output pixel's centre: pixel art
        /// stays sharp, and an integer factor repeats each pixel in a block.
        case nearest
    }

    /// The cell's width in points (at least 1).
    public var maxWidth: Int

    /// The cell's height in points (at least 1).
    public var maxHeight: Int

    /// How the canvas is sized to the cell.
    public var contentMode: ContentMode

    /// Where a canvas smaller than the cell sits, and what a crop keeps.
    public var alignment: Alignment

    /// Pixels per point: 1 by default, 2 or 3 on HiDPI screens; kept within
    /// 1/64…64 (a value that is not a finite positive number is stored as 1).
    public var scale: Double {
        didSet { scale = Self.clamped(scale) }
    }

    /// How an axis drawn larger than the canvas is filled in.
    public var upscaling: Upscaling

    /// A cell of `maxWidth` × `maxHeight` pixels that the canvas is shrunk
    /// to fit with its aspect ratio kept, and never scaled up
    /// (``ContentMode/shrinkToFit`` at scale 1); sides below 1 read as 1.
    /// - Parameters:
    ///   - maxWidth: The widest frame allowed, in pixels.
    ///   - maxHeight: The tallest frame allowed, in pixels.
    public init(maxWidth: Int, maxHeight: Int) {
        self.init(width: maxWidth, height: maxHeight, contentMode: .shrinkToFit)
    }

    /// A `width` × `height`-point cell the canvas is placed in by
    /// `contentMode`, drawn at `scale` pixels a point; sides below 1 read as 1.
    /// - Parameters:
    ///   - width: The cell's width in points.
    ///   - height: The cell's height in points.
    ///   - contentMode: How the canvas is sized to the cell.
    ///   - alignment: Where a smaller canvas sits and what a crop keeps
    ///     (default: centred).
    ///   - scale: Pixels per point (default 1).
    ///   - upscaling: How an enlarged axis is filled in (default smooth).
    public init(
        width: Int, height: Int, contentMode: ContentMode, alignment: Alignment = .center, scale: Double = 1,
        upscaling: Upscaling = .smooth
    ) {
        self.maxWidth = max(1, width)
        self.maxHeight = max(1, height)
        self.contentMode = contentMode
        self.alignment = alignment
        self.scale = Self.clamped(scale)
        self.upscaling = upscaling
    }

    /// `scale` within 1/64…64, or 1 when it is not a finite positive number.
    private static func clamped(_ scale: Double) -> Double {
        scale.isFinite && scale > 0 ? min(max(scale, 1.0 / 64), 64) : 1
    }

    /// The size a `width` × `height` canvas is shown at, in pixels: the
    /// frame's size (``geometry(width:height:)``'s ``DisplayGeometry/width``
    /// and ``DisplayGeometry/height``).
    /// - Parameters:
    ///   - width: The canvas width.
    ///   - height: The canvas height.
    package func fitting(width: Int, height: Int) -> (width: Int, height: Int) {
        let geometry = geometry(width: width, height: height)
        return (geometry.width, geometry.height)
    }

    /// Where a `width` × `height` canvas goes in the cell: the size it is
    /// scaled to, the part of it kept and where that part sits, in pixels.
    /// - Parameters:
    ///   - width: The canvas width.
    ///   - height: The canvas height.
    public func geometry(width: Int, height: Int) -> DisplayGeometry {
        DisplayGeometry(canvasWidth: width, canvasHeight: height, size: self)
    }

    /// `160x160` for the default mode and scale; else the mode, alignment,
    /// scale and upscaling that differ from the defaults follow, as in
    /// `160x160 aspectFill topLeft @2x nearest`.
    public var description: String {
        var parts = ["\(maxWidth)x\(maxHeight)"]
        if contentMode != .shrinkToFit { parts.append(contentMode.rawValue) }
        if alignment != .center { parts.append(alignment.rawValue) }
        if scale != 1 { parts.append("@\(scale == scale.rounded() ? String(Int(scale)) : String(scale))x") }
        if upscaling != .smooth { parts.append(upscaling.rawValue) }
        return parts.joined(separator: " ")
    }
}
