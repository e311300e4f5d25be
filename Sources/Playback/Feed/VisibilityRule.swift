/// When an item counts as on screen, and so may play.
///
/// The default, ``halfHeight``, is the feed rule: an item is playable when at
/// least half of its height lies inside the viewport after insets. Hosts pick
/// another rule where it suits them better (``fullyVisible`` for small
/// thumbnails, ``anyOverlap`` to start as soon as a pixel shows).
///
/// ```swift
/// let posts = [
///     FeedGroupLayout(id: "post 1", items: [
///         FeedItemLayout(key: "a.gif", frame: LayoutRect(x: 0, y: 0, width: 390, height: 300)),
///         FeedItemLayout(key: "b.gif", frame: LayoutRect(x: 0, y: 300, width: 390, height: 300)),
///     ]),
///     FeedGroupLayout(id: "post 2", items: [
///         FeedItemLayout(key: "c.gif", frame: LayoutRect(x: 0, y: 700, width: 390, height: 300)),
///     ]),
/// ]
/// let viewport = Viewport(bounds: LayoutRect(x: 0, y: 200, width: 390, height: 844),
///                         insets: EdgeInsets(bottom: 83))          // tab bar
/// if let selection = VisibilityRule.halfHeight.select(from: posts, in: viewport) {
///     print(selection.keys)   // ["b.gif"]: a.gif is a third in, c.gif's post comes second
/// }
/// ```
public enum VisibilityRule: Sendable, Hashable {
    /// Playable when at least `fraction` of the item's height lies inside the
    /// visible rectangle (the rows it shares with it, counted only where the
    /// item also overlaps it horizontally). `fraction` is clamped to `0...1`;
    /// a fraction of 0 still asks for some overlap.
    case visibleHeight(fraction: Double)

    /// Playable only when the whole item lies inside the visible rectangle.
    case fullyVisible

    /// Playable when any part of the item (a positive area) lies inside.
    case anyOverlap

    /// The feed rule and the default: at least half of the height inside.
    public static let halfHeight = VisibilityRule.visibleHeight(fraction: 0.5)

    /// Whether an item laid out at `frame` is playable in `viewport`.
    ///
    /// An empty rectangle (no width or no height) is never playable.
    /// - Parameters:
    ///   - frame: The item's rectangle in the viewport's coordinate space.
    ///   - viewport: The viewport and its insets.
    package func isPlayable(_ frame: LayoutRect, in viewport: Viewport) -> Bool {
        guard !frame.isEmpty else { return false }
        let visible = viewport.visibleRect
        switch self {
        case .visibleHeight(let fraction):
            guard let shared = frame.intersection(visible) else { return false }
            return shared.height >= min(max(fraction, 0), 1) * frame.height
        case .fullyVisible:
            return visible.contains(frame)
        case .anyOverlap:
            return frame.intersection(visible) != nil
        }
    }

    /// The playable items of the first group, in display order, that has
    /// any; `nil` when no item of any group is playable.
    /// - Parameters:
    ///   - groups: The groups in display order.
    ///   - viewport: The viewport and its insets.
    public func select(from groups: [FeedGroupLayout], in viewport: Viewport) -> FeedSelection? {
        for (index, group) in groups.enumerated() {
            let keys = group.items.filter { isPlayable($0.frame, in: viewport) }.map(\.key)
            if !keys.isEmpty {
                return FeedSelection(groupIndex: index, groupID: group.id, keys: keys)
            }
        }
        return nil
    }
}
