/// A frame's rectangle on the canvas, in pixels, as stored in its image
/// descriptor.
public struct FrameRect: Sendable, Hashable, CustomStringConvertible {
    /// The left edge.
    public var x: Int
    /// The top edge.
    public var y: Int
    /// The width; may be 0.
    public var width: Int
    /// The height; may be 0.
    public var height: Int

    /// Creates a rectangle.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The number of pixels, `width × height`.
    public var area: Int { width * height }

    /// Whether the rectangle holds no pixels.
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// The part of this rectangle that lies inside a `width × height` canvas
    /// placed at the origin; empty when they do not overlap.
    public func clipped(toWidth canvasWidth: Int, height canvasHeight: Int) -> FrameRect {
        let left = min(max(x, 0), canvasWidth)
        let top = min(max(y, 0), canvasHeight)
        let right = min(max(x + width, left), canvasWidth)
        let bottom = min(max(y + height, top), canvasHeight)
        return FrameRect(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// `"WIDTHxHEIGHT+X+Y"`, as ImageMagick writes geometry.
    public var description: String { "\(width)x\(height)+\(x)+\(y)" }
}

extension FrameRect {
    /// The bounding box of this rectangle and `other`, ignoring an empty
    /// one (for changed rectangles, here and in GIFPlayback).
    package func union(_ other: FrameRect) -> FrameRect {
        if other.isEmpty { return self }
        if isEmpty { return other }
        let left = min(x, other.x), top = min(y, other.y)
        let right = max(x + width, other.x + other.width), bottom = max(y + height, other.y + other.height)
        return FrameRect(x: left, y: top, width: right - left, height: bottom - top)
    }
}
