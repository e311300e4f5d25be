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
/// print(still.width, still.height)                                // each at most 128
/// ```
///
/// Nothing here traps or reads out of bounds on bad input: a frame from a
/// source that does not hold width × height × 4 bytes is refused with
/// ``FrameSourceError``; the non-throwing `downscale(_:maxWidth:maxHeight:)`
/// and `boxFilter(_:width:height:)` read such a frame as transparent black,
/// and clamp output sides to `maxSide`; sizes of any magnitude (up to
/// `Int.max`) are compared without overflow.
public enum Poster {
    /// The longest output side ``boxFilter(_:width:height:)`` makes: larger
    /// requests are clamped to it (8192, so one output is at most 256 MiB).
    package static let maxSide = 8192

    /// Frame `frame` of `source`, scaled down to fit a `maxSize` × `maxSize`
    /// box with its aspect ratio kept (see `fit(width:height:maxWidth:maxHeight:)`).
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
    /// - Throws: ``PlayerError/frameOutOfRange(_:frameCount:)``, the
    ///   source's decoding error, or ``FrameSourceError`` when the source's
    ///   frame is not the one asked for or its pixels do not fill
    ///   width × height × 4 bytes.
    public static func make(
        from source: some FrameSource, frame: Int = 0, maxWidth: Int, maxHeight: Int
    ) async throws -> RenderedFrame {
        let count = source.frameCount
        guard (0..<max(0, count)).contains(frame) else {
            throw PlayerError.frameOutOfRange(frame, frameCount: count)
        }
        let full = try await source.frame(at: frame)
        guard full.index == frame else { throw FrameSourceError.wrongFrameIndex(requested: frame, returned: full.index) }
        try FrameSourceError.check(full)
        return downscale(full, maxWidth: maxWidth, maxHeight: maxHeight)
    }

    /// `frame` scaled down to fit `maxWidth` × `maxHeight` with its aspect
    /// ratio kept, or unchanged when it already fits.
    ///
    /// A malformed `frame` (see ``boxFilter(_:width:height:)``) is read as
    /// transparent black at the size ``fit(width:height:maxWidth:maxHeight:)``
    /// gives, with sides clamped to ``maxSide``; it is never returned as is.
    /// - Parameters:
    ///   - frame: The full-size frame.
    ///   - maxWidth: The widest allowed (at least 1).
    ///   - maxHeight: The tallest allowed (at least 1).
    package static func downscale(_ frame: RenderedFrame, maxWidth: Int, maxHeight: Int) -> RenderedFrame {
        let size = fit(width: frame.width, height: frame.height, maxWidth: maxWidth, maxHeight: maxHeight)
        if size.width == frame.width, size.height == frame.height, isWellFormed(frame) { return frame }
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
    ///
    /// Negative sides read as 0. Any sizes up to `Int.max` work: products are
    /// taken at double width, so nothing overflows.
    package static func fit(width: Int, height: Int, maxWidth: Int, maxHeight: Int) -> (width: Int, height: Int) {
        let width = max(0, width), height = max(0, height)
        let maxWidth = max(1, maxWidth), maxHeight = max(1, maxHeight)
        guard width > maxWidth || height > maxHeight else { return (width, height) }
        return aspectFit(width: width, height: height, maxWidth: maxWidth, maxHeight: maxHeight)
    }

    /// The size with the aspect ratio of `width` × `height` that fits
    /// `maxWidth` × `maxHeight` touching two sides, scaled up or down, the
    /// other side rounded to the nearest pixel and at least 1. Sides ≥ 0,
    /// not both 0 (the caller's to check).
    static func aspectFit(width: Int, height: Int, maxWidth: Int, maxHeight: Int) -> (width: Int, height: Int) {
        // Compare width/maxWidth with height/maxHeight exactly, in integers.
        let byWidth = width.multipliedFullWidth(by: maxHeight), byHeight = height.multipliedFullWidth(by: maxWidth)
        if (byWidth.high, byWidth.low) >= (byHeight.high, byHeight.low) {
            // Here width / maxWidth ≥ height / maxHeight, so the quotient is at most maxHeight.
            return (maxWidth, max(1, scaledRounded(height, by: maxWidth, over: width)))
        } else {
            return (max(1, scaledRounded(width, by: maxHeight, over: height)), maxHeight)
        }
    }

    /// (`value` × `factor` + `divisor` / 2) / `divisor`, at double width; for
    /// operands ≥ 0, a divisor > 0 and a quotient known to fit in `Int`.
    static func scaledRounded(_ value: Int, by factor: Int, over divisor: Int) -> Int {
        let product = value.multipliedFullWidth(by: factor)
        let (low, carry) = product.low.addingReportingOverflow(UInt(divisor / 2))
        return divisor.dividingFullWidth((product.high + (carry ? 1 : 0), low)).quotient
    }

    /// Whether `frame` has sides ≥ 0 and exactly width × height × 4 bytes.
    static func isWellFormed(_ frame: RenderedFrame) -> Bool {
        FrameSourceError.byteCount(width: frame.width, height: frame.height) == frame.pixels.count
    }

    /// `frame` resampled to exactly `width` × `height` by area averaging: each
    /// output pixel is the mean of the source area it covers, source pixels
    /// weighted by how much of them it covers (exact, in integers; see
    /// ``BoxFilter``, which does the work).
    ///
    /// Colour is averaged weighted by alpha (premultiplied), so transparent
    /// pixels' colours do not bleed into their neighbours; alpha is the plain
    /// area mean. Results round to nearest. Scaling up with the same rule
    /// blends only where an output pixel straddles two source pixels.
    ///
    /// A `frame` whose pixels do not fill width × height × 4 bytes (or with
    /// a negative side) is not read at all: the result is transparent black.
    /// - Parameters:
    ///   - frame: The source frame.
    ///   - width: The output width (clamped to 1…``maxSide``).
    ///   - height: The output height (clamped to 1…``maxSide``).
    package static func boxFilter(_ frame: RenderedFrame, width: Int, height: Int) -> RenderedFrame {
        // A malformed frame's sides are not trusted, even to size the
        // filter's weights: it gets a filter from nothing.
        let readable = frame.width > 0 && frame.height > 0 && isWellFormed(frame)
        let filter = BoxFilter(
            sourceWidth: readable ? frame.width : 0, sourceHeight: readable ? frame.height : 0,
            width: width, height: height)
        var out: [UInt8] = []
        if readable {
            filter.apply(frame.pixels, into: &out)
        } else {
            out = Array(repeating: 0, count: filter.outputByteCount)
        }
        return RenderedFrame(index: frame.index, width: filter.width, height: filter.height, pixels: out)
    }
}
