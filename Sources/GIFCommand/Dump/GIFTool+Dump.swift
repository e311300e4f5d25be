import ArgumentParser
import GIF
import GIFPlayback
import Playback

extension GIFTool {
    /// `gif dump FILE [-o DIR|-] [--format ppm|pam|nia] [--frames …]
    /// [--background RRGGBB]`: writes composited frames.
    struct Dump: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write a GIF's composited frames as PPM, PAM or NIA.",
            discussion: """
                Every frame is the whole canvas as it is shown, after the frames before it \
                and their disposal. PPM and PAM write one file per frame, named \
                frame-000.ppm, frame-001.ppm, … (zero-padded to the largest index); NIA \
                writes the whole animation as one stream, NAME.nia. With -o -, the frames \
                go to standard output (PPM and PAM frames concatenated) and the summary \
                line to standard error. Each frame is written as soon as it is composited; \
                a file appears under its name only once whole (it is written under a \
                temporary name and renamed), so a failure never leaves a truncated file. \
                FILE may be - for standard input, read as it arrives: each frame is written \
                as soon as its data is in (curl -s URL | gif dump - -o frames). Its frame \
                count is known only at the end, so its file names are padded to 3 digits \
                (frame-1000.ppm after frame-999.ppm), and a --frames index past its last \
                frame is reported once it ends, after the frames selected before it.

                PPM has no alpha: transparent pixels show the --background colour \
                (default FFFFFF, white). PAM keeps the alpha channel.

                When a frame fails to decode, the frames before it are written (and the \
                failing frame's decoded rows, as browsers show them), the summary says how \
                many, the error is reported, and the exit status is 1.

                Examples:
                  $ gif dump cat.gif -o frames
                  wrote 12 frames as PPM (100x100) to frames: frame-000.ppm … frame-011.ppm
                  $ gif dump cat.gif -o frames --format pam --frames 0,3,5-9
                  $ gif dump cat.gif --frames 0 --background 000000 -o - | pnmtopng > first.png
                  $ gif dump cat.gif --format nia -o - | crc32 /dev/stdin
                  $ gif dump cat.gif --frames 0 --max-size 128 -o poster

                With --max-size N, each frame is scaled down to fit N × N (aspect ratio \
                kept, never scaled up) by averaging pixel areas: the poster frame a feed \
                shows for a GIF that is not playing. Only the frames up to the last one \
                selected are decoded.
                """
        )

        @Argument(help: "The GIF file to dump, or - for standard input.", completion: .file())
        var file: String

        @Option(
            name: .shortAndLong,
            help: ArgumentHelp("A directory (created if missing), or - for standard output.", valueName: "dir|-"))
        var output = "."

        @Option(help: "The output format.")
        var format: DumpFormat = .ppm

        @Option(help: ArgumentHelp("Frames to write, from 0: indices and ranges, e.g. 0,3,5-9.", valueName: "list"))
        var frames: FrameSelection?

        @Option(help: ArgumentHelp("Scale each frame down to fit N × N pixels (box filter).", valueName: "N"))
        var maxSize: Int?

        @Option(help: ArgumentHelp(
            "PPM only: the colour shown behind transparent pixels (default FFFFFF).", valueName: "RRGGBB"))
        var background: HexColor?

        func validate() throws {
            if format == .nia, frames != nil {
                throw ValidationError("--frames does not apply to NIA, which holds the whole animation")
            }
            if let maxSize, maxSize < 1 { throw ValidationError("--max-size must be at least 1") }
            if format == .nia, maxSize != nil {
                throw ValidationError("--max-size does not apply to NIA, which keeps the canvas size")
            }
            if format != .ppm, background != nil {
                throw ValidationError("--background applies to PPM only; \(format.name) keeps the alpha channel")
            }
        }

        func run() throws {
            try reportingFailures { () throws(CommandFailure) in
                let toStandardOutput = output == "-"
                let outcome: DumpJob.Outcome
                if file == "-" {
                    // Standard input: each frame is written as soon as its
                    // data is in; the frame count is known at the end.
                    var stream = StandardInputGIF()
                    let canvas: PixelSize
                    do throws(GIFError) {
                        canvas = try stream.waitForCanvas()
                    } catch {
                        throw CommandFailure(file: file, error: error)
                    }
                    if !toStandardOutput { try OutputSink.makeDirectory(output) }
                    var job = makeJob(canvas: canvas, frameCount: nil, limits: stream.limits)
                    outcome = try job.run(stream: &stream)
                } else {
                    let image = try openImage(file)
                    let count = image.info.frameCount
                    if let frames, frames.last >= count {
                        throw CommandFailure(
                            file: file, message: GIFError(.frameOutOfRange(frames.last, count: count)).reason)
                    }
                    do throws(GIFError) {
                        try DumpJob.checkOutputBudget(image, format: format, selection: frames, maxSize: maxSize)
                    } catch {
                        throw CommandFailure(file: file, error: error)
                    }
                    if !toStandardOutput { try OutputSink.makeDirectory(output) }
                    var job = makeJob(canvas: image.info.canvasSize, frameCount: count, limits: image.limits)
                    outcome = try job.run(image: image)
                }
                if toStandardOutput {
                    StandardStreams.error(outcome.summary)
                } else {
                    try StandardStreams.output(outcome.summary + "\n")
                }
                if let error = outcome.error { throw CommandFailure(file: file, error: error) }
            }
        }

        /// The job for this command line, over a canvas of `canvas` and
        /// `frameCount` frames (`nil` for a stream still arriving).
        private func makeJob(canvas: PixelSize, frameCount: Int?, limits: DecodingLimits) -> DumpJob {
            DumpJob(
                canvasSize: canvas, frameCount: frameCount, limits: limits, format: format, selection: frames,
                background: background?.background ?? .white, maxSize: maxSize,
                directory: output == "-" ? nil : output, baseName: Self.baseName(of: file))
        }

        /// The file name without directory and extension: `cat` for `a/cat.gif`,
        /// `stdin` for standard input (`-`).
        static func baseName(of path: String) -> String {
            guard path != "-" else { return "stdin" }
            let name = path.split(separator: "/").last.map(String.init) ?? path
            guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
            return String(name[..<dot])
        }
    }
}
