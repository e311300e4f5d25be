import Foundation
import GIF
import Playback

/// A GIF as a `Playback` frame source: the glue between the two modules.
///
/// Frames are decoded on demand by one iterator kept between calls: asking
/// for the frame after the last one asked for (what a player and its cache
/// do) costs one frame's decode; going back starts again from frame 0.
public final class GIFFrameSource: FrameSource, @unchecked Sendable {
    /// The image the frames come from.
    public let image: GIFImage
    /// Guards `iterator`: a cache may ask from several tasks at once.
    private let lock = NSLock()
    private var iterator: FrameIterator

    /// Wraps an opened image.
    public init(image: GIFImage) {
        self.image = image
        self.iterator = image.makeFrameIterator()
    }

    /// Opens and scans the GIF at `path`.
    public convenience init(contentsOf path: String, limits: DecodingLimits = .default) throws(GIFError) {
        self.init(image: try GIFImage(contentsOf: path, limits: limits))
    }

    /// The number of frames the scan found.
    public var frameCount: Int { image.info.frameCount }
    /// The canvas width, after the first-frame growth rule.
    public var canvasWidth: Int { image.info.canvasSize.width }
    /// The canvas height, after the first-frame growth rule.
    public var canvasHeight: Int { image.info.canvasSize.height }
    /// The stored delays; the player applies its delay policy.
    public var frameDelays: [Duration] { image.info.frames.map(\.delay) }
    /// The stored loop count: `nil` without a loop extension, 0 forever.
    public var storedLoopCount: Int? { image.info.loopCount.stored }

    /// The composited frame at `index`, RGBA8.
    ///
    /// - Throws: ``GIFError`` when the frame cannot be decoded. A frame whose
    ///   data fails part-way is returned with the rows decoded.
    public func frame(at index: Int) async throws -> RenderedFrame {
        let frame = try lock.withLock { () throws(GIFError) -> CompositedFrame in
            if index < iterator.nextIndex { iterator = image.makeFrameIterator() }
            while let frame = try iterator.next() {
                if frame.index == index { return frame }
            }
            throw GIFError(.frameOutOfRange(index, count: image.info.frameCount), frameIndex: index)
        }
        return RenderedFrame(index: index, width: frame.size.width, height: frame.size.height, pixels: frame.pixels)
    }
}
