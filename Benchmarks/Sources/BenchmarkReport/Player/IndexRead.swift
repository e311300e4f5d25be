import BenchmarkSupport
@_spi(Benchmarks) import GIF

/// The index tier's compact form (``FrameSeeker``'s stored indices,
/// compressed when a GIF's raw indices do not fit its budget): what reading
/// frames back from it costs against giflib decoding them, per file, and
/// what storing them costs the first loop.
///
/// For each animation, three seekers with no checkpoints loop over every
/// frame in order, timed in interleaved rounds (this thread's CPU time):
/// - *decode*: no index tier, every frame decoded by giflib and composited;
/// - *raw*: a tier that holds every frame's raw indices, so nothing is
///   compressed: frames are composited from their indices (or runs);
/// - *compact*: a tier one byte short of the raw indices, so every frame
///   that compresses is stored compressed, and read back a band at a time.
/// Compositing costs the three alike, so per round (compact − raw) over
/// (decode − raw) is the compact read's cost over giflib's decode; the
/// figure is the median over the rounds. The first loop of a fresh seeker
/// with the default budget (compressing only when the raw indices do not
/// fit it, as a player's source does) is timed against a fresh *raw* one
/// (decoding and storing every frame raw: what a tier without the compact
/// form costs, at most): the target. So is a fresh *compact* one
/// (compressing every frame that compresses): what the first loop of a GIF
/// whose raw indices do not fit costs, for the table.
enum IndexRead {
    /// The target for a compact read over giflib's decode.
    static let target = 0.10
    /// The target for the first loop with the default budget over the
    /// first loop storing every frame raw.
    static let firstLoopTarget = 1.1

    static func seeker(_ image: GIFImage, indexBytes: Int) -> FrameSeeker {
        image.makeSeeker(budget: DecodingBudget(checkpointBytes: 0, indexBytes: indexBytes))
    }

    /// One loop over every frame; a pixel of each added to `sink`.
    static func loop(_ seeker: inout FrameSeeker, sink: inout Int) {
        for index in 0..<seeker.image.info.frameCount {
            guard let frame = try? seeker.frame(at: index) else { return }
            sink &+= Int(frame.pixels[frame.pixels.count / 2])
        }
    }

    static func printSection(rounds: Int) {
        var rows: [[String]] = []
        var sink = 0
        for (name, path) in FeedPath.animations() {
            let image = Workload.scanned(path, for: "the index read figure")
            let raw = image.info.frames.reduce(0) { $0 + $1.rect.width * $1.rect.height }
            var decode = seeker(image, indexBytes: 0)
            var stored = seeker(image, indexBytes: raw)
            var compact = seeker(image, indexBytes: max(0, raw - 1))
            for index in [0, 1, 2] {
                switch index {
                case 0: loop(&decode, sink: &sink)
                case 1: loop(&stored, sink: &sink)
                default: loop(&compact, sink: &sink)
                }
            }
            let held = compact.indexedFrameCount, heldBytes = compact.indexBytes
            let samples = Timing.roundSamples(rounds, threadCPU: true, [
                { loop(&decode, sink: &sink) }, { loop(&stored, sink: &sink) }, { loop(&compact, sink: &sink) },
            ])
            let ratios = (0..<rounds).map { round in
                (samples[2][round] - samples[1][round]) / max(1e-12, samples[0][round] - samples[1][round])
            }.sorted()
            let ratio = ratios[ratios.count / 2]
            // The first loop: fresh seekers each round.
            let first = Timing.roundSamples(rounds, threadCPU: true, [
                {
                    var fresh = seeker(image, indexBytes: raw)
                    loop(&fresh, sink: &sink)
                },
                {
                    var fresh = seeker(image, indexBytes: max(0, raw - 1))
                    loop(&fresh, sink: &sink)
                },
                {
                    var fresh = seeker(image, indexBytes: DecodingBudget.default.indexBytes)
                    loop(&fresh, sink: &sink)
                },
            ])
            let compactFirst = Timing.pairedRatio(first, 1, over: 0)
            let firstRatio = Timing.pairedRatio(first, 2, over: 0)
            var fitting = seeker(image, indexBytes: DecodingBudget.default.indexBytes)
            loop(&fitting, sink: &sink)
            rows.append([
                name, "\(image.info.frameCount)", Timing.format(Double(raw) / 1_048_576, digits: 1),
                Timing.format(Double(heldBytes) / 1_048_576, digits: 2) + (held == image.info.frameCount ? "" : " (\(held) held)"),
                Timing.milliseconds(samples[0].min()!), Timing.milliseconds(samples[1].min()!),
                Timing.milliseconds(samples[2].min()!),
                Timing.ratio(ratio) + (ratio <= target ? " met" : " NOT MET"),
                Timing.ratio(compactFirst),
                Timing.ratio(firstRatio) + (firstRatio <= firstLoopTarget ? " met" : " NOT MET"),
                "\(fitting.indexedFrameCount)/\(image.info.frameCount)",
            ])
        }
        Timing.printTable(
            header: [
                "index read", "frames", "raw indices MiB", "compact MiB", "decode loop ms", "raw loop ms",
                "compact loop ms", "compact read ×decode (≤ 0.10)", "first loop compact ×raw",
                "first loop default ×raw (≤ 1.1)", "frames held, 16 MiB",
            ],
            rows: rows)
        print()
        print("Seekers with no checkpoints, every frame in order, \(rounds) interleaved rounds, this thread's CPU time")
        print("  (loop ms: the least round). Compact read ×decode: per round (compact − raw) / (decode − raw), the")
        print("  median: compositing costs the three loops alike. Compact: a tier one byte short of the raw indices,")
        print("  so every frame that compresses is stored compressed. First loop: a fresh compact seeker, and one")
        print("  with the default 16 MiB of indices (compressing only when the raw indices do not fit), over a")
        print("  fresh raw one (paired per round). Frames held: with the default 16 MiB of indices after one")
        print("  loop. (sink \(sink & 0xff))")
    }
}
