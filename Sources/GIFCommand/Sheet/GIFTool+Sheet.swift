import ArgumentParser
import GIF

extension GIFTool {
    /// `gif sheet FILE -o SHEET.png [--cell N] [--columns N] [--max-width W]
    /// [--max-height H]`: a contact sheet of the composited frames.
    struct Sheet: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write a PNG contact sheet of a GIF's frames, each labelled with its index and delay.",
            discussion: """
                Each frame is composited as gif dump writes it, scaled down to fit --cell \
                pixels square (aspect ratio kept, never scaled up; every output pixel the exact \
                area mean of the pixels it covers) and drawn in a grid, left to right and top to \
                bottom, with a label under it: "#12 100ms" is frame 12, shown for 100 ms. \
                Transparent pixels stay transparent; the rest of the sheet is dark grey.

                The columns are as many as fit --max-width (no more than there are frames), \
                or --columns. When the rows would pass --max-height, every Nth frame is taken \
                (0, N, 2N, …), N the smallest that fits; the summary says N. Cells are 4 pixels \
                apart and from the edges. A sheet has at most 67,108,864 pixels.

                Frames are drawn as they are decoded and not kept: memory is the sheet and one \
                canvas. When a frame fails to decode, the sheet holds the frames before it (and \
                the failing frame's decoded rows), is written, and the exit status is 1.

                Examples:
                  $ gif sheet cat.gif -o sheet.png
                  wrote sheet.png (760x138): 7 frames at 100x100 in 7 columns
                  $ gif sheet long.gif -o sheet.png --cell 64 --max-width 800 --max-height 600
                  $ gif sheet cat.gif --columns 4 -o - | display
                """
        )

        @Argument(help: "The GIF file, or - for standard input.", completion: .file())
        var file: String

        @Option(name: .shortAndLong, help: ArgumentHelp("The PNG to write, or - for standard output.", valueName: "file|-"))
        var output: String

        @Option(help: ArgumentHelp("Scale each frame down to fit N × N pixels.", valueName: "N"))
        var cell = 160

        @Option(help: ArgumentHelp("The number of columns (default: as many as fit --max-width).", valueName: "N"))
        var columns: Int?

        @Option(help: ArgumentHelp("The widest sheet, in pixels.", valueName: "W"))
        var maxWidth = 1600

        @Option(help: ArgumentHelp("The tallest sheet, in pixels: every Nth frame is taken to fit.", valueName: "H"))
        var maxHeight = 1600

        func validate() throws {
            if !(1...8192).contains(cell) { throw ValidationError("--cell must be 1 to 8192") }
            if let columns, !(1...65_536).contains(columns) {
                throw ValidationError("--columns must be 1 to 65536")
            }
            for (name, value) in [("--max-width", maxWidth), ("--max-height", maxHeight)]
            where !(1...1 << 20).contains(value) {
                throw ValidationError("\(name) must be 1 to 1048576")
            }
        }

        func run() throws {
            try reportingFailures { () throws(CommandFailure) in try write() }
        }

        private func write() throws(CommandFailure) {
            let image = try openImage(file)
            let canvas = image.info.canvasSize
            let layout: SheetLayout
            do throws(SheetError) {
                layout = try SheetLayout(
                    canvas: canvas, frameCount: image.info.frameCount, cellSize: cell, columns: columns,
                    maxWidth: maxWidth, maxHeight: maxHeight)
            } catch {
                throw CommandFailure(file: file, message: error.description)
            }
            let (pixels, drawn, failure) = SheetJob(layout: layout, canvas: canvas).draw(image)
            let toStandardOutput = output == "-"
            let sink = toStandardOutput ? OutputSink.standardOutput : try OutputSink.file(output)
            try PNGWriter().write(
                width: layout.width, height: layout.height, pixels: pixels, bytesPerRow: layout.width * 4, to: sink)
            try sink.commit()

            var summary = "wrote \(sink.name) (\(layout.width)x\(layout.height)): "
            summary += drawn < layout.frameCount ? "\(drawn) of \(layout.frameCount)" : "\(drawn)"
            summary += " frame\(layout.frameCount == 1 ? "" : "s")"
            if layout.step > 1 { summary += ", one in \(layout.step)," }
            let scaled = "\(layout.imageWidth)x\(layout.imageHeight)"
            summary += " at " + (scaled == canvas.description ? scaled : "\(scaled) from \(canvas)")
            summary += " in \(layout.columns) column" + (layout.columns == 1 ? "" : "s")
            if let failure {
                summary += "; stopped by an error" + (failure.location.isEmpty ? "" : " at \(failure.location)")
            }
            if toStandardOutput {
                StandardStreams.error(summary)
            } else {
                try StandardStreams.output(summary + "\n")
            }
            if let failure { throw CommandFailure(file: file, error: failure) }
        }
    }
}
