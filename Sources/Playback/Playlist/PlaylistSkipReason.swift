/// Why a ``Playlist`` passed over an item when its turn came.
public enum PlaylistSkipReason: Sendable, Equatable, CustomStringConvertible {
    /// The item's loader threw this error (or its source was refused, with a
    /// ``PlayerError``).
    case loadFailed(any Error)

    /// The item was still loading after the playlist had waited this long
    /// (``PlaylistConfiguration/loadTimeout``). Its load goes on; it plays on
    /// a later turn once ready.
    case timedOut(after: Duration)

    /// Equal cases are equal; two failures are equal when their errors have
    /// the same type and the same `String(reflecting:)` text.
    public static func == (lhs: PlaylistSkipReason, rhs: PlaylistSkipReason) -> Bool {
        switch (lhs, rhs) {
        case (.loadFailed(let a), .loadFailed(let b)): sameError(a, b)
        case (.timedOut(let a), .timedOut(let b)): a == b
        default: false
        }
    }

    /// `load failed: ERROR` or `still loading after DURATION`.
    public var description: String {
        switch self {
        case .loadFailed(let error): "load failed: \(error)"
        case .timedOut(let waited): "still loading after \(waited)"
        }
    }

    /// Errors are not `Equatable`; compare their type and full description.
    static func sameError(_ a: any Error, _ b: any Error) -> Bool {
        type(of: a) == type(of: b) && String(reflecting: a) == String(reflecting: b)
    }
}
