/// The largest size a host draws an animation at: frames are composited at
/// full size and box-filtered into the biggest size with the canvas's aspect
/// ratio that fits (see ``Poster/fit(width:height:maxWidth:maxHeight:)``),
/// never scaled up, so a cache holds only the small frames.
///
/// ```swift
/// let cell = DisplaySize(maxWidth: 160, maxHeight: 160)
/// let small = source.displaying(at: cell)      // 500 × 300 frames become 160 × 96
/// ```
public struct DisplaySize: Sendable, Hashable, CustomStringConvertible {
    /// The widest frame allowed, in pixels (at least 1).
    public var maxWidth: Int

    /// The tallest frame allowed, in pixels (at least 1).
    public var maxHeight: Int

    /// Creates a display size; sides below 1 read as 1.
    /// - Parameters:
    ///   - maxWidth: The widest frame allowed, in pixels.
    ///   - maxHeight: The tallest frame allowed, in pixels.
    public init(maxWidth: Int, maxHeight: Int) {
        self.maxWidth = max(1, maxWidth)
        self.maxHeight = max(1, maxHeight)
    }

    /// The size a `width` × `height` canvas is shown at: itself when it
    /// fits, else scaled down with its aspect ratio kept, sides clamped to
    /// ``Poster/maxSide``.
    /// - Parameters:
    ///   - width: The canvas width.
    ///   - height: The canvas height.
    public func fitting(width: Int, height: Int) -> (width: Int, height: Int) {
        let size = Poster.fit(width: width, height: height, maxWidth: maxWidth, maxHeight: maxHeight)
        return (min(size.width, Poster.maxSide), min(size.height, Poster.maxSide))
    }

    /// `160x160`, say.
    public var description: String { "\(maxWidth)x\(maxHeight)" }
}
