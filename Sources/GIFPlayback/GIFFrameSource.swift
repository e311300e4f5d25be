import Foundation
import GIF
import Playback

/// A GIF as a `Playback` frame source: the glue between the two modules.
///
/// Frames are decoded on demand by one ``FrameSeeker`` kept between calls:
/// asking for the frame after the last one asked for (what a player and its
/// cache do) costs one frame's decode, and a jump back resumes from the
/// nearest checkpoint the seeker saved on the way, within its memory budget.
public final class GIFFrameSource: FrameSource, @unchecked Sendable {
    /// The image the frames come from.
    public let image: GIFImage
    /// Guards `seeker`: a cache may ask from several tasks at once.
    private let lock = NSLock()
    private var seeker: FrameSeeker

    /// The default memory budget for seek checkpoints: 8 MiB, a few canvases
    /// of a typical GIF, so that nine sources in a feed stay small. The
    /// player's frame cache has its own budget.
    public static let defaultCheckpointBudget = 8 << 20

    /// Wraps an opened image; `checkpointBudget` bounds the canvases kept to
    /// make jumps back cheap.
    public init(image: GIFImage, checkpointBudget: Int = defaultCheckpointBudget) {
        self.image = image
        self.seeker = image.makeSeeker(memoryBudget: checkpointBudget)
    }

    /// Opens and scans the GIF at `path`.
    public convenience init(contentsOf path: String, limits: DecodingLimits = .default) throws(GIFError) {
        self.init(image: try GIFImage(contentsOf: path, limits: limits))
    }

    /// The seek checkpoints held now (see ``FrameSeeker``), for diagnostics.
    public var checkpointCount: Int { lock.withLock { seeker.checkpointCount } }

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
        try await frame(at: index, reusing: [])
    }

    /// Drops the seek checkpoints and the decoder's canvas and giflib handle
    /// (the ``FrameCache`` reading this source went away); the next frame
    /// request starts again from frame 0 or a new checkpoint.
    public func releaseDecodingState() {
        lock.withLock { seeker = image.makeSeeker(memoryBudget: seeker.memoryBudget) }
    }

    /// The composited frame at `index`, drawn into `storage` when it is a
    /// whole canvas nobody else holds (what a ``FrameCache`` hands back from
    /// an evicted frame), so steady playback allocates no pixels.
    ///
    /// - Throws: As ``frame(at:)``.
    public func frame(at index: Int, reusing storage: consuming [UInt8]) async throws -> RenderedFrame {
        var pixels = consume storage
        _ = try lock.withLock { () throws(GIFError) -> Bool in try seeker.copyFrame(at: index, into: &pixels) }
        return RenderedFrame(index: index, width: canvasWidth, height: canvasHeight, pixels: pixels)
    }
}
