import ArgumentParser
import GIF
import GIFPlayback
import Playback

extension GIFTool {
    /// `gif dump FILE [-o DIR|-] [--format ppm|pam|png|nia] [--frames …]
    /// [--background RRGGBB]`: writes composited frames.
    struct Dump: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write a GIF's composited frames as PPM, PAM, PNG or NIA.",
            discussion: """
                Every frame is the whole canvas as it is shown, after the frames before it \
                and their disposal. PPM, PAM and PNG write one file per frame, named \
                frame-000.ppm, frame-001.ppm, … (zero-padded to the largest index); NIA \
                writes the whole animation as one stream, NAME.nia. With -o -, the frames \
                go to standard output (PPM, PAM and PNG frames concatenated, each PNG \
                ending with its IEND chunk) and the summary line to standard error. Each frame is written as soon as it is composited; \
                a file appears under its name only once whole (it is written under a \
                temporary name and renamed), so a failure never leaves a truncated file. \
                FILE may be - for standard input, read as it arrives: each frame is written \
                as soon as its data is in (curl -s URL | gif dump - -o frames). Its frame \
                count is known only at the end, so its file names are padded to 3 digits \
                (frame-1000.ppm after frame-999.ppm), and a --frames index past its last \
                frame is reported once it ends, after the frames selected before it.

                PPM has no alpha: transparent pixels show the --background colour \
                (default FFFFFF, white). PAM keeps the alpha channel, and so does PNG \
                (written with libpng, unfiltered, zlib level 6; as RGB when every pixel of \
                the frame is opaque).

                When a frame fails to decode, the frames before it are written (and the \
                failing frame's decoded rows, as browsers show them), the summary says how \
                many, the error is reported, and the exit status is 1.

                Examples:
                  $ gif dump cat.gif -o frames
                  wrote 12 frames as PPM (100x100) to frames: frame-000.ppm … frame-011.ppm
                  $ gif dump cat.gif -o frames --format pam --frames 0,3,5-9
                  $ gif dump cat.gif --frames 0 --format png -o - > first.png
                  $ gif dump cat.gif --frames 0 --background 000000 -o - > first.ppm
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

        /// The options as a plain value, which also runs without
        /// ArgumentParser (``DumpRequest/init(quickArguments:)``).
        var request: DumpRequest {
            DumpRequest(
                file: file, output: output, format: format, frames: frames, maxSize: maxSize,
                background: background)
        }

        func validate() throws {
            if let problem = request.problem { throw ValidationError(problem) }
        }

        func run() throws {
            try reportingFailures { () throws(CommandFailure) in try request.run() }
        }
    }
}
