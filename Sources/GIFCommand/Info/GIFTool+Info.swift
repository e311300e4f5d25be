import ArgumentParser
import GIF

extension GIFTool {
    /// `gif info FILE [--json]`: what the scanner found, a per-frame table and
    /// any decode error.
    struct Info: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show a GIF's structure, timing, loop count and frame table.",
            discussion: """
                Scans the file's blocks, then decodes every frame to find LZW errors. \
                Delays are shown raw (centiseconds, as stored) and as browsers show them \
                (0 or 1 cs become 100 ms). Loop count: "stored" is the NETSCAPE2.0 value, \
                "plays" the number of times browsers play the animation (null = forever).

                --json writes the same facts as JSON with sorted keys; absent values are null.

                Exit status: 0 when the file decodes cleanly; 1 when it cannot be read, \
                is not a GIF, or fails to decode (the report is still printed, with the error), \
                or when the report cannot be written (a full disk, /dev/full).

                FILE may be - for standard input, a pipe or a FIFO; a FIFO that no one opens \
                for writing, or whose writer sends nothing, fails after 10 seconds. Standard \
                input is read and decoded as it arrives; the report is printed when it ends.

                Example:
                  $ gif info cat.gif
                  $ gif info cat.gif --json | jq '.frames[0].delayMilliseconds'
                """
        )

        @Argument(help: "The GIF file to inspect, or - for standard input.", completion: .file())
        var file: String

        @Flag(help: "Print JSON (sorted keys) instead of text.")
        var json = false

        func run() throws {
            try reportingFailures { () throws(CommandFailure) in
                let report: InfoReport
                if file == "-" {
                    var stream = StandardInputGIF()
                    let (image, decodeError) = try Self.readAll(&stream)
                    report = InfoReport(file: file, image: image, decodeError: decodeError)
                } else {
                    let image = try openImage(file)
                    report = InfoReport(file: file, image: image, decodeError: Self.decodeAll(image, parallel: true))
                }
                try StandardStreams.output(json ? JSONOutput.text(report) + "\n" : report.text)
                if let error = report.decodeError {
                    throw CommandFailure(file: file, message: error.message)
                }
            }
        }

        /// Reads standard input to its end, decoding each frame as it
        /// arrives: the whole input (the report needs all of it, its bytes
        /// held once) and the first decode error, as ``decodeAll(_:parallel:)``
        /// gives for the same bytes in a file.
        static func readAll(_ stream: inout StandardInputGIF) throws(CommandFailure) -> (GIFImage, GIFError?) {
            var decodeError: GIFError?
            do {
                while try stream.nextFrame() != nil {}
            } catch {
                decodeError = error
                stream.readToEnd()
            }
            // What would have failed opening a file fails here: no report.
            if let readError = stream.readError { throw CommandFailure(file: "-", error: readError) }
            guard let image = stream.gif.image else {
                throw CommandFailure(file: "-", error: decodeError ?? GIFError(.notAGIF(.unknown), byteOffset: 0))
            }
            return (image, decodeError)
        }

        /// Decodes and composites every frame (decoding ahead on other
        /// threads when `parallel` and worth it); returns the first error.
        static func decodeAll(_ image: GIFImage, parallel: Bool = false) -> GIFError? {
            var frames = image.makeFrameIterator(parallel: parallel)
            do {
                while try frames.next() != nil {}
                return nil
            } catch {
                return error
            }
        }
    }
}
