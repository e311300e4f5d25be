@_spi(Benchmarks) import Playback

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The box filter alone: `BoxFilter.apply` scaling one frame of the display
/// sizes a grid of players draws at, straight (RGBA8) and premultiplied,
/// in nanoseconds of thread CPU time per output pixel and as a ratio over a plain `memcpy` of
/// the same source frame, timed in the same interleaved rounds (the filter
/// must read every source byte at least once, so the copy is its floor).
/// The pictures are pseudo-random, alpha a third each 0, 255 and any value.
///
/// Run alone: `BenchmarkReport --box-filter [--rounds N]`.
enum BoxFilterReport {
    /// Source and output sizes: the grid's downscales to 200-pixel cells,
    /// an integer ratio, and scale 1.
    static let sizes: [(Int, Int, Int, Int)] = [
        (640, 400, 200, 125), (480, 270, 200, 113), (400, 400, 200, 200), (160, 120, 160, 120), (245, 245, 200, 200), (315, 236, 200, 150), (1000, 175, 200, 35),
    ]

    static func printSection(rounds: Int) {
        print()
        print("Box filter (BoxFilter.apply, one frame), thread CPU time, median of \(rounds) interleaved rounds; load \(Timing.loadAverage):")
        print()
        var rows: [[String]] = []
        for (sw, sh, w, h) in sizes {
            let source = picture(count: sw * sh)
            let filter = BoxFilter(sourceWidth: sw, sourceHeight: sh, width: w, height: h)
            var straight: [UInt8] = [], premultiplied: [UInt8] = []
            let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: source.count, alignment: 64)
            defer { copy.deallocate() }
            let samples = source.withUnsafeBufferPointer { source in
                Timing.roundSamples(rounds, threadCPU: true, [
                    { _ = memcpy(copy.baseAddress!, source.baseAddress!, source.count) },
                    { filter.apply(source, into: &straight) },
                    { filter.apply(source, into: &premultiplied, premultiplied: true) },
                ])
            }
            let median = Timing.summary(samples).median, outputs = Double(w * h)
            rows.append([
                "\(sw)×\(sh) → \(w)×\(h)", Timing.format(median[0] * 1e9 / outputs, digits: 2),
                Timing.format(median[1] * 1e9 / outputs, digits: 2), Timing.ratio(Timing.pairedRatio(samples, 1, over: 0), digits: 1),
                Timing.format(median[2] * 1e9 / outputs, digits: 2), Timing.ratio(Timing.pairedRatio(samples, 2, over: 0), digits: 1),
            ])
        }
        Timing.printTable(
            header: ["scale", "memcpy ns/out px", "straight ns/out px", "straight ×memcpy", "premul ns/out px", "premul ×memcpy"],
            rows: rows)
        print()
        print("memcpy: the source frame's bytes copied once. ×memcpy: the median of each round's ratio.")
    }

    /// `count` pixels of fixed pseudo-random bytes (a 64-bit xorshift).
    static func picture(count: Int) -> [UInt8] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var pixels = [UInt8](repeating: 0, count: count * 4)
        for pixel in 0..<count {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            for channel in 0..<3 { pixels[pixel * 4 + channel] = UInt8(truncatingIfNeeded: state >> (8 * channel + 8)) }
            pixels[pixel * 4 + 3] = switch state % 3 { case 0: 0; case 1: 255; default: UInt8(truncatingIfNeeded: state >> 40) }
        }
        return pixels
    }
}
