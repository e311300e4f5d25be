/// A ``FrameSource`` handed back something the library cannot use, or a
/// frame it could not draw: the ``FrameCache``, ``Poster`` and ``Playlist``
/// check what a source answers before relying on it, and throw this instead
/// of reading out of bounds or trapping.
///
/// A correct source never causes the first five; they guard against
/// sources written carelessly or fed by hostile data (a frame count that
/// changes after loading, a pixel array shorter than the canvas).
/// ``drawFailed(index:reason:)`` comes from the file's data.
public enum FrameSourceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Frame `index` came back with pixels that do not fill `width` ×
    /// `height` × 4 bytes (`byteCount` instead), or with negative sides.
    case malformedFrame(index: Int, width: Int, height: Int, byteCount: Int)

    /// Frame `index` came back `width` × `height` while the source's canvas is
    /// `canvasWidth` × `canvasHeight`.
    case wrongFrameSize(index: Int, width: Int, height: Int, canvasWidth: Int, canvasHeight: Int)

    /// The source was asked for frame `requested` and answered with frame
    /// `returned`.
    case wrongFrameIndex(requested: Int, returned: Int)

    /// The source's canvas is negative or too large to address
    /// (width × height × 4 overflows `Int`).
    case invalidCanvas(width: Int, height: Int)

    /// The source reported `loaded` frames (or delays) when it was loaded and
    /// `now` frames (or delays) later.
    case frameCountChanged(loaded: Int, now: Int)

    /// Frame `index` (or one it is composited on) has nothing to show:
    /// its data failed before any row decoded, for `reason` (a player's
    /// drawer reported ``FrameDraw/failed(frame:shown:reason:)``).
    case drawFailed(index: Int, reason: String)

    /// What the source did wrong, in one line.
    public var description: String {
        switch self {
        case .malformedFrame(let index, let width, let height, let byteCount):
            "frame \(index) is \(width)x\(height) but holds \(byteCount) bytes of pixels"
        case .wrongFrameSize(let index, let width, let height, let canvasWidth, let canvasHeight):
            "frame \(index) is \(width)x\(height), not the canvas's \(canvasWidth)x\(canvasHeight)"
        case .wrongFrameIndex(let requested, let returned):
            "asked for frame \(requested), the source returned frame \(returned)"
        case .invalidCanvas(let width, let height):
            "the canvas \(width)x\(height) cannot be addressed"
        case .frameCountChanged(let loaded, let now):
            "the source had \(loaded) frames when loaded and reports \(now) now"
        case .drawFailed(let index, let reason):
            "frame \(index) could not be drawn: \(reason)"
        }
    }

    /// The bytes of a `width` × `height` RGBA8 image, or `nil` when a side is
    /// negative or the product overflows.
    static func byteCount(width: Int, height: Int) -> Int? {
        guard width >= 0, height >= 0 else { return nil }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow else { return nil }
        let (bytes, overflow4) = pixels.multipliedReportingOverflow(by: 4)
        return overflow4 ? nil : bytes
    }

    /// Checks that `frame` is well formed: sides not negative and exactly
    /// width × height × 4 bytes of pixels.
    static func check(_ frame: RenderedFrame) throws(FrameSourceError) {
        guard byteCount(width: frame.width, height: frame.height) == frame.pixels.count else {
            throw .malformedFrame(
                index: frame.index, width: frame.width, height: frame.height, byteCount: frame.pixels.count)
        }
    }

    /// Checks that `frame` is the well-formed frame `index` of `source`'s
    /// canvas.
    static func check(_ frame: RenderedFrame, isFrame index: Int, of source: any FrameSource) throws(FrameSourceError) {
        guard frame.index == index else { throw .wrongFrameIndex(requested: index, returned: frame.index) }
        try check(frame)
        guard frame.width == source.canvasWidth, frame.height == source.canvasHeight else {
            throw .wrongFrameSize(
                index: index, width: frame.width, height: frame.height,
                canvasWidth: source.canvasWidth, canvasHeight: source.canvasHeight)
        }
    }
}
