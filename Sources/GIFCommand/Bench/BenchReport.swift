import GIF

/// What `gif bench` measured for one file; encoded as the `--json` output and
/// rendered as the text output.
struct BenchReport: Codable, Equatable {
    var file: String
    var frames: Int
    var canvas: InfoReport.Size
    var iterations: Int
    /// Median time to scan the block structure.
    var scanMilliseconds: Double
    /// Median time to decode and composite every frame.
    var decodeMilliseconds: Double
    /// Composited frames per second.
    var framesPerSecond: Double
    /// Composited canvas megapixels per second.
    var megapixelsPerSecond: Double
    /// Median time of giflib's `DGifSlurp`; `null` when giflib failed.
    @NullWhenAbsent var giflibSlurpMilliseconds: Double?
    /// (scan + decode) / DGifSlurp; `null` when giflib failed.
    @NullWhenAbsent var ratioToGiflib: Double?
    /// giflib's error, when `DGifSlurp` failed on a file we decode.
    @NullWhenAbsent var giflibError: String?
    /// The process's peak resident set size after this file, in bytes.
    var peakMemoryBytes: Int
}

extension BenchReport {
    init(
        file: String, image: GIFImage, iterations: Int, scan: Duration, decode: Duration,
        slurp: Duration?, slurpError: GIFError?, peakMemoryBytes: Int
    ) {
        let size = image.info.canvasSize
        let decodeSeconds = max(decode.seconds, 1e-9)
        self.file = file
        frames = image.info.frameCount
        canvas = InfoReport.Size(width: size.width, height: size.height)
        self.iterations = iterations
        scanMilliseconds = Self.rounded(scan.seconds * 1000)
        decodeMilliseconds = Self.rounded(decode.seconds * 1000)
        framesPerSecond = Self.rounded(Double(frames) / decodeSeconds)
        megapixelsPerSecond = Self.rounded(Double(frames * size.area) / decodeSeconds / 1e6)
        giflibSlurpMilliseconds = slurp.map { Self.rounded($0.seconds * 1000) }
        ratioToGiflib = slurp.map { Self.rounded((scan + decode).seconds / max($0.seconds, 1e-9)) }
        giflibError = slurpError?.description
        self.peakMemoryBytes = peakMemoryBytes
    }

    /// Four significant decimals are plenty for timings.
    private static func rounded(_ value: Double) -> Double {
        (value * 10_000).rounded() / 10_000
    }

    /// The text output of `gif bench` for this file.
    var text: String {
        func ms(_ value: Double) -> String { fixed(value, 3) + " ms" }
        var lines = [
            "\(file): \(frames) frame\(frames == 1 ? "" : "s"), \(canvas.width)x\(canvas.height), "
                + "median of \(iterations)",
            "  scan              \(ms(scanMilliseconds))",
            "  decode+composite  \(ms(decodeMilliseconds))  \(fixed(framesPerSecond, 1)) fps  "
                + "\(fixed(megapixelsPerSecond, 1)) MP/s",
        ]
        if let giflibSlurpMilliseconds, let ratioToGiflib {
            lines.append("  giflib DGifSlurp  \(ms(giflibSlurpMilliseconds))  "
                + "(scan+decode = \(fixed(ratioToGiflib, 2))x giflib)")
        } else {
            lines.append("  giflib DGifSlurp  failed: \(giflibError ?? "unknown error")")
        }
        lines.append("  peak memory       \(fixed(Double(peakMemoryBytes) / 1_048_576, 1)) MiB (process)")
        return lines.map { $0 + "\n" }.joined()
    }

    private func fixed(_ value: Double, _ decimals: Int) -> String {
        let scale = (0..<decimals).reduce(1.0) { value, _ in value * 10 }
        let scaled = Int((value * scale).rounded())
        let whole = scaled / Int(scale), fraction = abs(scaled % Int(scale))
        guard decimals > 0 else { return "\(whole)" }
        let digits = String(fraction)
        return "\(whole).\(String(repeating: "0", count: decimals - digits.count))\(digits)"
    }
}

extension Duration {
    /// The duration in seconds, as a floating-point number.
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
