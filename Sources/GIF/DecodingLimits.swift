/// Bounds on what a decode may allocate or do, checked before allocating.
///
/// The defaults admit every real-world GIF we know of while keeping a hostile
/// file from taking more than a few hundred MiB: a 16384 × 16384 canvas
/// (1 GiB of RGBA) is refused, an 8192 × 8192 one is not.
public struct DecodingLimits: Sendable, Hashable {
    /// The limit that a file ran into.
    public enum Limit: String, Sendable, Hashable, CustomStringConvertible {
        /// ``DecodingLimits/maxCanvasPixels``.
        case canvasPixels = "canvas pixels"
        /// ``DecodingLimits/maxFramePixels``.
        case framePixels = "frame pixels"
        /// ``DecodingLimits/maxFrameCount``.
        case frameCount = "frame count"
        /// ``DecodingLimits/maxInputBytes``.
        case inputBytes = "input bytes"

        /// The limit's name, e.g. "canvas pixels".
        public var description: String { rawValue }
    }

    /// Largest canvas, in pixels (width × height). Default 2²⁶ (64 Mi pixels,
    /// 256 MiB of RGBA).
    public var maxCanvasPixels: Int
    /// Largest single frame rectangle, in pixels, before clipping. A frame is
    /// decoded in full even when most of it lies off the canvas, so this bounds
    /// the time one frame can take. Default 2²⁶.
    public var maxFramePixels: Int
    /// Most frames in one file. Default 65,536.
    public var maxFrameCount: Int
    /// Largest input, in bytes. Default 1 GiB.
    public var maxInputBytes: Int

    /// Creates limits; every argument defaults to the value documented above.
    public init(
        maxCanvasPixels: Int = 1 << 26,
        maxFramePixels: Int = 1 << 26,
        maxFrameCount: Int = 65_536,
        maxInputBytes: Int = 1 << 30
    ) {
        self.maxCanvasPixels = maxCanvasPixels
        self.maxFramePixels = maxFramePixels
        self.maxFrameCount = maxFrameCount
        self.maxInputBytes = maxInputBytes
    }

    /// The default limits.
    public static let `default` = DecodingLimits()
}
