/// A rectangle in a host's layout coordinates (points, pixels: whatever the
/// host measures in), with the origin at the top left and y growing down.
///
/// Platform-neutral on purpose: a UIKit, AppKit, GTK or terminal host converts
/// its own rectangles into this one. Its coordinates are the host's, not a
/// canvas's whole pixels, which `PixelRect` measures.
public struct LayoutRect: Sendable, Hashable {
    /// The left edge.
    public var x: Double

    /// The top edge.
    public var y: Double

    /// The width; a negative width is read as zero.
    public var width: Double

    /// The height; a negative height is read as zero.
    public var height: Double

    /// Creates a rectangle.
    /// - Parameters:
    ///   - x: The left edge.
    ///   - y: The top edge.
    ///   - width: The width (negative reads as zero).
    ///   - height: The height (negative reads as zero).
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    /// The right edge, `x + width`.
    package var maxX: Double { x + width }

    /// The bottom edge, `y + height`.
    package var maxY: Double { y + height }

    /// Whether the rectangle covers no area.
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// The part of this rectangle that lies inside `other`, or `nil` when they
    /// share no area (rectangles that only touch share none).
    /// - Parameter other: The other rectangle.
    package func intersection(_ other: LayoutRect) -> LayoutRect? {
        let left = max(x, other.x), right = min(maxX, other.maxX)
        let top = max(y, other.y), bottom = min(maxY, other.maxY)
        guard right > left, bottom > top else { return nil }
        return LayoutRect(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// Whether `other` lies wholly inside this rectangle (edges included).
    /// - Parameter other: The other rectangle.
    public func contains(_ other: LayoutRect) -> Bool {
        other.x >= x && other.y >= y && other.maxX <= maxX && other.maxY <= maxY
    }

    /// This rectangle shrunk by `insets` on each side (never below zero size).
    /// - Parameter insets: How much to take off each edge.
    package func inset(by insets: EdgeInsets) -> LayoutRect {
        LayoutRect(
            x: x + insets.left, y: y + insets.top,
            width: width - insets.left - insets.right,
            height: height - insets.top - insets.bottom)
    }
}
