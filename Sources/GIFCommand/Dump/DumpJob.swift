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

    /// One PPM or PAM per selected frame.
    private func writeImages() throws(CommandFailure) -> Outcome {
        let count = image.info.frameCount
        let wanted = selection?.count(in: count) ?? count
        let digits = max(3, String(max(count - 1, 0)).count)
        var progress = ProgressBar(total: wanted, label: "frames")
        var iterator = image.makeFrameIterator()
        var names: [String] = []
        var partial = false
        var failure: GIFError?
        while selection == nil || names.count < wanted {
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
            let bytes = format == .ppm ? PNMWriter.ppm(still, background: background) : PNMWriter.pam(still)
            let name = "frame-" + zeroPadded(frame.index, digits) + "." + format.rawValue
            if let directory {
                try OutputFile.save(bytes, to: directory + "/" + name)
            } else {
                try StandardStreams.output(bytes)
            }
            names.append(name)
            partial = !frame.isComplete
            progress.update(names.count)
        }
        if partial, failure == nil {
            // The last selected frame was partial: the iterator reports its
            // error on the next call.
            do { _ = try iterator.next() } catch { failure = error }
        }
        progress.finish()

        var summary = "wrote \(names.count)"
        if names.count < wanted { summary += " of \(wanted)" }
        summary += " frame\(wanted == 1 ? "" : "s") as \(format.name) (\(canvas)) to "
        if let directory {
            switch names.count {
            case 0: summary += directory
            case 1: summary += directory + "/" + names[0]
            default: summary += "\(directory): \(names[0]) … \(names[names.count - 1])"
            }
        } else {
            summary += "standard output"
        }
        if partial { summary += " (the last one partial)" }
        if let failure { summary += Self.stopped(by: failure) }
        return Outcome(summary: summary, error: failure)
    }

    /// The whole animation as one NIA stream, written frame by frame.
    private func writeNIA() throws(CommandFailure) -> Outcome {
        var writer = NIAWriter(canvasSize: image.info.canvasSize)
        var progress = ProgressBar(total: image.info.frameCount, label: "frames")
        let path = directory.map { $0 + "/" + baseName + ".nia" }
        var buffered: [UInt8] = []
        var size = 0
        func emit(_ bytes: [UInt8]) throws(CommandFailure) {
            size += bytes.count
            if path == nil { try StandardStreams.output(bytes) } else { buffered += bytes }
        }
        try emit(writer.header())
        var iterator = image.makeFrameIterator()
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
            try emit(writer.frame(frame))
            partial = !frame.isComplete
            progress.update(writer.framesWritten)
        }
        try emit(writer.footer())
        if let path { try OutputFile.save(buffered, to: path) }
        progress.finish()

        let count = image.info.frameCount
        var summary = "wrote \(writer.framesWritten)"
        if writer.framesWritten < count { summary += " of \(count)" }
        summary += " frame\(count == 1 ? "" : "s") as NIA (\(canvas), \(size) bytes) to \(path ?? "standard output")"
        if partial { summary += " (the last one partial)" }
        if let failure { summary += Self.stopped(by: failure) }
        return Outcome(summary: summary, error: failure)
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
