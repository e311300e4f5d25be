import GIF

/// What `gif dump` was asked to do, and doing it: the ``GIFTool/Dump``
/// command's options as a plain value.
///
/// It is separate from the command so that the common command lines can run
/// without ArgumentParser (``init(quickArguments:)``): parsing a command line
/// through ArgumentParser costs about 13 million instructions of runtime
/// type lookups, six times the whole of a small GIF's dump in C.
struct DumpRequest: Equatable {
    /// The GIF file, or `-` for standard input.
    var file: String
    /// A directory, or `-` for standard output.
    var output = "."
    var format: DumpFormat = .ppm
    var frames: FrameSelection?
    var maxSize: Int?
    var background: HexColor?

    /// Why these options do not go together, or `nil` when they do.
    var problem: String? {
        if format == .nia, frames != nil {
            return "--frames does not apply to NIA, which holds the whole animation"
        }
        if let maxSize, maxSize < 1 { return "--max-size must be at least 1" }
        if format == .nia, maxSize != nil {
            return "--max-size does not apply to NIA, which keeps the canvas size"
        }
        if format != .ppm, background != nil {
            return "--background applies to PPM only; \(format.name) keeps the alpha channel"
        }
        return nil
    }

    /// Writes the frames and the summary line.
    func run() throws(CommandFailure) {
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
            let image = try openGIF(file)
            let count = image.info.frameCount
            if let frames, frames.last >= count {
                throw CommandFailure(
                    file: file, message: GIFError(.frameOutOfRange(frames.last, count: count)).reason)
            }
            do throws(GIFError) {
                try DumpJob.checkOutputBudget(
                    image, format: format, selection: frames, maxSize: maxSize, toDirectory: !toStandardOutput)
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
