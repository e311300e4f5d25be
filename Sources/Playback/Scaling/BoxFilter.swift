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

    /// The source columns each output column covers, with the weights of
    /// the first and last (every one between weighs ``wholeColumn``).
    private let columns: [ColumnSpan]
    /// For output row `o`: the covered source rows and weights are at
    /// `rowStarts[o]..<rowStarts[o + 1]` in the two arrays below.
    private let rowStarts: [Int]
    private let rowIndices: [Int]
    private let rowWeights: [UInt32]
    /// The weight of a whole source column in an output column (every
    /// weight but the first and last of an output column's).
    private let wholeColumn: UInt32
    /// The sum of all weights of one output pixel: its column weights'
    /// sum times its row weights'.
    private let area: UInt64
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
            columns = []
            (rowStarts, rowIndices, rowWeights) = (Array(repeating: 0, count: self.height + 1), [], [])
            (wholeColumn, area) = (0, 0)
            return
        }
        sourceByteCount = addressable
        let columns = Self.spans(source: self.sourceWidth, output: self.width)
        let rows = Self.spans(source: self.sourceHeight, output: self.height)
        // The covered columns are consecutive.
        self.columns = (0..<self.width).map { o in
            let first = columns.starts[o], last = columns.starts[o + 1] - 1
            return ColumnSpan(first: UInt32(columns.indices[first]), last: UInt32(columns.indices[last]),
                              firstWeight: columns.weights[first], lastWeight: last > first ? columns.weights[last] : 0)
        }
        (rowStarts, rowIndices, rowWeights) = (rows.starts, rows.indices, rows.weights)
        wholeColumn = columns.whole
        area = UInt64(columns.total) * UInt64(rows.total)
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
    /// them): this loop is most of what a display-size player costs once
    /// its frames' indices are stored.
    ///
    /// The weight of a source pixel in an output pixel is its column weight
    /// times its row weight, so each output pixel's sums are, exactly in
    /// integers, the row-weighted sum of its source rows' column-weighted
    /// sums: one output row adds up, for each source row it covers, that
    /// row's column sums (four channels at once) into accumulators.
    private func scale(
        _ source: UnsafeBufferPointer<UInt8>, region: PixelRect, into buffer: UnsafeMutableRawBufferPointer,
        bytesPerRow: Int, premultiplied: Bool
    ) {
        guard !region.isEmpty, let pixels = source.baseAddress, let target = buffer.baseAddress else { return }
        if sourceWidth == width, sourceHeight == height {
            copy(UnsafeRawPointer(pixels), region: region, into: target, bytesPerRow: bytesPerRow,
                 premultiplied: premultiplied)
            return
        }
        // A sum is at most area × 255 × 255: 32-bit lanes hold it for the
        // usual sizes (an area up to 66,051 weight units).
        if area <= UInt64(UInt32.max / (255 * 255)) {
            scale(UnsafeRawPointer(pixels), region: region, into: target, bytesPerRow: bytesPerRow,
                  premultiplied: premultiplied, lanes: UInt32.self)
        } else {
            scale(UnsafeRawPointer(pixels), region: region, into: target, bytesPerRow: bytesPerRow,
                  premultiplied: premultiplied, lanes: UInt64.self)
        }
    }

    /// At scale 1 each output pixel is its source pixel (its one weight
    /// cancels out), except that a straight pixel with alpha 0 has no
    /// colour weight and comes out transparent black.
    private func copy(
        _ pixels: UnsafeRawPointer, region: PixelRect, into target: UnsafeMutableRawPointer, bytesPerRow: Int,
        premultiplied: Bool
    ) {
        for y in region.y..<region.y + region.height {
            let from = pixels + (y * sourceWidth + region.x) * 4, to = target + y * bytesPerRow + region.x * 4
            if premultiplied {
                to.copyMemory(from: from, byteCount: region.width * 4)
                continue
            }
            for x in 0..<region.width {
                // Alpha, the fourth byte, is the top byte of a little-endian word.
                let pixel = from.loadUnaligned(fromByteOffset: x * 4, as: UInt32.self)
                to.storeBytes(of: pixel.littleEndian >> 24 == 0 ? 0 : pixel, toByteOffset: x * 4, as: UInt32.self)
            }
        }
    }

    /// The box filter proper, with the sums in `Lane` lanes (checked by
    /// the caller to hold them).
    ///
    /// A column sum weighs its first and last source pixels by their
    /// table weights and every pixel between them by ``width`` (the whole
    /// of a source pixel, in the units of the weights), so it adds those
    /// up first and multiplies once. Consecutive output rows share at most
    /// their boundary source row, whose column sums are kept for the next.
    private func scale<Lane: FixedWidthInteger & UnsignedInteger & SIMDScalar>(
        _ pixels: UnsafeRawPointer, region: PixelRect, into target: UnsafeMutableRawPointer, bytesPerRow: Int,
        premultiplied: Bool, lanes: Lane.Type
    ) {
        let area = area, sourceRowBytes = sourceWidth * 4, count = region.width
        let whole = Lane(wholeColumn), inverseArea = 1 / Double(Int64(bitPattern: area))
        // Straight colour is weighted by alpha too, so that transparent
        // pixels' colours do not bleed: each channel is multiplied by
        // alpha, alpha itself by 1 (premultiplied: every channel by 1).
        // A channel times alpha is at most 255 × 255: 16 bits hold it.
        let alphaLanes = SIMDMask<SIMD4<Int16>>(premultiplied ? [false, false, false, false] : [true, true, true, false])
        @inline(__always) func weighted(_ pixel: UnsafeRawPointer) -> SIMD4<Lane> {
            let bytes = SIMD4<UInt16>(truncatingIfNeeded: pixel.loadUnaligned(as: SIMD4<UInt8>.self))
            let factor = SIMD4<UInt16>(repeating: 1).replacing(with: SIMD4(repeating: bytes[3]), where: alphaLanes)
            return SIMD4<Lane>(truncatingIfNeeded: bytes &* factor)
        }
        withUnsafeTemporaryAllocation(of: SIMD4<Lane>.self, capacity: count) { sums in
        withUnsafeTemporaryAllocation(of: SIMD4<Lane>.self, capacity: 2 * count) { columnSums in
        rowStarts.withUnsafeBufferPointer { rowStarts in
        rowIndices.withUnsafeBufferPointer { rowIndices in
        rowWeights.withUnsafeBufferPointer { rowWeights in
        columns.withUnsafeBufferPointer { columns in
            let sums = sums.baseAddress!
            // The column sums of the row being added, and of the last row
            // of the previous output row (`kept`, source row `keptRow`).
            let current = columnSums.baseAddress!, kept = current + count
            var keptRow = -1
            for oy in region.y..<region.y + region.height {
                sums.initialize(repeating: .zero, count: count)
                let firstRow = rowStarts[oy], endRow = rowStarts[oy + 1]
                for r in firstRow..<endRow {
                    let sy = rowIndices[r]
                    let reused = r == firstRow && sy == keptRow
                    let rowSums = reused || r == endRow - 1 ? kept : current
                    if !reused {
                        let row = pixels + sy * sourceRowBytes
                        for i in 0..<count {
                            let span = columns[region.x &+ i]
                            let start = row + Int(span.first) &* 4, end = row + Int(span.last) &* 4
                            if whole == 1 {
                                // An integer factor: every weight is 1.
                                var sum = SIMD4<Lane>.zero, pixel = start
                                while pixel <= end {
                                    sum &+= weighted(pixel)
                                    pixel += 4
                                }
                                rowSums[i] = sum
                                continue
                            }
                            var sum = weighted(start) &* Lane(span.firstWeight)
                            if end > start {
                                var between = SIMD4<Lane>.zero, pixel = start + 4
                                while pixel < end {
                                    between &+= weighted(pixel)
                                    pixel += 4
                                }
                                sum &+= between &* whole &+ weighted(end) &* Lane(span.lastWeight)
                            }
                            rowSums[i] = sum
                        }
                        if rowSums == kept { keptRow = sy }
                    }
                    let wy = Lane(rowWeights[r])
                    if wy == 1 {
                        for i in 0..<count { sums[i] &+= rowSums[i] }
                    } else {
                        for i in 0..<count { sums[i] &+= rowSums[i] &* wy }
                    }
                }
                let output = target + oy * bytesPerRow + region.x * 4
                for i in 0..<count {
                    output.storeBytes(of: Self.pixel(SIMD4(truncatingIfNeeded: sums[i]), area: area, inverseArea: inverseArea, premultiplied: premultiplied),
                                      toByteOffset: i * 4, as: SIMD4<UInt8>.self)
                }
            }
        }
        }
        }
        }
        }
        }
    }

    /// One output pixel from its sums: colour divided by the area, or for
    /// straight colour by its alpha weight (the alpha sum), alpha by the
    /// area; rounded to nearest, halves up.
    @inline(__always)
    private static func pixel(_ sums: SIMD4<UInt64>, area: UInt64, inverseArea: Double, premultiplied: Bool) -> SIMD4<UInt8> {
        let alpha = quotient(sums[3] + area / 2, area, inverse: inverseArea)
        let divisor = premultiplied ? area : sums[3]
        guard divisor > 0 else { return .zero }
        let inverse = premultiplied ? inverseArea : 1 / Double(Int64(bitPattern: divisor)), half = divisor / 2
        return SIMD4(quotient(sums[0] + half, divisor, inverse: inverse), quotient(sums[1] + half, divisor, inverse: inverse),
                     quotient(sums[2] + half, divisor, inverse: inverse), alpha)
    }

    /// ⌊`dividend` / `divisor`⌋, known to be below 256 (a mean of bytes),
    /// without an integer division: the floating-point estimate
    /// `dividend` × `inverse` is within 2⁻⁴⁰ of the true quotient, so
    /// truncated it is off by at most one, which one multiplication each
    /// way detects and corrects.
    @inline(__always)
    private static func quotient(_ dividend: UInt64, _ divisor: UInt64, inverse: Double) -> UInt8 {
        // Both are below 2⁵⁷: as Int64 they convert to Double and back in
        // one instruction each.
        let n = Int64(bitPattern: dividend), d = Int64(bitPattern: divisor)
        var q = Int64(Double(n) * inverse)
        if q &* d > n {
            q &-= 1
        } else if (q &+ 1) &* d <= n {
            q &+= 1
        }
        return UInt8(truncatingIfNeeded: q)
    }

    /// The source columns `first...last` that one output column covers, and
    /// the weights of the first and the last (0 when they are the same).
    private struct ColumnSpan: Sendable, Hashable {
        var first: UInt32
        var last: UInt32
        var firstWeight: UInt32
        var lastWeight: UInt32
    }

    /// For each output index, the source indices it covers and by how much
    /// (in units of 1 / (source × output) of the whole axis, divided by
    /// their greatest common divisor), flattened; the weight of a whole
    /// source pixel; and the sum of one output pixel's weights.
    ///
    /// In units of 1 / (source × output) a source pixel is `output` wide and
    /// an output pixel `source` wide, so both line up on integers; every
    /// weight but an output pixel's first and last is a whole source pixel.
    /// All are multiples of the divisor, and dividing every weight by it
    /// changes no output byte: each byte is ⌊(n + ⌊d / 2⌋) / d⌋ for sums n
    /// and d that scale together, which is ⌊(2n + d) / 2d⌋ (for odd d,
    /// 2n + d is odd, never a multiple of 2d), unchanged by a common factor.
    private static func spans(source: Int, output: Int)
        -> (starts: [Int], indices: [Int], weights: [UInt32], whole: UInt32, total: Int) {
        var divisor = source, other = output
        while other != 0 { (divisor, other) = (other, divisor % other) }
        var starts = [0], indices: [Int] = [], weights: [UInt32] = []
        starts.reserveCapacity(output + 1)
        for o in 0..<output {
            let start = o * source, end = (o + 1) * source
            var s = start / output
            while s < source, s * output < end {
                let overlap = min(end, (s + 1) * output) - max(start, s * output)
                if overlap > 0 {
                    indices.append(s)
                    // At most output ≤ Poster.maxSide.
                    weights.append(UInt32(overlap / divisor))
                }
                s += 1
            }
            starts.append(indices.count)
        }
        return (starts, indices, weights, UInt32(output / divisor), source / divisor)
    }
}
