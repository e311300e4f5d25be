/// How many times an animation asks to be played, from its `NETSCAPE2.0` or
/// `ANIMEXTS1.0` application extension.
public struct LoopCount: Sendable, Hashable, CustomStringConvertible {
    /// The value stored in the file, or `nil` when there is no loop extension.
    /// 0 means forever.
    public var stored: Int?

    /// Creates a loop count from the stored value.
    package init(stored: Int?) {
        self.stored = stored
    }

    /// The number of times the animation plays in all, with browser semantics
    /// (since 2018): no extension plays once, stored 0 plays forever (`nil`),
    /// stored N > 0 plays N + 1 times.
    public var plays: Int? {
        guard let stored else { return 1 }
        return stored == 0 ? nil : stored + 1
    }

    /// Whether the animation repeats forever.
    package var isForever: Bool { plays == nil }

    /// `"forever"`, `"1 play (no extension)"`, `"3 plays (stored 2)"`.
    public var description: String {
        switch (stored, plays) {
        case (nil, _): "1 play (no loop extension)"
        case (_, nil): "forever (stored 0)"
        case (let stored?, let plays?): "\(plays) plays (stored \(stored))"
        }
    }
}
