/// A rectangle of a canvas, in whole pixels, origin at the top left: a
/// frame's place on the canvas as its image descriptor stores it, or the
/// part of a canvas that changed from one frame to the next.
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
    @inlinable
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The number of pixels, `width × height`.
    @inlinable
    package var area: Int { width * height }

    /// Whether the rectangle holds no pixels.
    @inlinable
    package var isEmpty: Bool { width <= 0 || height <= 0 }

    /// The part of this rectangle inside a `width × height` canvas at the
    /// origin; empty when they do not overlap. Edges past `Int`'s range
    /// are clamped, not wrapped.
    @inlinable
    package func clipped(toWidth canvasWidth: Int, height canvasHeight: Int) -> PixelRect {
        let canvasWidth = max(0, canvasWidth), canvasHeight = max(0, canvasHeight)
        let left = min(max(x, 0), canvasWidth), top = min(max(y, 0), canvasHeight)
        let (right0, o1) = x.addingReportingOverflow(width)
        let (bottom0, o2) = y.addingReportingOverflow(height)
        let right = min(max(o1 ? (width > 0 ? Int.max : Int.min) : right0, left), canvasWidth)
        let bottom = min(max(o2 ? (height > 0 ? Int.max : Int.min) : bottom0, top), canvasHeight)
        return PixelRect(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// `"WIDTHxHEIGHT+X+Y"`, as ImageMagick writes geometry.
    public var description: String { "\(width)x\(height)+\(x)+\(y)" }
}

extension PixelRect {
    /// The bounding box of this rectangle and `other`, ignoring an empty
    /// one (changed rectangles joined when several frames are drawn at once).
    @inlinable
    package func union(_ other: PixelRect) -> PixelRect {
        if other.isEmpty { return self }
        if isEmpty { return other }
        let left = min(x, other.x), top = min(y, other.y)
        let right = max(x + width, other.x + other.width), bottom = max(y + height, other.y + other.height)
        return PixelRect(x: left, y: top, width: right - left, height: bottom - top)
    }
}
