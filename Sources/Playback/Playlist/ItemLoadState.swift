/// Where the load of one ``PlaylistItem`` stands.
public enum ItemLoadState: Sendable, Equatable, CustomStringConvertible {
    /// The playlist has not asked for it yet.
    case notStarted

    /// The loader is running.
    case loading

    /// The frames are there; the item can play.
    case ready

    /// The loader threw (or handed back a source no player accepts); the
    /// item is skipped on each turn until the host hands it in anew.
    case failed(any Error)

    /// Equal cases are equal; two failures are equal when their errors have
    /// the same type and the same `String(reflecting:)` text.
    public static func == (lhs: ItemLoadState, rhs: ItemLoadState) -> Bool {
        switch (lhs, rhs) {
        case (.notStarted, .notStarted), (.loading, .loading), (.ready, .ready): true
        case (.failed(let a), .failed(let b)): PlaylistSkipReason.sameError(a, b)
        default: false
        }
    }

    /// `not started`, `loading`, `ready` or `failed: ERROR`.
    public var description: String {
        switch self {
        case .notStarted: "not started"
        case .loading: "loading"
        case .ready: "ready"
        case .failed(let error): "failed: \(error)"
        }
    }
}
