import GIF
import Playback

extension DumpJob {
    /// The bytes one written frame takes in `format`: the whole canvas
    /// (scaled to fit `maxSize` × `maxSize` when given) plus its header.
    static func bytesPerFrame(_ canvas: PixelSize, format: DumpFormat, maxSize: Int?) -> Int {
        var size = (width: canvas.width, height: canvas.height)
        if let maxSize, format != .nia {
            size = Poster.fit(width: size.width, height: size.height, maxWidth: maxSize, maxHeight: maxSize)
        }
        let pixels = size.width * size.height  // at most maxCanvasPixels: no overflow
        switch format {
        case .ppm: return 32 + 3 * pixels
        case .pam: return 80 + 4 * pixels
        case .nia: return 24 + 4 * pixels + (pixels % 2 == 1 ? 4 : 0)
        // At most the filtered rows stored uncompressed (a filter byte a
        // row), with deflate's and the chunks' framing (under 1 in 1,000).
        case .png:
            let rows = (4 * size.width + 1) * size.height
            return 128 + rows + rows / 1000
        }
    }

    /// Refuses, before anything is written, a dump whose output would pass
    /// ``DecodingLimits/maxOutputBytes`` (65,536 one-pixel frames
    /// on an 8192 × 8192 canvas would be 16 TiB of NIA) or, written one file
    /// per frame into a directory, ``DecodingLimits/maxOutputFiles``.
    /// - Parameters:
    ///   - image: The opened image (its limits apply).
    ///   - format: The output format.
    ///   - selection: The frames selected, or `nil` for all.
    ///   - maxSize: The poster size frames are scaled to, if any.
    ///   - toDirectory: Whether frames go to files in a directory.
    static func checkOutputBudget(
        _ image: GIFImage, format: DumpFormat, selection: FrameSelection?, maxSize: Int?, toDirectory: Bool
    ) throws(GIFError) {
        let count = image.info.frameCount
        let frames = selection?.count(in: count) ?? count
        try image.limits.checkOutput(
            frames: frames, bytesPerFrame: bytesPerFrame(image.info.canvasSize, format: format, maxSize: maxSize))
        if toDirectory, format.writesFilePerFrame { try image.limits.checkOutputFiles(frames) }
    }
}
