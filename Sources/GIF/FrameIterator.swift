/// Decodes and composites a GIF's frames in order, one at a time, in memory
/// proportional to the canvas.
///
/// When a frame's data fails part-way, ``next()`` first returns the frame with
/// the rows decoded so far (``CompositedFrame/isComplete`` is `false`), then
/// throws on the following call. A file cut short after its last whole frame
/// also throws, after that frame. Once it has thrown or returned `nil`, it
/// returns `nil`.
public struct FrameIterator {
    /// The image being decoded.
    public let image: GIFImage
    /// The index of the frame the next call to ``next()`` returns.
    public private(set) var nextIndex = 0
    private var compositor: Compositor?
    private var row: [UInt8] = []
    private var pendingError: GIFError?
    private var done = false

    init(image: GIFImage) {
        self.image = image
    }

    /// The next composited frame, or `nil` after the last.
    ///
    /// - Throws: ``GIFError`` naming the frame, the byte offset and how many
    ///   frames were decoded before it.
    public mutating func next() throws(GIFError) -> CompositedFrame? {
        guard let (frame, complete) = try advance(keepPixels: true) else { return nil }
        return CompositedFrame(
            info: frame, size: image.info.canvasSize, pixels: compositor!.canvas, isComplete: complete)
    }

    /// Composites frames up to, not including, `index`, without copying
    /// their canvases out.
    mutating func skip(to index: Int) throws(GIFError) {
        while nextIndex < index, try advance(keepPixels: false) != nil {}
    }

    private mutating func advance(keepPixels: Bool) throws(GIFError) -> (FrameInfo, Bool)? {
        guard !done else { return nil }
        if let error = pendingError ?? (nextIndex == image.info.frameCount ? finalError() : nil) {
            done = true
            throw error
        }
        guard nextIndex < image.info.frameCount else {
            done = true
            return nil
        }
        let frame = image.info.frames[nextIndex]
        if compositor == nil { compositor = Compositor(canvasSize: image.info.canvasSize) }
        if row.count < frame.rect.width { row = [UInt8](repeating: 0, count: frame.rect.width) }
        compositor!.begin(frame, globalPalette: image.info.globalPalette)
        let outcome = decode(frame)
        compositor!.end(frame)
        nextIndex += 1
        guard let cause = outcome.failure else { return (frame, true) }
        var failure = image.error(for: cause, in: frame, at: outcome.offset)
        failure.framesDecoded = outcome.decodedAnything ? nextIndex : nextIndex - 1
        guard outcome.decodedAnything else {
            done = true
            throw failure
        }
        pendingError = failure
        return (frame, false)
    }

    private func finalError() -> GIFError? {
        guard var error = image.info.error else { return nil }
        error.framesDecoded = nextIndex
        return error
    }

    private mutating func decode(_ frame: FrameInfo) -> FrameDecoding.Outcome {
        var compositor = self.compositor.take()!
        defer { self.compositor = compositor }
        return image.bytes.withUnsafeBufferPointer { file in
            row.withUnsafeMutableBufferPointer { row in
                FrameDecoding.decode(frame, bytes: file, row: row) { y, count in
                    compositor.draw(row: y, indices: UnsafeBufferPointer(row), count: count)
                }
            }
        }
    }
}
