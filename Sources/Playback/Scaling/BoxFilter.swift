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
        // Known to fit: sourceByteCount did.
        let area = Int64(sourceWidth) * Int64(sourceHeight)
        let sourceWidth = sourceWidth, width = width
        if premultiplied {
            applyPlainMeans(source, into: &output, area: area)
            return
        }
        output.withUnsafeMutableBufferPointer { out in
            for oy in 0..<height {
                for ox in 0..<width {
                    var alpha: Int64 = 0, red: Int64 = 0, green: Int64 = 0, blue: Int64 = 0
                    for r in rowStarts[oy]..<rowStarts[oy + 1] {
                        let rowBase = rowIndices[r] * sourceWidth, wy = rowWeights[r]
                        for c in columnStarts[ox]..<columnStarts[ox + 1] {
                            let i = (rowBase + columnIndices[c]) * 4
                            let a = Int64(source[i + 3]) * (columnWeights[c] * wy)
                            alpha += a
                            red += Int64(source[i]) * a
                            green += Int64(source[i + 1]) * a
                            blue += Int64(source[i + 2]) * a
                        }
                    }
                    let o = (oy * width + ox) * 4
                    if alpha > 0 {
                        out[o] = UInt8((red + alpha / 2) / alpha)
                        out[o + 1] = UInt8((green + alpha / 2) / alpha)
                        out[o + 2] = UInt8((blue + alpha / 2) / alpha)
                    } else {
                        out[o] = 0
                        out[o + 1] = 0
                        out[o + 2] = 0
                    }
                    out[o + 3] = UInt8((alpha + area / 2) / area)
                }
            }
        }
    }

    /// Scales `source` like ``apply(_:into:premultiplied:)``, taking an array.
    /// - Parameters:
    ///   - source: The full-size pixels, four bytes each, alpha last.
    ///   - output: Where the scaled pixels go.
    ///   - premultiplied: Whether the colours are premultiplied by alpha.
    public func apply(_ source: [UInt8], into output: inout [UInt8], premultiplied: Bool = false) {
        source.withUnsafeBufferPointer { apply($0, into: &output, premultiplied: premultiplied) }
    }

    /// Every channel's area mean, for premultiplied pixels.
    private func applyPlainMeans(_ source: UnsafeBufferPointer<UInt8>, into output: inout [UInt8], area: Int64) {
        let sourceWidth = sourceWidth, width = width
        output.withUnsafeMutableBufferPointer { out in
            for oy in 0..<height {
                for ox in 0..<width {
                    var sums: (Int64, Int64, Int64, Int64) = (0, 0, 0, 0)
                    for r in rowStarts[oy]..<rowStarts[oy + 1] {
                        let rowBase = rowIndices[r] * sourceWidth, wy = rowWeights[r]
                        for c in columnStarts[ox]..<columnStarts[ox + 1] {
                            let i = (rowBase + columnIndices[c]) * 4, w = columnWeights[c] * wy
                            sums.0 += Int64(source[i]) * w
                            sums.1 += Int64(source[i + 1]) * w
                            sums.2 += Int64(source[i + 2]) * w
                            sums.3 += Int64(source[i + 3]) * w
                        }
                    }
                    let o = (oy * width + ox) * 4
                    out[o] = UInt8((sums.0 + area / 2) / area)
                    out[o + 1] = UInt8((sums.1 + area / 2) / area)
                    out[o + 2] = UInt8((sums.2 + area / 2) / area)
                    out[o + 3] = UInt8((sums.3 + area / 2) / area)
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
