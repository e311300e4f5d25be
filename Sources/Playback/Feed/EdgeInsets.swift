/// Distances by which a ``Viewport`` is covered at each edge: a navigation bar
/// at the top, a tab bar at the bottom.
///
/// Platform-neutral; named so it does not clash with a UI framework's own
/// insets type in a host that imports both.
public struct EdgeInsets: Sendable, Hashable {
    /// Covered at the top.
    public var top: Double

    /// Covered at the left.
    public var left: Double

    /// Covered at the bottom.
    public var bottom: Double

    /// Covered at the right.
    public var right: Double

    /// Creates insets; every edge defaults to zero.
    /// - Parameters:
    ///   - top: Covered at the top.
    ///   - left: Covered at the left.
    ///   - bottom: Covered at the bottom.
    ///   - right: Covered at the right.
    public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    /// No insets.
    public static let zero = EdgeInsets()
}
