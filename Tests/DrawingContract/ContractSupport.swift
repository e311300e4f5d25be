import GIF
import Playback
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A host's buffer as the drawing contract sees it: `height` rows of
/// `width × 4` bytes, `bytesPerRow` apart, starting `offset` bytes past a
/// 16-byte boundary, between two pages that may not be touched. Every byte
/// of the pages between the guards that is not one of the rows' `width × 4`
/// (the padding between rows, the bytes before the first row and after the
/// last) holds ``canary`` and must keep it: a write there is a write into
/// the host's memory (in a grid host, the neighbouring cell).
package final class GuardedBuffer {
    package let width: Int, height: Int, bytesPerRow: Int, offset: Int
    /// The bytes the rows reach: `(height − 1) × bytesPerRow + width × 4`.
    package let count: Int
    package static let canary: UInt8 = 0xA5
    private static let page = Int(sysconf(Int32(_SC_PAGESIZE)))
    private let region: UnsafeMutableRawPointer
    private let regionSize: Int
    /// The pages between the guards.
    private let body: UnsafeMutableRawBufferPointer
    package let start: UnsafeMutableRawPointer

    package init(width: Int, height: Int, bytesPerRow: Int, offset: Int) {
        (self.width, self.height, self.bytesPerRow, self.offset) = (width, height, bytesPerRow, offset)
        count = height > 0 && width > 0 ? (height - 1) * bytesPerRow + width * 4 : 0
        let page = Self.page
        let bodySize = (count + 32 + page - 1) / page * page
        regionSize = bodySize + 2 * page
        let mapped = mmap(nil, regionSize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        guard let mapped, mapped != MAP_FAILED else { fatalError("mmap failed") }
        region = mapped
        mprotect(region, page, PROT_NONE)
        mprotect(region + page + bodySize, page, PROT_NONE)
        body = UnsafeMutableRawBufferPointer(start: region + page, count: bodySize)
        body.initializeMemory(as: UInt8.self, repeating: Self.canary)
        // The rows end as near the guard page after them as the offset
        // allows (within 15 bytes), and start `offset` past a 16-byte line.
        var first = Int(bitPattern: body.baseAddress! + bodySize) - count
        first -= ((first % 16) - offset + 16) % 16
        start = UnsafeMutableRawPointer(bitPattern: first)!
    }

    deinit { munmap(region, regionSize) }

    /// The buffer a draw is given: exactly the bytes the rows reach.
    package var buffer: UnsafeMutableRawBufferPointer { UnsafeMutableRawBufferPointer(start: start, count: count) }

    /// The rows' pixels, packed.
    package var pixels: [UInt8] {
        var out = [UInt8](repeating: 0, count: width * height * 4)
        out.withUnsafeMutableBytes { to in
            for y in 0..<height {
                (to.baseAddress! + y * width * 4).copyMemory(from: start + y * bytesPerRow, byteCount: width * 4)
            }
        }
        return out
    }

    /// The first byte outside the rows that lost its ``canary``, as an
    /// offset from the first row's start, or `nil`: the bytes before the
    /// first row, between rows and after the last, up to the guard pages.
    package var firstTouchedOutside: Int? {
        let base = UnsafeRawPointer(body.baseAddress!), first = UnsafeRawPointer(start)
        func touched(_ from: UnsafeRawPointer, _ count: Int) -> Int? {
            guard count > 0 else { return nil }
            let bytes = UnsafeRawBufferPointer(start: from, count: count)
            return bytes.firstIndex { $0 != Self.canary }.map { from + $0 - first }
        }
        if let at = touched(base, first - base) { return at }
        let rowBytes = width * 4, slack = bytesPerRow - rowBytes
        if slack > 0 {
            for y in 0..<max(0, height - 1) {
                if let at = touched(first + y * bytesPerRow + rowBytes, slack) { return at }
            }
        }
        let end = first + count
        return touched(end, base + body.count - end)
    }
}

/// Resampling written out from its definition, for the contract's
/// display sizes: the canvas scaled to the geometry's scaled size and the
/// frame's window of it kept. A shrunk axis averages the source area each
/// output pixel covers (source pixels weighted by the part covered); an
/// enlarged one takes the source pixel under the output pixel's centre
/// (nearest) or the two nearest centres weighted by distance in 4096ths
/// (smooth, the edge pixel repeated past the last centre). Colour is
/// weighted by alpha unless premultiplied; every result rounds to nearest.
package enum ReferenceScaler {
    /// Output index `j`'s source pixels and weights, which add up to the
    /// axis's total.
    package struct Axis {
        package var taps: [[(index: Int, weight: Int64)]] = []
        package var total: Int64 = 1

        package init(source: Int, scaled: Int, crop: Int, count: Int, upscaling: DisplaySize.Upscaling) {
            for j in crop..<crop + count {
                var row: [(Int, Int64)] = []
                if scaled <= source {
                    // Output pixel j spans [j·source, (j+1)·source), source
                    // pixel s spans [s·scaled, (s+1)·scaled).
                    for s in 0..<source {
                        let overlap = min((j + 1) * source, (s + 1) * scaled) - max(j * source, s * scaled)
                        if overlap > 0 { row.append((s, Int64(overlap))) }
                    }
                    total = Int64(source)
                } else if upscaling == .nearest {
                    row.append((min(source - 1, Int((Double(j) + 0.5) * Double(source) / Double(scaled))), 1))
                    total = 1
                } else {
                    // The centre less ½ in source pixels, as a fraction
                    // with denominator 2·scaled.
                    let numerator = (2 * j + 1) * source - scaled, denominator = 2 * scaled
                    let low = max(0, numerator) / denominator
                    let fraction = numerator <= 0 ? 0 : Int64((numerator % denominator * 4096 + scaled) / denominator)
                    let high = min(low + 1, source - 1)
                    if high == low || fraction == 0 {
                        row.append((low, 4096))
                    } else if fraction == 4096 {
                        row.append((high, 4096))
                    } else {
                        row.append((low, 4096 - fraction))
                        row.append((high, fraction))
                    }
                    total = 4096
                }
                taps.append(row)
            }
        }
    }

    /// `pixels` (`width` × `height`, four bytes each, alpha last) drawn at
    /// `geometry`'s frame.
    package static func scale(
        _ pixels: [UInt8], width: Int, height: Int, to geometry: DisplayGeometry, upscaling: DisplaySize.Upscaling,
        premultiplied: Bool
    ) -> [UInt8] {
        let columns = Axis(source: width, scaled: geometry.scaledWidth, crop: geometry.cropX, count: geometry.width,
                           upscaling: upscaling)
        let rows = Axis(source: height, scaled: geometry.scaledHeight, crop: geometry.cropY, count: geometry.height,
                        upscaling: upscaling)
        let area = columns.total * rows.total
        var out = [UInt8](repeating: 0, count: geometry.width * geometry.height * 4)
        func rounded(_ sum: Int64, _ divisor: Int64) -> UInt8 { divisor > 0 ? UInt8((sum + divisor / 2) / divisor) : 0 }
        // Exact integer sums, so the rows' sums of the columns' sums are the
        // two-dimensional sums: one axis at a time.
        let outWidth = geometry.width
        var across = [Int64](repeating: 0, count: height * outWidth * 4)
        pixels.withUnsafeBufferPointer { pixels in
            across.withUnsafeMutableBufferPointer { across in
                for sy in 0..<height {
                    for ox in 0..<outWidth {
                        var sums: (Int64, Int64, Int64, Int64) = (0, 0, 0, 0)
                        for (sx, w) in columns.taps[ox] {
                            let i = (sy * width + sx) * 4
                            let a = Int64(pixels[i + 3]) * w
                            let k = premultiplied ? w : a
                            sums.0 += Int64(pixels[i]) * k
                            sums.1 += Int64(pixels[i + 1]) * k
                            sums.2 += Int64(pixels[i + 2]) * k
                            sums.3 += a
                        }
                        let o = (sy * outWidth + ox) * 4
                        (across[o], across[o + 1], across[o + 2], across[o + 3]) = sums
                    }
                }
            }
        }
        across.withUnsafeBufferPointer { across in
            out.withUnsafeMutableBufferPointer { out in
                for oy in 0..<geometry.height {
                    for ox in 0..<outWidth {
                        var sums: (Int64, Int64, Int64, Int64) = (0, 0, 0, 0)
                        for (sy, w) in rows.taps[oy] {
                            let i = (sy * outWidth + ox) * 4
                            sums.0 += across[i] * w
                            sums.1 += across[i + 1] * w
                            sums.2 += across[i + 2] * w
                            sums.3 += across[i + 3] * w
                        }
                        let o = (oy * outWidth + ox) * 4, divisor = premultiplied ? area : sums.3
                        out[o] = rounded(sums.0, divisor)
                        out[o + 1] = rounded(sums.1, divisor)
                        out[o + 2] = rounded(sums.2, divisor)
                        out[o + 3] = rounded(sums.3, area)
                    }
                }
            }
        }
        return out
    }
}

/// GIFs made up in the test from a seed, written by a plain encoder of its
/// own (LZW codes that never grow past five bits: a clear code every 12
/// indices), so that the frames' pixels come from the GIF rules alone:
/// 16 colours, frames of random rectangles (1-pixel ones, ones at an
/// offset, ones past the canvas's edge), every disposal, a transparent
/// index or none, interlaced or not, and frames that draw nothing (every
/// pixel transparent) or repeat the canvas.
package enum GeneratedGIF {
    /// A deterministic generator (SplitMix64).
    package struct Random {
        package var state: UInt64
        package init(state: UInt64) { self.state = state }
        package mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        package mutating func below(_ n: Int) -> Int { n <= 1 ? 0 : Int(next() % UInt64(n)) }
        package mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
    }

    package static func make(seed: UInt64) -> [UInt8] {
        var random = Random(state: seed)
        let width = 1 + random.below(48), height = 1 + random.below(40)
        let frames = 2 + random.below(9)
        var out: [UInt8] = Array("GIF89a".utf8)
        func short(_ v: Int) { out += [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        short(width)
        short(height)
        out += [0x83, UInt8(random.below(16)), 0] // 16-colour global table
        for _ in 0..<16 * 3 { out.append(UInt8(random.below(256))) }
        out += [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1, 0, 0, 0]
        for index in 0..<frames {
            // A rectangle: the whole canvas, a 1-pixel one, or any, now and
            // then reaching past the canvas's right or bottom edge.
            let w: Int, h: Int, x: Int, y: Int
            switch random.below(4) {
            case 0: (w, h, x, y) = (width, height, 0, 0)
            case 1: (w, h, x, y) = (1, 1, random.below(width), random.below(height))
            default:
                w = 1 + random.below(width)
                h = 1 + random.below(height)
                let over = index > 0 && random.chance(15)
                x = random.below(width - w + 1) + (over ? random.below(w) : 0)
                y = random.below(height - h + 1) + (over ? random.below(h) : 0)
            }
            let transparent = random.chance(60) ? random.below(16) : nil
            let disposal = random.below(4)
            let interlaced = random.chance(25)
            out += [0x21, 0xF9, 4, UInt8(disposal << 2 | (transparent == nil ? 0 : 1)), 5, 0,
                    UInt8(transparent ?? 0), 0]
            out.append(0x2C)
            short(x)
            short(y)
            short(w)
            short(h)
            out.append(interlaced ? 0x40 : 0)
            // The pixels: noise, a few long runs of one index (stored as
            // runs), or every pixel transparent.
            var indices = [UInt8](repeating: 0, count: w * h)
            let kind = random.below(4)
            var i = 0
            while i < indices.count {
                let value: Int
                if kind == 3, let transparent { value = transparent } else { value = random.below(16) }
                let length = kind == 1 ? 1 + random.below(4 * w) : 1
                for _ in 0..<length where i < indices.count {
                    indices[i] = UInt8(value)
                    i += 1
                }
            }
            let order = interlaced ? interlacedRows(h) : Array(0..<h)
            var codes: [Int] = []
            var sinceClear = 12
            for row in order {
                for p in indices[row * w..<(row + 1) * w] {
                    if sinceClear == 12 {
                        codes.append(16)
                        sinceClear = 0
                    }
                    codes.append(Int(p))
                    sinceClear += 1
                }
            }
            codes.append(17)
            var data: [UInt8] = [], bits = 0, filled = 0
            for code in codes {
                bits |= code << filled
                filled += 5
                while filled >= 8 {
                    data.append(UInt8(bits & 0xFF))
                    bits >>= 8
                    filled -= 8
                }
            }
            if filled > 0 { data.append(UInt8(bits & 0xFF)) }
            out.append(4)
            var start = 0
            while start < data.count {
                let n = min(255, data.count - start)
                out.append(UInt8(n))
                out += data[start..<start + n]
                start += n
            }
            out.append(0)
        }
        out.append(0x3B)
        return out
    }

    /// The order an interlaced frame's rows are stored in.
    package static func interlacedRows(_ height: Int) -> [Int] {
        Array(stride(from: 0, to: height, by: 8)) + Array(stride(from: 4, to: height, by: 8))
            + Array(stride(from: 2, to: height, by: 4)) + Array(stride(from: 1, to: height, by: 2))
    }
}
