import ArgumentParser
import GIF
import GIFLibBaseline

extension GIFTool {
    /// `gif bench FILE... [--iterations N] [--json]`: times the scanner and
    /// the decoder against giflib's `DGifSlurp` on the same bytes.
    struct Bench: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Time scanning and decoding, against giflib's DGifSlurp on the same bytes.",
            discussion: """
                For each file, after one warm-up pass, runs N iterations of: the scan \
                (block structure only), the decode and composite of every frame, and \
                giflib's own DGifSlurp (parse and LZW, no compositing) on the same bytes \
                in the same process. Times are medians. Frames per second and megapixels \
                per second count composited canvases. "vs giflib" is (scan + decode) / \
                DGifSlurp: 1.0x means as fast as giflib alone. Peak memory is the \
                process's maximum resident set size so far (getrusage ru_maxrss).

                Exit status: 1 when any file cannot be read or fails to decode.

                Example:
                  $ gif bench cat.gif dog.gif --iterations 20
                  $ gif bench cat.gif --json | jq '.[0].ratioToGiflib'
                """
        )

        @Argument(help: "The GIF files to measure.", completion: .file())
        var files: [String]

        @Option(help: "Timed runs per measurement (the median is reported).")
        var iterations = 5

        @Flag(help: "Print JSON (an array, sorted keys) instead of text.")
        var json = false

        func validate() throws {
            guard iterations >= 1 else { throw ValidationError("--iterations must be at least 1") }
        }

        func run() throws {
            #if DEBUG
            StandardStreams.error("gif bench: this is a debug build; build with -c release for real figures")
            #endif
            var reports: [BenchReport] = []
            var failed = false
            for file in files {
                do {
                    reports.append(try measure(file))
                } catch {
                    error.report()
                    failed = true
                }
            }
            try reportingFailures { () throws(CommandFailure) in
                try StandardStreams.output(
                    json ? JSONOutput.text(reports) + "\n" : reports.map(\.text).joined(separator: "\n"))
            }
            if failed { throw ExitCode.failure }
        }

        private func measure(_ file: String) throws(CommandFailure) -> BenchReport {
            let image = try openImage(file)
            if let error = Info.decodeAll(image) { throw CommandFailure(file: file, error: error) }
            let bytes = image.bytes
            let scan = Self.median(iterations) { _ = try? GIFImage(bytes: bytes) }
            let decode = Self.median(iterations) { _ = Info.decodeAll(image) }
            var slurpError: GIFError?
            var slurp: Duration?
            do {
                _ = try GIFLibReference.slurp(bytes)
                slurp = Self.median(iterations) { _ = try? GIFLibReference.slurp(bytes) }
            } catch {
                slurpError = error
            }
            return BenchReport(
                file: file, image: image, iterations: iterations, scan: scan, decode: decode,
                slurp: slurp, slurpError: slurpError, peakMemoryBytes: ResourceUsage.peakResidentBytes)
        }

        /// The median wall-clock time of `count` runs of `body`.
        static func median(_ count: Int, _ body: () -> Void) -> Duration {
            let clock = ContinuousClock()
            let times = (0..<count).map { _ in clock.measure(body) }.sorted()
            return count % 2 == 1 ? times[count / 2] : (times[count / 2 - 1] + times[count / 2]) / 2
        }
    }
}
