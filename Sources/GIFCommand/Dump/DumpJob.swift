import GIF
import Playback

/// The work of `gif dump`: decodes the frames in order and writes the
/// selected ones, keeping what was written when a frame fails.
///
/// The frames come from a ``FrameSupply``: a whole file, whose frame count
/// is known up front, or standard input read as it arrives, where each frame
/// is written as soon as its data is in and the count is known only at the
/// end. For a stream, PPM and PAM names are padded to 3 digits (growing past
/// 999: `frame-1000.ppm`), the progress line counts frames without a bar,
/// the output budget is checked before each frame, and a `--frames` index
/// past the last frame is reported at the end, after the frames selected
/// before it were written; reading stops once the last selected frame is
/// written.
struct DumpJob {
    /// What was written, in one line, and the error that stopped it.
    struct Outcome {
        var summary: String
        var error: GIFError?
    }

    /// The canvas every frame is written at (before ``maxSize``).
    let canvasSize: PixelSize
    /// The number of frames, or `nil` while a stream is still arriving.
    let frameCount: Int?
    /// The input's limits (the output budget).
    let limits: DecodingLimits
    let format: DumpFormat
    let selection: FrameSelection?
    let background: PNMWriter.Background
    /// Frames are scaled down to fit this many pixels square (``Poster``).
    let maxSize: Int?
    /// Where files go; `nil` for standard output.
    let directory: String?
    /// The input's name without extension, for the NIA file.
    let baseName: String

    private var canvas: String {
        let size = canvasSize
        guard let maxSize else { return size.description }
        let scaled = Poster.fit(width: size.width, height: size.height, maxWidth: maxSize, maxHeight: maxSize)
        guard scaled != (size.width, size.height) else { return size.description }
        return "\(scaled.width)x\(scaled.height) from \(size)"
    }

    /// `frame`, scaled down to ``maxSize`` by the poster box filter.
    private func scaled(_ frame: CompositedFrame) -> CompositedFrame {
        guard let maxSize else { return frame }
        let full = RenderedFrame(index: frame.index, width: frame.size.width, height: frame.size.height, pixels: frame.pixels)
        let still = Poster.downscale(full, maxWidth: maxSize, maxHeight: maxSize)
        var result = frame
        result.size = PixelSize(width: still.width, height: still.height)
        result.pixels = still.pixels
        return result
    }

    /// Writes the frames of a whole file.
    mutating func run(image: GIFImage) throws(CommandFailure) -> Outcome {
        let count = image.info.frameCount
        let wanted = selection?.count(in: count) ?? count
        // Decoding ahead pays only when several frames are wanted. Each
        // format's frames are composited in the layout it stores (NIA's
        // BGRA, PPM's RGB over the background, PAM's and PNG's RGBA) and
        // written from the canvas as they stand; a frame scaled to
        // --max-size is RGBA.
        let parallel = format == .nia || wanted > 1
        var frames = switch format {
        case .nia: image.makeFrameIterator(parallel: parallel, pixelFormat: .premultipliedBGRA8)
        case .ppm where maxSize == nil: image.makeFrameIterator(parallel: parallel, background: background)
        case .ppm, .pam, .png: image.makeFrameIterator(parallel: parallel)
        }
        // The writers write whole canvases: the changed rectangle is not read.
        frames.narrowsChangedRect = false
        return format == .nia ? try writeNIA(&frames) : try writeImages(&frames)
    }

    /// Writes the frames of standard input as they arrive.
    mutating func run(stream: inout StandardInputGIF) throws(CommandFailure) -> Outcome {
        format == .nia ? try writeNIA(&stream) : try writeImages(&stream)
    }

    /// One PPM, PAM or PNG per selected frame, each written as soon as it
    /// is composited, through one reused buffer (a PNG's rows are handed to
    /// libpng from the canvas); a frame file appears under its name only
    /// once whole. To standard output the frames are concatenated, PNGs as
    /// the Netpbm ones (each PNG ends with its own IEND chunk).
    private func writeImages(_ iterator: inout some FrameSupply) throws(CommandFailure) -> Outcome {
        let known = frameCount.map { count in (count: count, wanted: selection?.count(in: count) ?? count) }
        let digits = max(3, String(max((frameCount ?? 0) - 1, 0)).count)
        var progress = ProgressBar(total: known?.wanted, label: "frames")
        let frameBytes = Self.bytesPerFrame(canvasSize, format: format, maxSize: maxSize)
        let standardOutput = directory == nil ? OutputSink.standardOutput : nil
        var buffer: [UInt8] = []
        let png = format == .png ? PNGWriter() : nil
        var names: (first: String, last: String)?
        var written = 0
        var partial = false
        var failure: GIFError?
        var selectionDone = false
        while true {
            if let known, selection != nil, written >= known.wanted { break }
            let frame: CompositedFrame
            do {
                guard let next = try iterator.next() else { break }
                frame = next
            } catch {
                failure = error
                break
            }
            guard selection?.contains(frame.index) ?? true else { continue }
            if known == nil {
                // A stream: the budgets are checked as the frames come.
                do throws(GIFError) {
                    try limits.checkOutput(frames: written + 1, bytesPerFrame: frameBytes)
                    if standardOutput == nil { try limits.checkOutputFiles(written + 1) }
                } catch {
                    failure = error
                    break
                }
            }
            let still = scaled(frame)
            let name = "frame-" + zeroPadded(frame.index, digits) + "." + format.rawValue
            do throws(CommandFailure) {
                // Written in parts through one reused buffer, so that a large
                // canvas's image is never held whole beside the canvas.
                let sink: OutputSink
                if let standardOutput {
                    sink = standardOutput
                } else {
                    sink = try OutputSink.file((directory ?? ".") + "/" + name)
                }
                // Closures passed inline stay non-escaping: no context to
                // allocate per frame.
                if let png {
                    try png.write(
                        width: still.size.width, height: still.size.height, pixels: still.pixels,
                        bytesPerRow: still.size.width * 4, to: sink)
                } else if format == .ppm {
                    try PNMWriter.writePPM(still, background: background, buffer: &buffer) {
                        (bytes: [UInt8]) throws(CommandFailure) in try sink.write(bytes)
                    }
                } else {
                    try PNMWriter.writePAM(still, buffer: &buffer) {
                        (bytes: [UInt8]) throws(CommandFailure) in try sink.write(bytes)
                    }
                }
                if standardOutput == nil { try sink.commit() }
            } catch {
                throw Self.failure(error, written: written, of: known?.wanted)
            }
            names = (names?.first ?? name, name)
            written += 1
            partial = !frame.isComplete
            progress.update(written)
            if known == nil, let selection, frame.index >= selection.last {
                selectionDone = true
                break
            }
        }
        if partial, failure == nil {
            // The last selected frame was partial: the iterator reports its
            // error on the next call.
            do { _ = try iterator.next() } catch { failure = error }
        }
        progress.finish()

        let wanted: Int
        // A stream's --frames past its last frame, reported after the summary.
        var outOfRange: GIFError?
        if let known {
            wanted = known.wanted
        } else if selectionDone {
            wanted = written
        } else {
            // The stream's end: its frame count, as a whole file's.
            let count = iterator.totalFrameCount()
            wanted = selection?.count(in: count) ?? count
            if let selection, selection.last >= count {
                outOfRange = GIFError(.frameOutOfRange(selection.last, count: count))
            }
        }
        var summary = "wrote \(written)"
        if written < wanted { summary += " of \(wanted)" }
        summary += " frame\(wanted == 1 ? "" : "s") as \(format.name) (\(canvas)) to "
        if let directory {
            switch (written, names) {
            case (1, let names?): summary += directory + "/" + names.first
            case (_, let names?): summary += "\(directory): \(names.first) … \(names.last)"
            case (_, nil): summary += directory
            }
        } else {
            summary += "standard output"
        }
        if partial { summary += " (the last one partial)" }
        if let failure { summary += Self.stopped(by: failure) }
        return Outcome(summary: summary, error: failure ?? outOfRange)
    }

    /// The whole animation as one NIA stream, each frame written as soon as
    /// it is composited, through one reused buffer: memory stays one canvas
    /// and one frame's bytes whatever the number of frames. A file appears
    /// under its name only once whole (footer included).
    private func writeNIA(_ iterator: inout some FrameSupply) throws(CommandFailure) -> Outcome {
        var writer = NIAWriter(canvasSize: canvasSize)
        let count = frameCount
        var progress = ProgressBar(total: count, label: "frames")
        let path = directory.map { $0 + "/" + baseName + ".nia" }
        let sink = try path.map { path throws(CommandFailure) in try OutputSink.file(path) } ?? .standardOutput
        var gathering = GatheringWriter(sink: sink)
        var buffer: [UInt8] = []
        // Frames are written in parts of about 1 MiB (NIAWriter.writeFrame).
        buffer.reserveCapacity(min(NIAWriter.frameByteCount(canvasSize), 1 << 20) + 64)
        var written = 0
        func flush() throws(CommandFailure) {
            do {
                try sink.write(buffer)
            } catch {
                throw Self.failure(error, written: written, of: count)
            }
            buffer.removeAll(keepingCapacity: true)
        }
        let frameBytes = NIAWriter.frameByteCount(canvasSize)
        writer.appendHeader(to: &buffer)
        var failure: GIFError?
        var partial = false
        while true {
            let frame: CompositedFrame?
            do {
                frame = try iterator.next()
            } catch {
                failure = error
                break
            }
            guard let frame else { break }
            if count == nil {
                // A stream: the budget is checked as the frames come.
                do throws(GIFError) {
                    try limits.checkOutput(frames: written + 1, bytesPerFrame: frameBytes)
                } catch {
                    failure = error
                    break
                }
            }
            do {
                // The frame's header goes out with its pixels; a frame is
                // written whole before the next is decoded.
                try writer.writeFrame(frame, buffer: &buffer, to: { (bytes: [UInt8]) throws(CommandFailure) in
                    try gathering.write(bytes)
                })
                try gathering.flush()
            } catch {
                throw Self.failure(error, written: written, of: count)
            }
            written += 1
            partial = !frame.isComplete
            progress.update(written)
        }
        writer.appendFooter(to: &buffer)
        try flush()
        do {
            try sink.commit()
        } catch {
            throw Self.failure(error, written: written, of: count)
        }
        progress.finish()

        let total = count ?? iterator.totalFrameCount()
        var summary = "wrote \(written)"
        if written < total { summary += " of \(total)" }
        summary += " frame\(total == 1 ? "" : "s") as NIA (\(canvas), \(sink.bytesWritten) bytes) to \(path ?? "standard output")"
        if partial { summary += " (the last one partial)" }
        if let failure { summary += Self.stopped(by: failure) }
        return Outcome(summary: summary, error: failure)
    }

    /// An output failure, with how many frames were written whole before it:
    /// "No space left on device (after 65536 bytes); 2 of 10 frames written"
    /// ("; 2 frames written" while a stream's count is unknown).
    private static func failure(_ failure: CommandFailure, written: Int, of total: Int?) -> CommandFailure {
        var result = failure
        if let total {
            result.message += "; \(written) of \(total) frame\(total == 1 ? "" : "s") written"
        } else {
            result.message += "; \(written) frame\(written == 1 ? "" : "s") written"
        }
        return result
    }

    /// "; stopped by an error at frame 2, byte 697".
    private static func stopped(by failure: GIFError) -> String {
        "; stopped by an error" + (failure.location.isEmpty ? "" : " at \(failure.location)")
    }

    private func zeroPadded(_ value: Int, _ digits: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
