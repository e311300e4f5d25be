/// How many times an animation plays in all.
///
/// The default, ``fromSource``, follows browsers (Chromium, Firefox and
/// Safari since 2018), which read the stored count as *extra* plays.
public enum LoopPolicy: Sendable, Hashable {
    /// Use the source's `storedLoopCount` with browser rules:
    /// no loop extension plays once, a stored 0 plays forever, and a stored
    /// `n > 0` plays `n + 1` times. A negative stored value counts as absent.
    case fromSource

    /// Play exactly this many times in all, whatever the file says.
    /// Values below 1 are treated as 1: a started animation always plays once.
    case count(Int)

    /// Loop forever, whatever the file says.
    case forever

    /// The browser-compatible default, ``fromSource``.
    public static let browser = LoopPolicy.fromSource

    /// The number of plays in all, or `nil` for forever.
    /// - Parameter storedLoopCount: The stored value, as in
    ///   `storedLoopCount`.
    public func plays(storedLoopCount: Int?) -> Int? {
        switch self {
        case .forever:
            return nil
        case .count(let count):
            return max(1, count)
        case .fromSource:
            guard let stored = storedLoopCount, stored >= 0 else { return 1 }
            if stored == 0 { return nil }
            return stored == Int.max ? Int.max : stored + 1
        }
    }
}
