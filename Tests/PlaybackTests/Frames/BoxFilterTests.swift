import Playback
import Testing

/// The box filter against the definition of an area mean, computed here
/// pixel by pixel from the geometry of the two grids.
@Suite("BoxFilter: exact area means")
struct BoxFilterTests {
    /// Pictures whose bytes are a fixed pseudo-random sequence (a 64-bit
    /// xorshift from a seed), alpha drawn a third each from 0, 255 and any
    /// value, so that transparent, opaque and partial pixels all meet in
    /// one output pixel.
    struct Picture {
        var width: Int
        var height: Int
        var pixels: [UInt8]

        init(width: Int, height: Int, seed: UInt64) {
            (self.width, self.height) = (width, height)
            var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
            func next() -> UInt64 {
                state ^= state << 13
                state ^= state >> 7
                state ^= state << 17
                return state
            }
            pixels = [UInt8](repeating: 0, count: width * height * 4)
            for pixel in stride(from: 0, to: pixels.count, by: 4) {
                let bits = next()
                for channel in 0..<3 { pixels[pixel + channel] = UInt8(truncatingIfNeeded: bits >> (8 * channel + 8)) }
                pixels[pixel + 3] = switch bits % 3 { case 0: 0; case 1: 255; default: UInt8(truncatingIfNeeded: bits >> 40) }
            }
        }
    }

    /// How much of source pixel `s` lies under output pixel `o` on an axis
    /// of `source` pixels drawn as `output` pixels, in units of
    /// 1 / (source × output): the output pixel spans source coordinates
    /// o·source/output up to (o + 1)·source/output.
    static func coverage(_ o: Int, _ s: Int, source: Int, output: Int) -> Int {
        max(0, min((o + 1) * source, (s + 1) * output) - max(o * source, s * output))
    }

    /// n / d rounded to nearest, halves up: ⌊(2n + d) / 2d⌋.
    static func rounded(_ n: Int, _ d: Int) -> UInt8 { UInt8((2 * n + d) / (2 * d)) }

    /// Output pixel (`ox`, `oy`) of `picture` drawn at `width` × `height`:
    /// every channel the area mean when premultiplied; otherwise alpha the
    /// area mean and colour the mean weighted by area × alpha (transparent
    /// black where no alpha is covered).
    static func reference(_ picture: Picture, width: Int, height: Int, ox: Int, oy: Int, premultiplied: Bool) -> [UInt8] {
        var sums = [0, 0, 0, 0], area = 0, alphaWeight = 0
        // Only source pixels near the output pixel can be covered.
        let xs = max(0, ox * picture.width / width - 1)..<min(picture.width, (ox + 1) * picture.width / width + 1)
        let ys = max(0, oy * picture.height / height - 1)..<min(picture.height, (oy + 1) * picture.height / height + 1)
        for sy in ys {
            for sx in xs {
                let weight = coverage(ox, sx, source: picture.width, output: width)
                    * coverage(oy, sy, source: picture.height, output: height)
                let pixel = (sy * picture.width + sx) * 4, alpha = Int(picture.pixels[pixel + 3])
                area += weight
                alphaWeight += weight * alpha
                for channel in 0..<3 {
                    sums[channel] += weight * Int(picture.pixels[pixel + channel]) * (premultiplied ? 1 : alpha)
                }
                sums[3] += weight * alpha
            }
        }
        #expect(area == picture.width * picture.height, "the coverages of one output pixel add up to the area unit")
        let alpha = rounded(sums[3], area)
        if premultiplied { return sums[0..<3].map { rounded($0, area) } + [alpha] }
        if alphaWeight == 0 { return [0, 0, 0, 0] }
        return sums[0..<3].map { rounded($0, alphaWeight) } + [alpha]
    }

    /// Where two byte arrays first differ (as pixel index and the two
    /// pixels), or `nil` when they are equal, for a short failure message.
    static func difference(_ out: [UInt8], _ expected: [UInt8]) -> String? {
        guard out != expected else { return nil }
        guard out.count == expected.count else { return "\(out.count) bytes, expected \(expected.count)" }
        let byte = out.indices.first { out[$0] != expected[$0] } ?? 0, pixel = byte / 4 * 4
        return "byte \(byte): \(out[pixel..<pixel + 4]), expected \(expected[pixel..<pixel + 4])"
    }

    /// The whole reference frame.
    static func reference(_ picture: Picture, width: Int, height: Int, premultiplied: Bool) -> [UInt8] {
        var out: [UInt8] = []
        for oy in 0..<height {
            for ox in 0..<width {
                out += reference(picture, width: width, height: height, ox: ox, oy: oy, premultiplied: premultiplied)
            }
        }
        return out
    }

    /// Source and output sizes: integer ratios, fractional ones both ways,
    /// scale 1, 1-pixel outputs and sources, upscales, and the grid's
    /// downscales (640 × 400 → 200 × 125, 480 × 270 → 200 × 113) at a
    /// tenth of their size.
    static let sizes: [(Int, Int, Int, Int)] = [
        (1, 1, 1, 1), (2, 2, 1, 1), (7, 5, 1, 1), (9, 1, 4, 1), (1, 9, 1, 2), (4, 4, 2, 2), (9, 6, 3, 2),
        (16, 12, 4, 3), (3, 1, 2, 1), (5, 7, 3, 4), (7, 5, 7, 5), (13, 11, 13, 11), (10, 10, 3, 7), (11, 13, 10, 12),
        (17, 3, 5, 3), (3, 2, 7, 5), (2, 3, 5, 4), (31, 29, 8, 9), (64, 40, 20, 13), (48, 27, 20, 11), (60, 40, 60, 40),
        (100, 75, 33, 25), (37, 41, 36, 40), (96, 60, 30, 19), (72, 41, 30, 17),
        // Columns of 300 rows (too many for 16-bit sums down), outputs of 600
        // source columns (a pass of at most 1,024 holds one), and one of 2,050
        // (more than a pass holds).
        (3, 300, 2, 1), (3_000, 2, 5, 1), (2_050, 3, 1, 2),
    ]

    @Test("Whole frames equal the area-mean reference, straight and premultiplied", arguments: [false, true])
    func wholeFrames(premultiplied: Bool) {
        for (index, (sw, sh, w, h)) in Self.sizes.enumerated() {
            let picture = Picture(width: sw, height: sh, seed: UInt64(index + 1))
            let filter = BoxFilter(sourceWidth: sw, sourceHeight: sh, width: w, height: h)
            var out: [UInt8] = []
            filter.apply(picture.pixels, into: &out, premultiplied: premultiplied)
            let expected = Self.reference(picture, width: w, height: h, premultiplied: premultiplied)
            let difference = Self.difference(out, expected)
            #expect(difference == nil, "\(sw)×\(sh) → \(w)×\(h)")
        }
    }

    @Test("Sums too large for 32 bits (70,001 × 2 → 3 × 1: no common divisor shrinks the weights) still scale exactly")
    func wideSource() {
        let picture = Picture(width: 70_001, height: 2, seed: 99)
        for premultiplied in [false, true] {
            let filter = BoxFilter(sourceWidth: picture.width, sourceHeight: 2, width: 3, height: 1)
            var out: [UInt8] = []
            filter.apply(picture.pixels, into: &out, premultiplied: premultiplied)
            #expect(Self.difference(out, Self.reference(picture, width: 3, height: 1, premultiplied: premultiplied)) == nil)
        }
    }

    /// Sources of `width` × `height` shrunk to one pixel, so that every
    /// weight is 1 and the divisor is the area: up to 33,024, the largest
    /// area summed in 32-bit lanes, in both shapes a pass takes (rows
    /// summed down in 16-bit lanes, up to 257 rows, and in 32-bit lanes;
    /// on x86-64, sums down below 2^15, up to 128 rows, are summed across
    /// two columns at a time as signed 16-bit products: 5 × 128 and 5 × 129
    /// sit either side of that).
    static let divisorShapes: [(Int, Int)] = [
        (1, 1), (2, 1), (3, 1), (7, 1), (255, 1), (256, 1), (257, 1), (1_000, 1), (1, 258), (3, 300), (100, 41),
        (1_024, 32), (129, 256), (5, 128), (5, 129),
    ]

    @Test("Means landing on a whole number or half-way round exactly, for every divisor a 32-bit pass takes", arguments: [false, true])
    func roundingBoundaries(premultiplied: Bool) {
        for (width, height) in Self.divisorShapes {
            let d = width * height
            let filter = BoxFilter(sourceWidth: width, sourceHeight: height, width: 1, height: 1)
            // Sums of v·d + e: on a multiple of d, one either side, and
            // about the half-way point, where the rounding goes up.
            let excesses = Set([-1, 0, 1, d / 2 - 1, d / 2, d / 2 + 1, d - 1].filter { $0 > -d && $0 < d })
            let values = d > 1_000 ? [0, 1, 2, 17, 127, 128, 200, 253, 254, 255] : Array(0...255)
            var out: [UInt8] = []
            for v in values {
                for e in excesses {
                    // The first |e| pixels one more (or less) than v; alpha
                    // opaque, so straight colour is the plain mean too.
                    guard e >= 0 ? v < 255 || e == 0 : v > 0 else { continue }
                    var pixels = [UInt8](repeating: 255, count: d * 4)
                    for pixel in 0..<d {
                        let value = UInt8(pixel < abs(e) ? v + e.signum() : v)
                        pixels[pixel * 4] = value
                        pixels[pixel * 4 + 1] = value
                        pixels[pixel * 4 + 2] = value
                    }
                    filter.apply(pixels, into: &out, premultiplied: premultiplied)
                    let expected = Self.rounded(v * d + e, d)
                    #expect(out == [expected, expected, expected, 255], "\(width)×\(height), sum \(v)·\(d) + \(e)")
                    if out != [expected, expected, expected, 255] { return }
                }
            }
        }
    }

    @Test("A region written with a padded row stride is the reference there, and nothing else changes", arguments: [false, true])
    func regionWithStride(premultiplied: Bool) throws {
        let sentinel: UInt8 = 0xA5
        for (index, (sw, sh, w, h)) in Self.sizes.enumerated() {
            let picture = Picture(width: sw, height: sh, seed: UInt64(100 + index))
            let filter = BoxFilter(sourceWidth: sw, sourceHeight: sh, width: w, height: h)
            let region = PixelRect(x: w / 3, y: h / 4, width: max(1, w / 2), height: max(1, (h + 1) / 2))
            let bytesPerRow = w * 4 + 12
            var buffer = [UInt8](repeating: sentinel, count: bytesPerRow * h)
            try picture.pixels.withUnsafeBufferPointer { source in
                try buffer.withUnsafeMutableBytes {
                    try filter.apply(source, region: region, into: $0, bytesPerRow: bytesPerRow, premultiplied: premultiplied)
                }
            }
            var expected = [UInt8](repeating: sentinel, count: bytesPerRow * h)
            for oy in region.y..<region.y + region.height {
                for ox in region.x..<region.x + region.width {
                    let pixel = Self.reference(picture, width: w, height: h, ox: ox, oy: oy, premultiplied: premultiplied)
                    expected.replaceSubrange(oy * bytesPerRow + ox * 4..<oy * bytesPerRow + ox * 4 + 4, with: pixel)
                }
            }
            let difference = Self.difference(buffer, expected)
            #expect(difference == nil, "\(sw)×\(sh) → \(w)×\(h), region \(region)")
        }
    }

    @Test("Scaling a change row by row writes each output row's pixels that read its source rows' changed columns, as the reference, and nothing else", arguments: [false, true])
    func changedRows(premultiplied: Bool) throws {
        let sentinel: UInt8 = 0x5A
        for (index, (sw, sh, w, h)) in Self.sizes.enumerated() {
            let picture = Picture(width: sw, height: sh, seed: UInt64(300 + index))
            let filter = BoxFilter(sourceWidth: sw, sourceHeight: sh, width: w, height: h)
            // Each source row's changed columns, first and last: none for
            // a third of the rows (the first past the last, as callers
            // mark them), else a stretch, a pixel or columns past the edges.
            var random = UInt64(index + 1) &* 0x9E37_79B9_7F4A_7C15
            func next(_ bound: Int) -> Int {
                random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return Int(truncatingIfNeeded: (random >> 33) % UInt64(max(1, bound)))
            }
            var spans = [Int](repeating: 0, count: 2 * sh)
            for y in 0..<sh {
                let a = next(sw + 2) - 1, b = next(sw + 2) - 1
                (spans[2 * y], spans[2 * y + 1]) = next(3) == 0 ? (Int.max, -1) : (min(a, b), max(a, b))
            }
            let region = PixelRect(x: w / 5, y: h / 6, width: max(1, w - w / 4), height: max(1, h - h / 5))
            let bytesPerRow = w * 4 + 8
            var buffer = [UInt8](repeating: sentinel, count: bytesPerRow * h)
            var rowColumns = [Int](repeating: -7, count: 2 * region.height)
            let byRow = try picture.pixels.withUnsafeBufferPointer { source in
                try spans.withUnsafeBufferPointer { spans in
                    try rowColumns.withUnsafeMutableBufferPointer { rowColumns in
                        try buffer.withUnsafeMutableBytes {
                            try filter.apply(source, region: region, changedColumns: spans, rowColumns: rowColumns,
                                             into: $0, bytesPerRow: bytesPerRow, premultiplied: premultiplied)
                        }
                    }
                }
            }
            #expect(byRow, "\(sw)×\(sh) → \(w)×\(h): the row columns were not reported as written")
            var expected = [UInt8](repeating: sentinel, count: bytesPerRow * h)
            for oy in region.y..<region.y + region.height {
                // The changed columns of the source rows under this output
                // row, from the first to the last, within the picture.
                let rows = (0..<sh).filter { Self.coverage(oy, $0, source: sh, output: h) > 0 }
                let first = max(0, rows.map { spans[2 * $0] }.min() ?? .max)
                let last = min(sw - 1, rows.map { spans[2 * $0 + 1] }.max() ?? -1)
                var written: [Int] = []
                for ox in region.x..<region.x + region.width where first <= last
                    && (first...last).contains(where: { Self.coverage(ox, $0, source: sw, output: w) > 0 }) {
                    written.append(ox)
                    let pixel = Self.reference(picture, width: w, height: h, ox: ox, oy: oy, premultiplied: premultiplied)
                    expected.replaceSubrange(oy * bytesPerRow + ox * 4..<oy * bytesPerRow + ox * 4 + 4, with: pixel)
                }
                let j = oy - region.y, columns = rowColumns[2 * j]..<max(rowColumns[2 * j], rowColumns[2 * j + 1])
                #expect(written.isEmpty ? columns.isEmpty : columns == written.first!..<written.last! + 1,
                        "\(sw)×\(sh) → \(w)×\(h), output row \(oy): columns \(columns)")
            }
            let difference = Self.difference(buffer, expected)
            #expect(difference == nil, "\(sw)×\(sh) → \(w)×\(h), region \(region): \(difference ?? "")")
        }
    }
}
