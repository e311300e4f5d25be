/// Still images for items that are not playing: one frame of a
/// ``FrameSource``, downscaled with a box filter.
///
/// Format-agnostic like the rest of `Playback`: it asks the source for the
/// one frame it needs (``FrameSource/frame(at:)``; a sequential decoder such
/// as the GIF glue decodes frames `0…n` for frame `n` and no further), then
/// averages pixel areas.
///
/// ```swift
/// let still = try await Poster.make(from: source, maxSize: 128)   // frame 0
/// ```
public enum Poster {
    /// Frame `frame` of `source`, scaled down to fit a `maxSize` × `maxSize`
    /// box with its aspect ratio kept (see ``fit(width:height:maxWidth:maxHeight:)``).
    /// - Parameters:
    ///   - source: The frames.
    ///   - frame: The frame to show (default 0, the first).
    ///   - maxSize: The longest side allowed, in pixels (at least 1).
    /// - Throws: ``PlayerError/frameOutOfRange(_:frameCount:)`` or the
    ///   source's decoding error.
    public static func make(from source: some FrameSource, frame: Int = 0, maxSize: Int) async throws -> RenderedFrame {
        try await make(from: source, frame: frame, maxWidth: maxSize, maxHeight: maxSize)
    }

    /// Frame `frame` of `source`, scaled down to fit `maxWidth` × `maxHeight`
    /// with its aspect ratio kept; never scaled up.
    /// - Parameters:
    ///   - source: The frames.
    ///   - frame: The frame to show (default 0, the first).
    ///   - maxWidth: The widest allowed, in pixels (at least 1).
    ///   - maxHeight: The tallest allowed, in pixels (at least 1).
    /// - Throws: ``PlayerError/frameOutOfRange(_:frameCount:)`` or the
    ///   source's decoding error.
    public static func make(
        from source: some FrameSource, frame: Int = 0, maxWidth: Int, maxHeight: Int
    ) async throws -> RenderedFrame {
        guard (0..<source.frameCount).contains(frame) else {
            throw PlayerError.frameOutOfRange(frame, frameCount: source.frameCount)
        }
        return downscale(try await source.frame(at: frame), maxWidth: maxWidth, maxHeight: maxHeight)
    }

    /// `frame` scaled down to fit `maxWidth` × `maxHeight` with its aspect
    /// ratio kept, or unchanged when it already fits.
    /// - Parameters:
    ///   - frame: The full-size frame.
    ///   - maxWidth: The widest allowed (at least 1).
    ///   - maxHeight: The tallest allowed (at least 1).
    public static func downscale(_ frame: RenderedFrame, maxWidth: Int, maxHeight: Int) -> RenderedFrame {
        let size = fit(width: frame.width, height: frame.height, maxWidth: maxWidth, maxHeight: maxHeight)
        if size.width == frame.width, size.height == frame.height { return frame }
        return boxFilter(frame, width: size.width, height: size.height)
    }

    /// The largest size with the aspect ratio of `width` × `height` that fits
    /// `maxWidth` × `maxHeight`, each side rounded to the nearest pixel and at
    /// least 1; the size itself when it already fits.
    /// - Parameters:
    ///   - width: The source width.
    ///   - height: The source height.
    ///   - maxWidth: The widest allowed (values below 1 read as 1).
    ///   - maxHeight: The tallest allowed (values below 1 read as 1).
    public static func fit(width: Int, height: Int, maxWidth: Int, maxHeight: Int) -> (width: Int, height: Int) {
        let maxWidth = max(1, maxWidth), maxHeight = max(1, maxHeight)
        guard width > maxWidth || height > maxHeight else { return (width, height) }
        // Compare width/maxWidth with height/maxHeight exactly, in integers.
        if width * maxHeight >= height * maxWidth {
            return (maxWidth, max(1, (height * maxWidth + width / 2) / width))
        } else {
            return (max(1, (width * maxHeight + height / 2) / height), maxHeight)
        }
    }

    /// `frame` resampled to exactly `width` × `height` by area averaging: each
    /// output pixel is the mean of the source area it covers, source pixels
    /// weighted by how much of them it covers (exact, in integers).
    ///
    /// Colour is averaged weighted by alpha (premultiplied), so transparent
    /// pixels' colours do not bleed into their neighbours; alpha is the plain
    /// area mean. Results round to nearest. Scaling up with the same rule
    /// blends only where an output pixel straddles two source pixels.
    /// - Parameters:
    ///   - frame: The source frame.
    ///   - width: The output width (values below 1 read as 1).
    ///   - height: The output height (values below 1 read as 1).
    public static func boxFilter(_ frame: RenderedFrame, width: Int, height: Int) -> RenderedFrame {
        let width = max(1, width), height = max(1, height)
        let sourceWidth = frame.width, sourceHeight = frame.height
        guard sourceWidth > 0, sourceHeight > 0 else {
            return RenderedFrame(index: frame.index, width: width, height: height,
                                 pixels: Array(repeating: 0, count: width * height * 4))
        }
        // In units where a source pixel is `width` wide and an output pixel
        // `sourceWidth` wide, both axes line up on integers.
        let columns = spans(source: sourceWidth, output: width)
        let rows = spans(source: sourceHeight, output: height)
        let area = Int64(sourceWidth) * Int64(sourceHeight)
        var out = [UInt8](repeating: 0, count: width * height * 4)
        frame.pixels.withUnsafeBufferPointer { pixels in
            for oy in 0..<height {
                for ox in 0..<width {
                    var alpha: Int64 = 0, red: Int64 = 0, green: Int64 = 0, blue: Int64 = 0
                    for (sy, wy) in rows[oy] {
                        for (sx, wx) in columns[ox] {
                            let i = (sy * sourceWidth + sx) * 4
                            let weight = wx * wy
                            let a = Int64(pixels[i + 3]) * weight
                            alpha += a
                            red += Int64(pixels[i]) * a
                            green += Int64(pixels[i + 1]) * a
                            blue += Int64(pixels[i + 2]) * a
                        }
                    }
                    let o = (oy * width + ox) * 4
                    if alpha > 0 {
                        out[o] = UInt8((red + alpha / 2) / alpha)
                        out[o + 1] = UInt8((green + alpha / 2) / alpha)
                        out[o + 2] = UInt8((blue + alpha / 2) / alpha)
                    }
                    out[o + 3] = UInt8((alpha + area / 2) / area)
                }
            }
        }
        return RenderedFrame(index: frame.index, width: width, height: height, pixels: out)
    }

    /// For each output index, the source indices it covers and by how much
    /// (in units of 1 / (source × output) of the whole axis).
    private static func spans(source: Int, output: Int) -> [[(Int, Int64)]] {
        (0..<output).map { o in
            let start = o * source, end = (o + 1) * source
            var covered: [(Int, Int64)] = []
            var s = start / output
            while s < source, s * output < end {
                let overlap = min(end, (s + 1) * output) - max(start, s * output)
                if overlap > 0 { covered.append((s, Int64(overlap))) }
                s += 1
            }
            return covered
        }
    }
}
