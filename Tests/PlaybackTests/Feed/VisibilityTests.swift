import Playback
import Testing

@Suite("Visibility: which items of which group may play")
struct VisibilityTests {
    /// A 400 × 800 screen; with the tab bar, the bottom 100 are covered.
    static let screen = LayoutRect(x: 0, y: 0, width: 400, height: 800)
    static let bare = Viewport(bounds: screen)
    static let tabBar = Viewport(bounds: screen, insets: EdgeInsets(bottom: 100))

    static func item(_ key: String, y: Double, height: Double = 100, x: Double = 0) -> FeedItemLayout {
        FeedItemLayout(key: key, frame: LayoutRect(x: x, y: y, width: 100, height: height))
    }

    @Test("Half in, just under half in, fully out; with and without the bottom inset",
          arguments: [
            // (top of a 100-high item, playable without inset, playable with the tab bar)
            (750.0, true, false),    // 50 in without the bar, none with it
            (650.0, true, true),     // with the bar: exactly half in (650…700)
            (650.5, true, false),    // with the bar: 49.5 in, just under half
            (700.0, true, false),    // with the bar: touches its edge only
            (-50.0, true, true),     // half above the top
            (-50.5, false, false),   // just under half below the top
            (900.0, false, false),   // fully out
            (300.0, true, true),     // fully in
          ])
    func halfHeight(top: Double, bare: Bool, withTabBar: Bool) {
        let frame = LayoutRect(x: 0, y: top, width: 100, height: 100)
        #expect(VisibilityRule.halfHeight.isPlayable(frame, in: Self.bare) == bare)
        #expect(VisibilityRule.halfHeight.isPlayable(frame, in: Self.tabBar) == withTabBar)
    }

    @Test("Only the rows that also overlap horizontally count; empty items never play")
    func horizontalAndEmpty() {
        let beside = LayoutRect(x: 400, y: 100, width: 100, height: 100)
        #expect(!VisibilityRule.halfHeight.isPlayable(beside, in: Self.bare))
        #expect(!VisibilityRule.anyOverlap.isPlayable(beside, in: Self.bare))
        #expect(!VisibilityRule.halfHeight.isPlayable(LayoutRect(x: 0, y: 100, width: 100, height: 0), in: Self.bare))
    }

    @Test("The other named rules: fully visible, any overlap")
    func otherRules() {
        let halfIn = LayoutRect(x: 0, y: 650, width: 100, height: 100)
        let sliver = LayoutRect(x: 0, y: 699, width: 100, height: 100)
        let inside = LayoutRect(x: 0, y: 600, width: 100, height: 100)
        #expect(!VisibilityRule.fullyVisible.isPlayable(halfIn, in: Self.tabBar))
        #expect(VisibilityRule.fullyVisible.isPlayable(inside, in: Self.tabBar))
        #expect(VisibilityRule.anyOverlap.isPlayable(sliver, in: Self.tabBar))
        #expect(!VisibilityRule.anyOverlap.isPlayable(LayoutRect(x: 0, y: 700, width: 100, height: 100), in: Self.tabBar))
        #expect(VisibilityRule.visibleHeight(fraction: 0.01).isPlayable(sliver, in: Self.tabBar))
        #expect(!VisibilityRule.visibleHeight(fraction: 0.02).isPlayable(sliver, in: Self.tabBar))
    }

    @Test("Several groups: the first group with playable items wins, its items in order")
    func firstGroupWithPlayableItems() {
        let groups = [
            // Scrolled mostly past: its items are above the top.
            FeedGroupLayout(id: "post-1", items: [Self.item("a1", y: -300), Self.item("a2", y: -60)]),
            FeedGroupLayout(id: "post-2", items: [
                Self.item("b1", y: 100), Self.item("b2", y: 100, x: 110), Self.item("b3", y: 220),
                Self.item("b4", y: 660),  // 40 in above the tab bar: not playable
            ]),
            FeedGroupLayout(id: "post-3", items: [Self.item("c1", y: 610)]),
        ]
        #expect(VisibilityRule.halfHeight.select(from: groups, in: Self.tabBar)
            == FeedSelection(groupIndex: 1, groupID: "post-2", keys: ["b1", "b2", "b3"]))
        // Without the tab bar b4 is fully in as well.
        #expect(VisibilityRule.halfHeight.select(from: groups, in: Self.bare)?.keys == ["b1", "b2", "b3", "b4"])
        // Any overlap: the first group counts again (a2 is 40 in).
        #expect(VisibilityRule.anyOverlap.select(from: groups, in: Self.tabBar)
            == FeedSelection(groupIndex: 0, groupID: "post-1", keys: ["a2"]))
        #expect(VisibilityRule.halfHeight.select(from: [groups[0]], in: Self.tabBar) == nil)
    }

    @Test("A scrolled viewport: item rectangles in content coordinates")
    func scrolled() {
        let viewport = Viewport(bounds: LayoutRect(x: 0, y: 1000, width: 400, height: 800), insets: EdgeInsets(bottom: 100))
        #expect(viewport.visibleRect == LayoutRect(x: 0, y: 1000, width: 400, height: 700))
        #expect(VisibilityRule.halfHeight.isPlayable(LayoutRect(x: 0, y: 1650, width: 100, height: 100), in: viewport))
        #expect(!VisibilityRule.halfHeight.isPlayable(LayoutRect(x: 0, y: 1651, width: 100, height: 100), in: viewport))
    }
}
