/// The part of the host's layout that is on screen: its bounds, and the
/// insets where bars cover it.
///
/// Item rectangles handed to a ``VisibilityRule`` are in the same coordinate
/// space as ``bounds`` (for a scrolling feed: content coordinates, with
/// `bounds.y` the scroll offset; or everything converted to the screen).
public struct Viewport: Sendable, Hashable {
    /// The visible region before insets.
    public var bounds: LayoutRect

    /// Where bars cover the region.
    public var insets: EdgeInsets

    /// Creates a viewport.
    /// - Parameters:
    ///   - bounds: The visible region before insets.
    ///   - insets: Where bars cover it (default none).
    public init(bounds: LayoutRect, insets: EdgeInsets = .zero) {
        self.bounds = bounds
        self.insets = insets
    }

    /// The region really seen: ``bounds`` inset by ``insets``.
    package var visibleRect: LayoutRect { bounds.inset(by: insets) }
}
