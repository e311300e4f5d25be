import BenchmarkSupport
import Foundation
@_spi(Benchmarks) import GIF
import IndexCandidates

/// The compact forms a GIF's stored indices could take, side by side on the
/// benchmark animations: the library's index tier as it stores frames that
/// do not fit raw (``IndexRuns`` at ≤ 1/8, IndexLZ at ≤ 7/8, else raw),
/// against candidates in C (IndexCandidates): liblz4 per frame and per
/// 64 KiB band, and each frame against what the frames before it left at
/// the same place (an index canvas), run-coded or as symbols through liblz4.
///
/// Every figure is divided by giflib's decode of the same frames' indices
/// (DGifGetLine, no compositing), timed in the same interleaved rounds
/// (this thread's CPU time, medians of per-round ratios). The C candidates
/// read each frame back into one row buffer; the library's tier is timed as
/// ``IndexRead`` times it, a compact seeker's loop less a raw one's (the
/// compositing both do), and its encode as a fresh compact seeker's first
/// loop less a fresh raw one's.
enum IndexCandidateReport {
    /// The C candidates, in the order of their columns.
    static let codecs: [(name: String, codec: ic_codec)] = [
        ("lz4 frame", IC_LZ4_FRAME), ("lz4 band", IC_LZ4_BAND),
        ("delta runs", IC_DELTA_RUNS), ("delta + lz4", IC_DELTA_LZ4),
    ]
    static let libraryName = "IndexLZ tier"

    /// One candidate's figures on one file.
    struct Figures {
        var size: Double, rawFrames: String, encode: Double, encodeRatio: Double, read: Double, readRatio: Double
    }

    static func printSection(rounds: Int) {
        var rows: [[String]] = [], summary: [[String]] = []
        var all: [String: [Figures]] = [:]
        var sink = 0
        for (name, path) in FeedPath.animations() {
            let image = Workload.scanned(path, for: "the index candidates")
            guard let data = FileManager.default.contents(atPath: path),
                  let gif = data.withUnsafeBytes({ ic_load($0.bindMemory(to: UInt8.self).baseAddress, $0.count) })
            else {
                print("giflib cannot read \(path) whole for the index candidates")
                exit(1)
            }
            defer { ic_free(gif) }
            let bytes = [UInt8](data)
            let (library, candidates, giflib, seekerDecode) = measure(image, gif, bytes, rounds: rounds, sink: &sink)
            let raw = Double(ic_raw_bytes(gif))
            for (candidate, figures) in zip([libraryName] + codecs.map(\.name), [library] + candidates) {
                all[candidate, default: []].append(figures)
                rows.append([
                    name, "\(image.info.frameCount)", candidate, Timing.format(figures.size, digits: 3), figures.rawFrames,
                    Timing.milliseconds(figures.encode), Timing.ratio(figures.encodeRatio),
                    Timing.milliseconds(figures.read),
                    Timing.ratio(figures.readRatio, digits: 3) + (figures.readRatio <= IndexRead.target ? "" : " over"),
                ])
            }
            summary.append(
                [name, "\(image.info.frameCount)", Timing.format(raw / 1_048_576, digits: 1), Timing.milliseconds(giflib),
                 Timing.ratio(seekerDecode)]
                    + ([library] + candidates).map {
                        Timing.format($0.size, digits: 3) + " / " + Timing.format($0.readRatio, digits: 3)
                    })
        }
        Timing.printTable(
            header: [
                "index candidates", "frames", "candidate", "bytes ×raw", "raw frames", "encode ms/loop",
                "encode ×decode", "read ms/loop", "read ×decode (≤ 0.10)",
            ],
            rows: rows)
        print()
        Timing.printTable(
            header: ["bytes ×raw / read ×decode", "frames", "raw MiB", "giflib ms", "seeker's giflib ×C", libraryName]
                + codecs.map(\.name),
            rows: summary)
        print()
        for candidate in [libraryName] + codecs.map(\.name) {
            let figures = all[candidate] ?? []
            let met = figures.filter { $0.readRatio <= IndexRead.target }.count
            print("\(candidate): read ≤ \(IndexRead.target) × decode on \(met)/\(figures.count) files; bytes ×raw median "
                + Timing.format(median(figures.map(\.size)), digits: 3) + ", read ×decode median "
                + Timing.format(median(figures.map(\.readRatio)), digits: 3) + ", encode ×decode median "
                + Timing.ratio(median(figures.map(\.encodeRatio))) + ".")
        }
        print()
        print("\(rounds) interleaved rounds, this thread's CPU time; every ratio is over giflib's decode of the same frames'")
        print("  indices (DGifGetLine into one buffer, no compositing: giflib ms, the median) in the same rounds, the median")
        print("  of the rounds' ratios. Bytes ×raw: the stored bytes over width × height of every frame; each C candidate")
        print("  keeps a frame raw (raw frames) when its encoding takes more than 7/8, as IndexLZ does. Read: every frame")
        print("  in order into one row buffer (the delta forms also follow the index canvas: every frame's")
        print("  non-transparent indices, disposal not followed). \(libraryName): the library's index tier one byte short of")
        print("  the raw indices (IndexRuns ≤ 1/8, IndexLZ ≤ 7/8, else raw), read as a compact seeker's loop less a raw")
        print("  one's, encoded as a fresh compact seeker's first loop less a fresh raw one's; seeker's giflib ×C: a")
        print("  seeker's giflib decode (its loop with no indices less the raw one's) over giflib ms, the denominator")
        print("  --index-read divides by. (sink \(sink & 0xff))")
    }

    static func median(_ values: [Double]) -> Double {
        values.isEmpty ? 0 : values.sorted()[values.count / 2]
    }

    /// The library's figures and each C candidate's on one file, giflib's
    /// decode in seconds, and a seeker's giflib decode over it.
    static func measure(
        _ image: GIFImage, _ gif: OpaquePointer, _ bytes: [UInt8], rounds: Int, sink: inout Int
    ) -> (library: Figures, candidates: [Figures], giflib: Double, seekerDecode: Double) {
        let raw = image.info.frames.reduce(0) { $0 + $1.rect.width * $1.rect.height }
        let stores = codecs.map { ic_encode(gif, $0.codec)! }
        defer { stores.forEach { ic_store_free($0) } }
        for (store, codec) in zip(stores, codecs) where ic_decode(gif, store, 1) < 0 {
            print("\(codec.name) does not read back to giflib's indices of \(image.info.frameCount) frames")
            exit(1)
        }
        var decode = IndexRead.seeker(image, indexBytes: 0)
        var stored = IndexRead.seeker(image, indexBytes: raw)
        var compact = IndexRead.seeker(image, indexBytes: max(0, raw - 1))
        for index in 0..<3 {
            switch index {
            case 0: IndexRead.loop(&decode, sink: &sink)
            case 1: IndexRead.loop(&stored, sink: &sink)
            default: IndexRead.loop(&compact, sink: &sink)
            }
        }
        let compactBytes = compact.indexBytes
        // The timed bodies add to a local: an array of closures cannot
        // capture the caller's inout.
        var checksum = 0
        let giflib: () -> Void = { checksum &+= bytes.withUnsafeBufferPointer { ic_giflib_decode($0.baseAddress, $0.count) } }
        let read = Timing.roundSamples(rounds, threadCPU: true, [
            giflib,
            { IndexRead.loop(&decode, sink: &checksum) }, { IndexRead.loop(&stored, sink: &checksum) },
            { IndexRead.loop(&compact, sink: &checksum) },
        ] + stores.map { store in { checksum &+= ic_decode(gif, store, 0) } })
        let encode = Timing.roundSamples(rounds, threadCPU: true, [
            giflib,
            {
                var fresh = IndexRead.seeker(image, indexBytes: raw)
                IndexRead.loop(&fresh, sink: &checksum)
            },
            {
                var fresh = IndexRead.seeker(image, indexBytes: max(0, raw - 1))
                IndexRead.loop(&fresh, sink: &checksum)
            },
        ] + codecs.map { codec in { ic_store_free(ic_encode(gif, codec.codec)) } })
        sink &+= checksum
        /// Per round, (`body` − `less`) over giflib's decode, the median.
        func ratio(_ samples: [[Double]], _ body: Int, less: Int? = nil) -> Double {
            median((0..<rounds).map { round in
                (samples[body][round] - (less.map { other in samples[other][round] } ?? 0)) / max(1e-12, samples[0][round])
            })
        }
        func seconds(_ samples: [[Double]], _ body: Int, less: Int? = nil) -> Double {
            median((0..<rounds).map { round in samples[body][round] - (less.map { other in samples[other][round] } ?? 0) })
        }
        let library = Figures(
            size: Double(compactBytes) / Double(max(1, raw)), rawFrames: "–",
            encode: seconds(encode, 2, less: 1), encodeRatio: ratio(encode, 2, less: 1),
            read: seconds(read, 3, less: 2), readRatio: ratio(read, 3, less: 2))
        let candidates = stores.enumerated().map { i, store in
            Figures(
                size: Double(ic_store_bytes(store)) / Double(max(1, ic_raw_bytes(gif))),
                rawFrames: "\(ic_store_raw_frames(store))",
                encode: seconds(encode, 3 + i), encodeRatio: ratio(encode, 3 + i),
                read: seconds(read, 4 + i), readRatio: ratio(read, 4 + i))
        }
        return (library, candidates, median(read[0]), ratio(read, 1, less: 2))
    }
}
