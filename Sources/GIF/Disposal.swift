/// What happens to a frame's pixels after it has been shown (GCE bits 2–4).
public enum Disposal: Sendable, Hashable, CustomStringConvertible {
    /// 0: no disposal specified; the frame stays, like ``keep``.
    case unspecified
    /// 1: leave the frame in place.
    case keep
    /// 2: clear the frame's rectangle, clipped to the canvas, to transparent black.
    case restoreBackground
    /// 3: restore the canvas to what it was before the frame was drawn.
    case restorePrevious
    /// 4–7: values the specification reserves. 4 behaves as
    /// ``restorePrevious``; 5, 6 and 7 keep the frame, as browsers do.
    case reserved(UInt8)

    /// Makes a disposal from the 3-bit field value (0–7).
    public init(rawValue: UInt8) {
        switch rawValue & 7 {
        case 0: self = .unspecified
        case 1: self = .keep
        case 2: self = .restoreBackground
        case 3: self = .restorePrevious
        default: self = .reserved(rawValue & 7)
        }
    }

    /// The 3-bit field value, 0–7.
    public var rawValue: UInt8 {
        switch self {
        case .unspecified: 0
        case .keep: 1
        case .restoreBackground: 2
        case .restorePrevious: 3
        case .reserved(let value): value
        }
    }

    /// The rule the compositor applies: `.keep`, `.restoreBackground` or
    /// `.restorePrevious` (0, 1, 5, 6, 7 keep; 4 acts as 3).
    package var effective: Disposal {
        switch rawValue {
        case 2: .restoreBackground
        case 3, 4: .restorePrevious
        default: .keep
        }
    }

    /// `"none"`, `"keep"`, `"background"`, `"previous"` or `"reserved(N)"`.
    public var description: String {
        switch self {
        case .unspecified: "none"
        case .keep: "keep"
        case .restoreBackground: "background"
        case .restorePrevious: "previous"
        case .reserved(let value): "reserved(\(value))"
        }
    }
}
