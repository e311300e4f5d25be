import PixelKernels

/// Area-average resampling from one fixed RGBA8 size to another, with the
/// weights worked out once, so that scaling each frame of an animation
/// allocates nothing.
///
/// Each output pixel is the mean of the source area it covers, source pixels
/// weighted by the fraction of them it covers (exact, in integers): at an
/// integer factor, the plain mean of a block. Colour is averaged weighted by
/// alpha (premultiplied), so transparent pixels' colours do not bleed into
/// their neighbours; alpha is the plain area mean; results round to nearest.
/// ``Poster/boxFilter(_:width:height:)`` and display-size frame sources
/// (``DisplaySize``) use it.
public struct BoxFilter: Sendable, Hashable {
    /// The source width in pixels.
    public let sourceWidth: Int
    /// The source height in pixels.
    public let sourceHeight: Int
    /// The output width in pixels.
    public let width: Int
    /// The output height in pixels.
    public let height: Int

    /// For output column `o`: the covered source columns and weights are at
    /// `columnStarts[o]..<columnStarts[o + 1]` in the two arrays below.
    private let columnStarts: [Int]
    private let columnIndices: [Int]
    private let columnWeights: [Int64]
    private let rowStarts: [Int]
    private let rowIndices: [Int]
    private let rowWeights: [Int64]
    /// sourceWidth × sourceHeight × 4, or `nil` when that cannot be addressed
    /// (such a filter makes transparent black).
    private let sourceByteCount: Int?

    /// The longest source side a filter reads: 1,048,576 (2²⁰). Its
    /// weights take memory in proportion to the source sides, so a longer
    /// side (only a hostile or broken frame source reports one) gets a
    /// filter that makes transparent black, as an unaddressable source does.
    public static let maxSourceSide = 1 << 20

    /// A filter from `sourceWidth` × `sourceHeight` to `width` × `height`.
    ///
    /// Output sides are clamped to 1…``Poster/maxSide``; source sides below 0
    /// read as 0, and a source side over ``maxSourceSide`` gives no weights
    /// (either filter makes transparent black).
    /// - Parameters:
    ///   - sourceWidth: The width of the frames to scale.
    ///   - sourceHeight: Their height.
    ///   - width: The output width.
    ///   - height: The output height.
    public init(sourceWidth: Int, sourceHeight: Int, width: Int, height: Int) {
        self.sourceWidth = max(0, sourceWidth)
        self.sourceHeight = max(0, sourceHeight)
        self.width = min(max(1, width), Poster.maxSide)
        self.height = min(max(1, height), Poster.maxSide)
        // A source that cannot be addressed, or so wide that the span
        // arithmetic (source × output) would overflow, gets no spans.
        let addressable = FrameSourceError.byteCount(width: self.sourceWidth, height: self.sourceHeight)
        let spanSafe = self.sourceWidth <= Self.maxSourceSide && self.sourceHeight <= Self.maxSourceSide
            && !self.sourceWidth.multipliedReportingOverflow(by: self.width + 1).overflow
            && !self.sourceHeight.multipliedReportingOverflow(by: self.height + 1).overflow
        guard let addressable, spanSafe, addressable > 0 else {
            sourceByteCount = nil
            (columnStarts, columnIndices, columnWeights) = (Array(repeating: 0, count: self.width + 1), [], [])
            (rowStarts, rowIndices, rowWeights) = (Array(repeating: 0, count: self.height + 1), [], [])
            return
        }
        sourceByteCount = addressable
        (columnStarts, columnIndices, columnWeights) = Self.spans(source: self.sourceWidth, output: self.width)
        (rowStarts, rowIndices, rowWeights) = Self.spans(source: self.sourceHeight, output: self.height)
    }

    /// The bytes of one output frame: width × height × 4.
    public var outputByteCount: Int { width * height * 4 }

    /// Scales `source` (sourceWidth × sourceHeight × 4 bytes) into `output`,
    /// which is resized to ``outputByteCount`` bytes only when it has another
    /// size (in place, with no allocation, when it has this size and nothing
    /// else shares it). A `source` of the wrong size is read as transparent
    /// black: `output` is zeroed.
    ///
    /// Premultiplied pixels (`premultiplied`, as in premultiplied BGRA8)
    /// are averaged as they are, every channel the plain area mean, which
    /// is the same weighting; the channel order does not matter then, and
    /// otherwise only alpha must be the fourth byte.
    /// - Parameters:
    ///   - source: The full-size pixels, four bytes each, alpha last.
    ///   - output: Where the scaled pixels go.
    ///   - premultiplied: Whether the colours are premultiplied by alpha.
    public func apply(_ source: UnsafeBufferPointer<UInt8>, into output: inout [UInt8], premultiplied: Bool = false) {
        let bytes = outputByteCount
        if output.count != bytes { output = [UInt8](repeating: 0, count: bytes) }
        guard let sourceByteCount, source.count == sourceByteCount else {
            output.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
            return
        }
        let whole = PixelRect(x: 0, y: 0, width: width, height: height)
        output.withUnsafeMutableBytes { scale(source, region: whole, into: $0, bytesPerRow: width * 4, premultiplied: premultiplied) }
    }

    /// Scales `source` like ``apply(_:into:premultiplied:)``, taking an array.
    /// - Parameters:
    ///   - source: The full-size pixels, four bytes each, alpha last.
    ///   - output: Where the scaled pixels go.
    ///   - premultiplied: Whether the colours are premultiplied by alpha.
    public func apply(_ source: [UInt8], into output: inout [UInt8], premultiplied: Bool = false) {
        source.withUnsafeBufferPointer { apply($0, into: &output, premultiplied: premultiplied) }
    }

    /// Scales only the output pixels of `region` (clipped to the output
    /// size) from `source`, writing them into `buffer`, whose output rows
    /// are `bytesPerRow` apart: what a host redraws when only part of a
    /// frame changed. Nothing else in `buffer` is touched. A `source` of the
    /// wrong size writes nothing.
    /// - Parameters:
    ///   - source: The full-size pixels, four bytes each, alpha last.
    ///   - region: The output pixels to write.
    ///   - buffer: The output pixels.
    ///   - bytesPerRow: The bytes from one output row's start to the next.
    ///   - premultiplied: Whether the colours are premultiplied by alpha.
    /// - Throws: `PixelBufferError` when `buffer` cannot hold the output
    ///   size with that row stride; nothing is written then.
    public func apply(
        _ source: UnsafeBufferPointer<UInt8>, region: PixelRect, into buffer: UnsafeMutableRawBufferPointer,
        bytesPerRow: Int, premultiplied: Bool = false
    ) throws(PixelBufferError) {
        try PixelBufferError.check(width: width, height: height, bytesPerRow: bytesPerRow, bufferCount: buffer.count)
        guard let sourceByteCount, source.count == sourceByteCount else { return }
        scale(source, region: region.clipped(toWidth: width, height: height), into: buffer, bytesPerRow: bytesPerRow,
              premultiplied: premultiplied)
    }

    /// The output pixels of `region` (inside the output) scaled from
    /// `source` (``sourceByteCount`` bytes) into `buffer` (checked to hold
    /// them), by the C kernel: this loop is most of what a display-size
    /// player costs once its frames' indices are stored.
    private func scale(
        _ source: UnsafeBufferPointer<UInt8>, region: PixelRect, into buffer: UnsafeMutableRawBufferPointer,
        bytesPerRow: Int, premultiplied: Bool
    ) {
        guard !region.isEmpty, let pixels = source.baseAddress,
            let target = buffer.baseAddress?.assumingMemoryBound(to: UInt8.self)
        else { return }
        // Known to fit: sourceByteCount did.
        let area = Int64(sourceWidth) * Int64(sourceHeight)
        rowStarts.withUnsafeBufferPointer { rowStarts in
        rowIndices.withUnsafeBufferPointer { rowIndices in
        rowWeights.withUnsafeBufferPointer { rowWeights in
        columnStarts.withUnsafeBufferPointer { columnStarts in
        columnIndices.withUnsafeBufferPointer { columnIndices in
        columnWeights.withUnsafeBufferPointer { columnWeights in
            pixel_box_filter(
                pixels, sourceWidth,
                columnStarts.baseAddress, columnIndices.baseAddress, columnWeights.baseAddress,
                rowStarts.baseAddress, rowIndices.baseAddress, rowWeights.baseAddress,
                area, premultiplied ? 1 : 0,
                region.x, region.y, region.width, region.height,
                target, bytesPerRow)
        }
        }
        }
        }
        }
        }
    }

    /// For each output index, the source indices it covers and by how much
    /// (in units of 1 / (source × output) of the whole axis), flattened.
    /// In these units a source pixel is `output` wide and an output pixel
    /// `source` wide, so both line up on integers.
    private static func spans(source: Int, output: Int) -> ([Int], [Int], [Int64]) {
        var starts = [0], indices: [Int] = [], weights: [Int64] = []
        starts.reserveCapacity(output + 1)
        for o in 0..<output {
            let start = o * source, end = (o + 1) * source
            var s = start / output
            while s < source, s * output < end {
                let overlap = min(end, (s + 1) * output) - max(start, s * output)
                if overlap > 0 {
                    indices.append(s)
                    weights.append(Int64(overlap))
                }
                s += 1
            }
            starts.append(indices.count)
        }
        return (starts, indices, weights)
    }
}
