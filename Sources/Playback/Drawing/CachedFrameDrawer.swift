@_spi(Engine) import EngineSupport

/// The drawer of a source that cannot draw on its own (see
/// ``FrameSource/makeDrawer(notifying:)``): it copies whole frames the
/// player's ``FrameCache`` holds, and when the frame is not there yet it
/// reports the draw late and asks the cache to decode it.
final class CachedFrameDrawer: FrameDrawer {
    let width: Int
    let height: Int
    let pixelFormat: PixelFormat
    private let cache: FrameCache
    private let drawn = LockedState<Int?>(nil)

    init(cache: FrameCache) {
        self.cache = cache
        self.width = cache.source.canvasWidth
        self.height = cache.source.canvasHeight
        self.pixelFormat = cache.source.pixelFormat
    }

    var byteCount: Int { 0 }

    func invalidate() {
        drawn.withLock { $0 = nil }
    }

    func prefetch(_ frames: [Int]) {
        // In order, the newest list kept: a late draw's request never
        // overtakes the player's newer one.
        guard frames.contains(where: { cache.heldFrame(at: $0) == nil }) else { return }
        cache.requestPrefetch(frames)
    }

    func draw(frame index: Int, into buffer: UnsafeMutableRawBufferPointer, bytesPerRow: Int) throws(PixelBufferError)
        -> FrameDraw
    {
        try PixelBufferError.check(width: width, height: height, bytesPerRow: bytesPerRow, bufferCount: buffer.count)
        let result = try drawn.withLockIfAvailable { drawn throws(PixelBufferError) -> FrameDraw in
            if drawn == index { return .unchanged(frame: index) }
            guard let frame = cache.heldFrame(at: index) else {
                prefetch([index])
                return .late(frame: index, shown: drawn)
            }
            guard frame.width == width, frame.height == height else {
                return .failed(frame: index, shown: drawn, reason: "the frame is \(frame.width)x\(frame.height), not \(width)x\(height)")
            }
            let stepped = drawn == index - 1
            try frame.copy(into: buffer, bytesPerRow: bytesPerRow, onlyChanged: stepped)
            drawn = index
            let whole = PixelRect(x: 0, y: 0, width: width, height: height)
            return .drawn(frame: index, changed: stepped ? frame.changedRect.clipped(toWidth: width, height: height) : whole,
                          isComplete: true)
        }
        guard let result else { throw .drawnConcurrently }
        return result
    }
}
