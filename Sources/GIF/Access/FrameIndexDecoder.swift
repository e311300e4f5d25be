/// Decodes single frames' palette indices into a ``FrameIndexCache``, in
/// any order: a frame's indices depend only on its own data, not on the
/// frames before it (compositing does). The decode-ahead of a GIF's drawing
/// players runs on one of these, on a thread of the library's own, while
/// the players composite from the cache on the host's threads.
///
/// Not thread-safe: one thread at a time.
package final class FrameIndexDecoder {
    private let decoder = FrameDecoder()
    /// The frames decoded so far.
    package private(set) var decodeCount = 0

    /// A decoder with no buffers yet.
    package init() {}

    /// The bytes its buffers hold between frames.
    package var byteCount: Int { decoder.byteCount }

    /// The most bytes ``byteCount`` reaches decoding frames of `image`:
    /// the largest frame's indices, the code check's scratch (its table,
    /// and the largest frame's data, grown by doubling), the largest
    /// frame's data read from a file, and giflib's handle. What a shared
    /// budget counts for it before its first decode.
    package static func byteBound(for image: GIFImage) -> Int {
        let frames = image.info.frames
        let area = frames.map(\.rect.area).max() ?? 0
        let data = (frames.map { max(0, $0.dataEnd - $0.dataOffset) }.max() ?? 0) + 16
        let scratch = LZWCodeCheck.Scratch.tableSize * MemoryLayout<UInt16>.stride + 2 * data
        return area + scratch + (image.file == nil ? 0 : data) + LZWDecoder.byteCount
    }

    /// Decodes frame `index` of `image` and offers its indices to `cache`,
    /// unless `cache` holds them already or there is no such frame.
    /// - Returns: Whether giflib decoded the frame.
    @discardableResult
    package func fill(_ cache: FrameIndexCache, frame index: Int, of image: GIFImage) -> Bool {
        guard image.info.frames.indices.contains(index), cache.entry(index) == nil else { return false }
        decode(image.info.frames[index], of: image, into: cache) { _, _ in }
        return true
    }

    /// Decodes frame `index` of `image` and offers its indices to `cache`
    /// as ``fill(_:frame:of:)`` does (whether or not `cache` holds them),
    /// and returns the bytes they take as runs (``IndexRuns``), whatever
    /// their share of the frame: `nil` when there is no such frame or its
    /// data did not decode whole.
    package func measureRuns(_ cache: FrameIndexCache, frame index: Int, of image: GIFImage) -> Int? {
        guard image.info.frames.indices.contains(index) else { return nil }
        let frame = image.info.frames[index]
        return decode(frame, of: image, into: cache) { indices, outcome -> Int? in
            let whole = outcome.failure == nil && outcome.partialPixels == 0 && outcome.rows == frame.rect.height
            guard whole, indices.count >= frame.rect.area else { return nil }
            return IndexRuns.encodedCount(UnsafeBufferPointer(rebasing: indices[..<frame.rect.area]))
        }
    }

    /// Decodes `frame` of `image`, offers its indices to `cache`, and
    /// returns what `body` makes of them and the decode's outcome.
    private func decode<Result>(
        _ frame: FrameInfo, of image: GIFImage, into cache: FrameIndexCache,
        _ body: (UnsafeBufferPointer<UInt8>, FrameDecoder.Outcome) -> Result
    ) -> Result {
        decodeCount += 1
        let decoder = decoder
        let outcome = decoder.withData(of: frame, in: image) { local, bytes in decoder.decode(local, bytes: bytes) }
        return decoder.withIndices { indices in
            cache.offer(frame, indices: indices, outcome: outcome)
            return body(indices, outcome)
        }
    }
}
