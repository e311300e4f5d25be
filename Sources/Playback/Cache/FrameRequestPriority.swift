/// How urgently a frame is wanted, so that a source that decodes on shared
/// threads (the GIF glue's decode executor) serves the most urgent request
/// first.
///
/// A ``FrameCache`` asks with ``now`` for a frame a player is waiting for (a
/// miss) and with ``prefetch`` for its look-ahead; everything else (posters,
/// preloads, a host calling ``FrameSource/frame(at:)`` itself) is
/// ``background``. Requests of the same priority keep the order asked.
public enum FrameRequestPriority: Int, Sendable, Hashable, Comparable, CaseIterable {
    /// Posters, preloads and direct calls: served when nothing more urgent
    /// waits.
    case background = 0
    /// A frame a playing player will need soon (a cache's look-ahead).
    case prefetch = 1
    /// A frame a player needs now: its cache missed.
    case now = 2

    /// Whether `lhs` is less urgent than `rhs`.
    public static func < (lhs: FrameRequestPriority, rhs: FrameRequestPriority) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}
