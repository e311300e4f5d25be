import PixelKernels

/// Resampling from one fixed RGBA8 size to another, with the weights worked
/// out once, so that scaling each frame of an animation allocates nothing.
///
/// An axis drawn smaller (or at its size) is area-averaged: each output
/// pixel is the mean of the source area it covers, source pixels weighted
/// by the fraction of them it covers (exact, in integers); at an integer
/// factor, the plain mean of a block. An axis drawn larger is, for a filter
/// made from a ``DisplaySize``, its ``DisplaySize/upscaling`` (nearest or
/// bilinear), and area-averaged too for one made from output sides
/// (``init(sourceWidth:sourceHeight:width:height:)``). Colour is averaged
/// weighted by alpha (premultiplied), so transparent pixels' colours do not
/// bleed into their neighbours; alpha is the plain weighted mean; results
/// round to nearest. `Poster.boxFilter(_:width:height:)` and display-size
/// frame sources (``DisplaySize``) use it.
public struct BoxFilter: Sendable, Hashable {
    /// The source width in pixels.
    package let sourceWidth: Int
    /// The source height in pixels.
    package let sourceHeight: Int
    /// The output width in pixels.
    public let width: Int
    /// The output height in pixels.
    public let height: Int

    /// One axis's weights: for output index `o`, the source indices read
    /// and their weights are at `starts[o]..<starts[o + 1]` of `indices`
    /// and `weights`, which add up to `total` for every `o`.
    fileprivate struct Axis: Sendable, Hashable {
        var starts: [Int]
        var indices: [Int] = []
        var weights: [Int64] = []
        var total: Int64 = 1
        /// For each source index `s` from 0 to the source's length: the
        /// first output whose last index is `s` or more, and the first
        /// whose first index is: the outputs reading `a ..< b` are
        /// `firstReaching[a] ..< firstStarting[b]` (each output's first and
        /// last index grow with the output), found with no search for each
        /// row a change is scaled in.
        var firstReaching: [Int] = []
        var firstStarting: [Int] = []

        /// No weights: `count` outputs that read nothing.
        init(empty count: Int) { starts = Array(repeating: 0, count: count + 1) }

        /// The weights and their total divided by their greatest common
        /// divisor: the same means from smaller sums (640 → 200 columns
        /// weigh at most 5 of 16, not 200 of 640), which the kernel adds in
        /// 32-bit lanes when the area allows. Every output reads at least
        /// one of the `source` indices.
        init(source: Int, starts: [Int], indices: [Int], weights: [Int64], total: Int64) {
            var divisor = total
            for weight in weights where divisor > 1 { divisor = Self.greatestCommonDivisor(divisor, weight) }
            let reduced = divisor > 1 ? weights.map { $0 / divisor } : weights
            (self.starts, self.indices, self.weights, self.total) = (starts, indices, reduced, total / max(1, divisor))
            let count = starts.count - 1
            guard !indices.isEmpty else { return }
            var (reaching, starting) = (0, 0)
            firstReaching.reserveCapacity(source + 1)
            firstStarting.reserveCapacity(source + 1)
            for s in 0...max(0, source) {
                while reaching < count, indices[starts[reaching + 1] - 1] < s { reaching += 1 }
                while starting < count, indices[starts[starting]] < s { starting += 1 }
                firstReaching.append(reaching)
                firstStarting.append(starting)
            }
        }

        private static func greatestCommonDivisor(_ a: Int64, _ b: Int64) -> Int64 {
            var (a, b) = (a, b)
            while b != 0 { (a, b) = (b, a % b) }
            return a
        }
    }

    private let columns: Axis
    private let rows: Axis
    /// sourceWidth × sourceHeight × 4, or `nil` when that cannot be addressed
    /// (such a filter makes transparent black).
    private let sourceByteCount: Int?

    /// The longest source side a filter reads: 1,048,576 (2²⁰). Its
    /// weights take memory in proportion to the source sides, so a longer
    /// side (only a hostile or broken frame source reports one) gets a
    /// filter that makes transparent black, as an unaddressable source does.
    package static let maxSourceSide = 1 << 20

    /// The weight a bilinear axis splits between two source pixels: 4096ths.
    static let bilinearTotal: Int64 = 1 << 12

    /// A filter from `sourceWidth` × `sourceHeight` to `width` × `height`,
    /// area-averaging both ways.
    ///
    /// Output sides are clamped to 1…`Poster.maxSide`; source sides below 0
    /// read as 0, and a source side over `maxSourceSide` gives no weights
    /// (either filter makes transparent black).
    /// - Parameters:
    ///   - sourceWidth: The width of the frames to scale.
    ///   - sourceHeight: Their height.
    ///   - width: The output width.
    ///   - height: The output height.
    public init(sourceWidth: Int, sourceHeight: Int, width: Int, height: Int) {
        let width = min(max(1, width), Poster.maxSide), height = min(max(1, height), Poster.maxSide)
        self.init(
            sourceWidth: sourceWidth, sourceHeight: sourceHeight, scaled: (width, height), crop: (0, 0),
            size: (width, height), upscaling: nil)
    }

    /// A filter from `sourceWidth` × `sourceHeight` frames to the frames of
    /// `displaySize` (``DisplaySize/geometry(width:height:)``): the canvas
    /// scaled to `DisplayGeometry.scaledWidth` × `DisplayGeometry.scaledHeight`
    /// and cropped to the frame, shrunk axes area-averaged and enlarged ones
    /// drawn by ``DisplaySize/upscaling``.
    ///
    /// Source sides below 0 read as 0, and a side over `maxSourceSide`
    /// gives no weights (the filter makes transparent black).
    /// - Parameters:
    ///   - sourceWidth: The width of the frames to scale.
    ///   - sourceHeight: Their height.
    ///   - displaySize: The cell and how the canvas is placed in it.
    public init(sourceWidth: Int, sourceHeight: Int, displaySize: DisplaySize) {
        let geometry = displaySize.geometry(width: sourceWidth, height: sourceHeight)
        self.init(
            sourceWidth: sourceWidth, sourceHeight: sourceHeight,
            scaled: (geometry.scaledWidth, geometry.scaledHeight), crop: (geometry.cropX, geometry.cropY),
            size: (min(max(1, geometry.width), Poster.maxSide), min(max(1, geometry.height), Poster.maxSide)),
            upscaling: displaySize.upscaling)
    }

    /// The source scaled to `scaled` and the `size` window at `crop` of it
    /// kept; enlarged axes drawn by `upscaling` (`nil`: area-averaged).
    private init(
        sourceWidth: Int, sourceHeight: Int, scaled: (Int, Int), crop: (Int, Int), size: (Int, Int),
        upscaling: DisplaySize.Upscaling?
    ) {
        self.sourceWidth = max(0, sourceWidth)
        self.sourceHeight = max(0, sourceHeight)
        (width, height) = size
        // A source that cannot be addressed, or so long that the weight
        // arithmetic could overflow, gets no weights.
        let addressable = FrameSourceError.byteCount(width: self.sourceWidth, height: self.sourceHeight)
        let weighable = self.sourceWidth <= Self.maxSourceSide && self.sourceHeight <= Self.maxSourceSide
            && scaled.0 <= DisplayGeometry.maxScaledSide && scaled.1 <= DisplayGeometry.maxScaledSide
            && crop.0 >= 0 && crop.1 >= 0 && crop.0 + size.0 <= scaled.0 && crop.1 + size.1 <= scaled.1
        guard let addressable, weighable, addressable > 0 else {
            sourceByteCount = nil
            (columns, rows) = (Axis(empty: width), Axis(empty: height))
            return
        }
        sourceByteCount = addressable
        columns = Self.axis(source: self.sourceWidth, scaled: scaled.0, crop: crop.0, count: width, upscaling: upscaling)
        rows = Self.axis(source: self.sourceHeight, scaled: scaled.1, crop: crop.1, count: height, upscaling: upscaling)
    }

    /// The bytes of one output frame: width × height × 4.
    package var outputByteCount: Int { width * height * 4 }

    /// Scales `source` (sourceWidth × sourceHeight × 4 bytes) into `output`,
    /// which is resized to `outputByteCount` bytes only when it has another
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
    @_spi(Benchmarks) public func apply(
        _ source: UnsafeBufferPointer<UInt8>, into output: inout [UInt8], premultiplied: Bool = false
    ) {
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

    /// Scales, of the output pixels of `region` (clipped to the output
    /// size), only those that read a change, like
    /// ``apply(_:region:into:bytesPerRow:premultiplied:)``: source row `y`
    /// changed in columns `changedColumns[2y] ... changedColumns[2y + 1]`
    /// (none when the first is past the last), and each output row writes
    /// the columns that read its source rows' changed columns, from the
    /// first to the last. A frame whose change is a few shapes scattered
    /// over its rectangle so costs their rows' stretches, not their box.
    /// `rowColumns` is room for two numbers an output row of `region`,
    /// which it is left holding: each row's columns written, from and up
    /// to. With too few numbers in either, the whole region is written.
    /// - Returns: Whether `rowColumns` holds the columns written, row by
    ///   row of `region` clipped to the output: not when the whole region
    ///   was written or nothing (`source` of another size).
    /// - Throws: `PixelBufferError` when `buffer` cannot hold the output
    ///   size with that row stride; nothing is written then.
    @discardableResult
    package func apply(
        _ source: UnsafeBufferPointer<UInt8>, region: PixelRect, changedColumns: UnsafeBufferPointer<Int>,
        rowColumns: UnsafeMutableBufferPointer<Int>, into buffer: UnsafeMutableRawBufferPointer, bytesPerRow: Int,
        premultiplied: Bool
    ) throws(PixelBufferError) -> Bool {
        try PixelBufferError.check(width: width, height: height, bytesPerRow: bytesPerRow, bufferCount: buffer.count)
        guard let sourceByteCount, source.count == sourceByteCount else { return false }
        let region = region.clipped(toWidth: width, height: height)
        guard !region.isEmpty, changedColumns.count >= sourceHeight * 2, rowColumns.count >= region.height * 2,
              !rows.indices.isEmpty, !columns.indices.isEmpty
        else {
            scale(source, region: region, into: buffer, bytesPerRow: bytesPerRow, premultiplied: premultiplied)
            return false
        }
        for j in 0..<region.height {
            let o = region.y + j
            var first = Int.max, last = -1
            for k in rows.starts[o]..<rows.starts[o + 1] {
                let y = rows.indices[k]
                first = min(first, changedColumns[2 * y])
                last = max(last, changedColumns[2 * y + 1])
            }
            (first, last) = (max(first, 0), min(last, sourceWidth - 1))
            let written = first <= last ? columns.outputs(reading: first..<last + 1) : 0..<0
            rowColumns[2 * j] = max(written.lowerBound, region.x)
            rowColumns[2 * j + 1] = min(written.upperBound, region.x + region.width)
        }
        scale(source, region: region, rowColumns: UnsafePointer(rowColumns.baseAddress), into: buffer,
              bytesPerRow: bytesPerRow, premultiplied: premultiplied)
        return true
    }

    /// The output pixels of `region` (inside the output) scaled from
    /// `source` (``sourceByteCount`` bytes) into `buffer` (checked to hold
    /// them), by the C kernel: this loop is most of what a display-size
    /// player costs once its frames' indices are stored. With
    /// `rowColumns`, each output row of `region` writes only its columns
    /// there (two numbers a row, from and up to).
    private func scale(
        _ source: UnsafeBufferPointer<UInt8>, region: PixelRect, rowColumns: UnsafePointer<Int>? = nil,
        into buffer: UnsafeMutableRawBufferPointer, bytesPerRow: Int, premultiplied: Bool
    ) {
        guard !region.isEmpty, let pixels = source.baseAddress,
            let target = buffer.baseAddress?.assumingMemoryBound(to: UInt8.self)
        else { return }
        // At most 2⁴⁰: each total is at most maxSourceSide or bilinearTotal.
        let area = columns.total * rows.total
        rows.starts.withUnsafeBufferPointer { rowStarts in
        rows.indices.withUnsafeBufferPointer { rowIndices in
        rows.weights.withUnsafeBufferPointer { rowWeights in
        columns.starts.withUnsafeBufferPointer { columnStarts in
        columns.indices.withUnsafeBufferPointer { columnIndices in
        columns.weights.withUnsafeBufferPointer { columnWeights in
            pixel_box_filter(
                pixels, sourceWidth,
                columnStarts.baseAddress, columnIndices.baseAddress, columnWeights.baseAddress,
                rowStarts.baseAddress, rowIndices.baseAddress, rowWeights.baseAddress,
                area, premultiplied ? 1 : 0,
                region.x, region.y, region.width, region.height, rowColumns,
                target, bytesPerRow)
        }
        }
        }
        }
        }
        }
    }

    /// The output pixels whose source footprint (the source pixels they
    /// are computed from: the area they cover, or the pixels they
    /// interpolate or take) meets `rect`: the rectangle to redraw when only
    /// `rect` of the source changed. Empty when `rect` misses the source or
    /// lies wholly in the part a crop drops; the whole output for a filter
    /// without weights.
    /// - Parameter rect: Source pixels (clipped to the source).
    package func outputRect(covering rect: PixelRect) -> PixelRect {
        let clipped = rect.clipped(toWidth: sourceWidth, height: sourceHeight)
        let x = columns.outputs(reading: clipped.x..<clipped.x + clipped.width)
        let y = rows.outputs(reading: clipped.y..<clipped.y + clipped.height)
        guard !clipped.isEmpty, !x.isEmpty, !y.isEmpty else { return PixelRect(x: 0, y: 0, width: 0, height: 0) }
        return PixelRect(x: x.lowerBound, y: y.lowerBound, width: x.count, height: y.count)
    }

    /// One axis's weights: `count` outputs of the source (`source` pixels)
    /// scaled to `scaled` pixels, from scaled pixel `crop` on. Shrunk (or
    /// kept) is the area average; enlarged is `upscaling`, or the area
    /// average for `nil`. Every index here stays below 2⁵⁶: source ≤ 2²⁰
    /// and scaled ≤ 2³⁴.
    private static func axis(
        source: Int, scaled: Int, crop: Int, count: Int, upscaling: DisplaySize.Upscaling?
    ) -> Axis {
        var starts = [0], indices: [Int] = [], weights: [Int64] = []
        starts.reserveCapacity(count + 1)
        let method = scaled <= source ? nil : upscaling
        for j in crop..<crop + count {
            switch method {
            case nil:
                // In units of 1 / (source × scaled) a source pixel is
                // `scaled` wide and an output pixel `source` wide, so both
                // line up on integers.
                let start = j * source, end = (j + 1) * source
                var s = start / scaled
                while s < source, s * scaled < end {
                    let overlap = min(end, (s + 1) * scaled) - max(start, s * scaled)
                    if overlap > 0 {
                        indices.append(s)
                        weights.append(Int64(overlap))
                    }
                    s += 1
                }
            case .nearest:
                // The source pixel under the centre, (j + ½) · source / scaled.
                indices.append(min(source - 1, (2 * j + 1) * source / (2 * scaled)))
                weights.append(1)
            case .smooth:
                // The centre in source pixel coordinates, less ½, in units
                // of 1 / (2 · scaled): between the centres of source pixels
                // `low` and `low + 1`, `fraction` of the way.
                let position = (2 * j + 1) * source - scaled, unit = 2 * scaled
                let low = max(0, position) / unit
                let fraction = position <= 0 ? 0 : Int64((position % unit * Int(bilinearTotal) + scaled) / unit)
                // Past the last centre the edge pixel repeats.
                let high = min(low + 1, source - 1)
                if high == low || fraction == 0 {
                    indices.append(low)
                    weights.append(bilinearTotal)
                } else if fraction == bilinearTotal {
                    indices.append(high)
                    weights.append(bilinearTotal)
                } else {
                    indices.append(low)
                    weights.append(bilinearTotal - fraction)
                    indices.append(high)
                    weights.append(fraction)
                }
            }
            starts.append(indices.count)
        }
        let total: Int64 = switch method {
        case nil: Int64(source)
        case .nearest: 1
        case .smooth: bilinearTotal
        }
        return Axis(source: source, starts: starts, indices: indices, weights: weights, total: total)
    }
}

extension BoxFilter.Axis {
    /// The outputs whose source indices meet `range`: contiguous, since
    /// each output's first and last index grow with the output.
    func outputs(reading range: Range<Int>) -> Range<Int> {
        let count = starts.count - 1
        guard !indices.isEmpty else { return 0..<count }
        guard !range.isEmpty else { return 0..<0 }
        // The first output whose last index reaches the range, and the
        // first whose first index is past it.
        let end = firstReaching.count - 1
        let low = firstReaching[min(max(range.lowerBound, 0), end)]
        return low..<max(low, firstStarting[min(max(range.upperBound, 0), end)])
    }
}
