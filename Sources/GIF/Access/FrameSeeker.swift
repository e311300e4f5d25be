/// Random access to a GIF's composited frames that costs a few frames'
/// decoding, not all the frames before the one asked for.
///
/// A GIF frame is drawn over what the frames before it left, so frame *n*
/// depends on frames 0…*n* − 1. As a seeker decodes forward it saves
/// checkpoints, the compositing state before every ``checkpointInterval``-th
/// frame, as many as ``memoryBudget`` holds; a later request resumes from the
/// nearest checkpoint at or before the frame (or from where the last request
/// left off, when that is nearer) and decodes at most
/// ``checkpointInterval`` frames.
///
/// The first request for a frame past any checkpoint still decodes the
/// frames on the way, saving checkpoints as it goes; ``prepare()`` does that
/// for the whole file at once.
///
/// ```swift
/// var seeker = image.makeSeeker()
/// let frame = try seeker.frame(at: 120)
/// ```
public struct FrameSeeker {
    /// The default budget for checkpoints: 64 MiB.
    public static let defaultMemoryBudget = 64 << 20

    /// The image being decoded.
    public private(set) var image: GIFImage
    /// The most bytes the checkpoints may hold.
    public let memoryBudget: Int
    /// Frames between checkpoints: a request decodes at most this many.
    public let checkpointInterval: Int
    /// Saved states, by the index of the frame they come before.
    private var checkpoints: [Int: FrameIterator] = [:]
    private var checkpointBytes = 0
    /// Where the last request left off.
    private var live: FrameIterator

    /// A seeker over `image` whose checkpoints hold at most `memoryBudget`
    /// bytes (each holds about one canvas, width × height × 4 bytes).
    public init(image: GIFImage, memoryBudget: Int = Self.defaultMemoryBudget) {
        self.image = image
        self.memoryBudget = memoryBudget
        let canvasBytes = max(1, image.info.canvasSize.area * 4)
        let fitting = max(1, memoryBudget / canvasBytes)
        let frames = max(1, image.info.frameCount)
        checkpointInterval = max(1, (frames + fitting - 1) / fitting)
        live = image.makeFrameIterator()
    }

    /// The number of checkpoints saved so far.
    public var checkpointCount: Int { checkpoints.count }

    /// The bytes the saved checkpoints hold (at most ``memoryBudget``).
    public var checkpointByteCount: Int { checkpointBytes }

    /// The composited frame at `index`.
    ///
    /// - Throws: ``GIFError`` when `index` is out of range, or when a frame
    ///   on the way to it fails (a frame that fails part-way is still
    ///   returned when it is the one asked for).
    public mutating func frame(at index: Int) throws(GIFError) -> CompositedFrame {
        guard image.info.frames.indices.contains(index) else {
            throw GIFError(.frameOutOfRange(index, count: image.info.frameCount), frameIndex: index)
        }
        let nearest = stride(from: index / checkpointInterval * checkpointInterval, through: 0, by: -checkpointInterval)
            .first { $0 == 0 || checkpoints[$0] != nil } ?? 0
        if live.nextIndex > index || live.nextIndex < nearest {
            if nearest == 0 {
                live.rewind()
            } else {
                live.restore(from: checkpoints[nearest]!)
            }
        }
        while live.nextIndex < index {
            saveCheckpoint()
            try live.skip(to: live.nextIndex + 1)
        }
        saveCheckpoint()
        guard let frame = try live.next() else {
            throw GIFError(.frameOutOfRange(index, count: image.info.frameCount), frameIndex: index)
        }
        return frame
    }

    /// Composites the frame at `index` like ``frame(at:)`` and copies the
    /// canvas into `pixels`, in place when `pixels` already holds a whole
    /// canvas that nothing else shares. A player cycling through an
    /// animation this way allocates nothing per frame once warm.
    ///
    /// - Returns: `false` when the frame's data failed part-way (the rows
    ///   decoded are shown, as in ``CompositedFrame/isComplete``).
    /// - Throws: As ``frame(at:)``.
    @discardableResult
    public mutating func copyFrame(at index: Int, into pixels: inout [UInt8]) throws(GIFError) -> Bool {
        let frame = try frame(at: index)
        frame.pixels.withUnsafeBytes { canvas in
            if pixels.count == canvas.count {
                pixels.withUnsafeMutableBytes { $0.copyMemory(from: canvas) }
            } else {
                pixels = [UInt8](unsafeUninitializedCapacity: canvas.count) { target, count in
                    UnsafeMutableRawBufferPointer(target).copyMemory(from: canvas)
                    count = canvas.count
                }
            }
        }
        return frame.isComplete
    }

    /// Decodes the whole file once, saving every checkpoint the budget
    /// allows, so that every later ``frame(at:)`` costs at most
    /// ``checkpointInterval`` frames.
    ///
    /// - Throws: ``GIFError`` when a frame fails.
    public mutating func prepare() throws(GIFError) {
        guard image.info.frameCount > 0 else { return }
        _ = try frame(at: image.info.frameCount - 1)
    }

    /// Takes on `grown`, the same GIF read further (an ``IncrementalGIF``'s
    /// ``IncrementalGIF/image`` after more bytes came): its bytes start with
    /// this image's and its frames with this image's frames, so the saved
    /// checkpoints and the position stay valid. For GIFPlayback's frame
    /// source over bytes still arriving; `checkpointInterval` stays the one
    /// chosen for the frames known at creation.
    package mutating func adopt(grown: GIFImage) {
        image = grown
        live.image = grown
        for index in checkpoints.keys { checkpoints[index]!.image = grown }
    }

    private mutating func saveCheckpoint() {
        let index = live.nextIndex
        guard index > 0, index % checkpointInterval == 0, checkpoints[index] == nil else { return }
        let checkpoint = live.checkpoint()
        let bytes = checkpoint.stateByteCount
        guard checkpointBytes + bytes <= memoryBudget else { return }
        checkpoints[index] = checkpoint
        checkpointBytes += bytes
    }
}
