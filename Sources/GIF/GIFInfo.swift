/// Everything the scanner learns from a GIF's block structure, without running
/// LZW: the canvas, every frame's rectangle, timing and byte offsets, the loop
/// count and the metadata.
public struct GIFInfo: Sendable, Hashable {
    /// `GIF87a` or `GIF89a`.
    package var version: ImageFormat
    /// The logical screen size stored in the header.
    package var screenSize: PixelSize
    /// The canvas frames are composited on: the logical screen, grown to
    /// include the first frame when that frame reaches beyond it.
    public var canvasSize: PixelSize
    /// The background colour index. Metadata only: it is never painted.
    package var backgroundIndex: UInt8
    /// The pixel aspect ratio byte (0 when unset).
    package var aspectRatioByte: UInt8
    /// The global colour table, if the file has one.
    public var globalPalette: Palette?
    /// Every frame, in file order.
    public var frames: [FrameInfo]
    /// The loop count; the latest loop extension in the file wins.
    public var loopCount: LoopCount
    /// The text of each comment extension, decoded as Latin-1.
    package var comments: [String]
    /// Application extensions other than the loop extension's.
    package var applicationExtensions: [ApplicationExtension]
    /// Byte offset where the block structure ended (the trailer, an unknown
    /// block byte, or the end of the file).
    package var endOffset: Int
    /// Whether the structure ended at a `0x3B` trailer.
    package var hasTrailer: Bool
    /// The structural problem that ended the scan early (a truncated block),
    /// if any. Frames before it are listed in ``frames``.
    public var error: GIFError?

    /// The number of frames.
    public var frameCount: Int { frames.count }

    /// The pixels of every frame's own rectangle: what decoding them all
    /// writes, and the bytes every frame's stored palette indices take.
    package var framePixelCount: Int { frames.reduce(0) { $0 + $1.rect.area } }

    /// The sum of the stored delays.
    public var totalDuration: Duration {
        .milliseconds(frames.reduce(0) { $0 + $1.delayCentiseconds } * 10)
    }

    /// The sum of the delays browsers show (see ``FrameInfo/browserDelay``).
    public var browserDuration: Duration {
        frames.reduce(Duration.zero) { $0 + $1.browserDelay }
    }
}
