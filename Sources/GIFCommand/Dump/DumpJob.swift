import GIF
import Playback

/// The work of `gif dump`: decodes the frames in order and writes the
/// selected ones, keeping what was written when a frame fails.
struct DumpJob {
    /// What was written, in one line, and the error that stopped it.
    struct Outcome {
        var summary: String
        var error: GIFError?
    }

    let image: GIFImage
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
        let size = image.info.canvasSize
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

    mutating func run() throws(CommandFailure) -> Outcome {
        format == .nia ? try writeNIA() : try writeImages()
    }

    /// One PPM or PAM per selected frame, each written as soon as it is
    /// composited, through one reused buffer; a frame file appears under its
    /// name only once whole.
    private func writeImages() throws(CommandFailure) -> Outcome {
        let count = image.info.frameCount
        let wanted = selection?.count(in: count) ?? count
        let digits = max(3, String(max(count - 1, 0)).count)
        var progress = ProgressBar(total: wanted, label: "frames")
        // Decoding ahead pays only when several frames are wanted.
        var iterator = image.makeFrameIterator(parallel: wanted > 1)
        let standardOutput = directory == nil ? OutputSink.standardOutput : nil
        var buffer: [UInt8] = []
        var names: (first: String, last: String)?
        var written = 0
        var partial = false
        var failure: GIFError?
        while selection == nil || written < wanted {
            let frame: CompositedFrame
            do {
                guard let next = try iterator.next() else { break }
                frame = next
            } catch {
                failure = error
                break
            }
            guard selection?.contains(frame.index) ?? true else { continue }
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
                let write = { (bytes: [UInt8]) throws(CommandFailure) in try sink.write(bytes) }
                if format == .ppm {
                    try PNMWriter.writePPM(still, background: background, buffer: &buffer, to: write)
                } else {
                    try PNMWriter.writePAM(still, buffer: &buffer, to: write)
                }
                if standardOutput == nil { try sink.commit() }
            } catch {
                throw Self.failure(error, written: written, of: wanted)
            }
            names = (names?.first ?? name, name)
            written += 1
            partial = !frame.isComplete
            progress.update(written)
        }
        if partial, failure == nil {
            // The last selected frame was partial: the iterator reports its
            // error on the next call.
            do { _ = try iterator.next() } catch { failure = error }
        }
        progress.finish()

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
        return Outcome(summary: summary, error: failure)
    }

    /// The whole animation as one NIA stream, each frame written as soon as
    /// it is composited, through one reused buffer: memory stays one canvas
    /// and one frame's bytes whatever the number of frames. A file appears
    /// under its name only once whole (footer included).
    private func writeNIA() throws(CommandFailure) -> Outcome {
        var writer = NIAWriter(canvasSize: image.info.canvasSize)
        let count = image.info.frameCount
        var progress = ProgressBar(total: count, label: "frames")
        let path = directory.map { $0 + "/" + baseName + ".nia" }
        let sink = try path.map { path throws(CommandFailure) in try OutputSink.file(path) } ?? .standardOutput
        var buffer: [UInt8] = []
        // Frames are written in parts of about 1 MiB (NIAWriter.writeFrame).
        buffer.reserveCapacity(min(NIAWriter.frameByteCount(image.info.canvasSize), 1 << 20) + 64)
        var written = 0
        func flush() throws(CommandFailure) {
            do {
                try sink.write(buffer)
            } catch {
                throw Self.failure(error, written: written, of: count)
            }
            buffer.removeAll(keepingCapacity: true)
        }
        writer.appendHeader(to: &buffer)
        var iterator = image.makeFrameIterator(parallel: true)
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
            do {
                try writer.writeFrame(frame, buffer: &buffer, to: { (bytes: [UInt8]) throws(CommandFailure) in try sink.write(bytes) })
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

        var summary = "wrote \(written)"
        if written < count { summary += " of \(count)" }
        summary += " frame\(count == 1 ? "" : "s") as NIA (\(canvas), \(sink.bytesWritten) bytes) to \(path ?? "standard output")"
        if partial { summary += " (the last one partial)" }
        if let failure { summary += Self.stopped(by: failure) }
        return Outcome(summary: summary, error: failure)
    }

    /// An output failure, with how many frames were written whole before it:
    /// "No space left on device (after 65536 bytes); 2 of 10 frames written".
    private static func failure(_ failure: CommandFailure, written: Int, of total: Int) -> CommandFailure {
        var result = failure
        result.message += "; \(written) of \(total) frame\(total == 1 ? "" : "s") written"
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
