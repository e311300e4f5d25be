import Foundation
@testable import GIFFixtureGenerator
import Testing

/// `gif sheet` on GIFs whose frames are each one solid colour, built here,
/// so that every cell's pixels are known: the layout rule of `gif sheet
/// --help` says where each cell is, and scaling a solid frame by area
/// means keeps its colour exactly.
@Suite("gif sheet")
struct SheetTests {
    /// The layout rule's constants, as the help states them: 4 pixels
    /// around and between cells, labels 3 × 5 glyphs with a pixel above and
    /// below, doubled from 96-pixel-wide cells up; the sheet dark grey.
    static let gap = 4
    static func labelHeight(imageWidth: Int) -> Int { imageWidth >= 96 ? 14 : 7 }
    static let background: [UInt8] = [0x20, 0x20, 0x20, 255]
    static let ink: [UInt8] = [255, 255, 255, 255]

    /// Frame `i`'s colour: all different, red ≠ blue so a swap shows.
    static func color(_ i: Int) -> [UInt8] {
        [UInt8(40 + i * 7 % 200), UInt8(255 - i * 5 % 250), UInt8(i * 3 % 120), 255]
    }

    /// A GIF89a of `count` frames of `width` × `height` at the top left of
    /// a `screen` (the frame size by default), frame `i` filled with
    /// palette entry `i` (``color(_:)``), delay `i + 1` centiseconds; frames
    /// listed in `transparent` are all palette entry `i` made transparent.
    /// Each frame is disposed of to the background, so that every
    /// composited frame is that frame alone. Written by giflib's encoder,
    /// as the fixtures are.
    static func solidFrames(
        count: Int, width: Int, height: Int, screen: (width: Int, height: Int)? = nil, transparent: Set<Int> = []
    ) throws -> [UInt8] {
        let palette = (0..<256).map { i in
            let c = color(i)
            return Color(c[0], c[1], c[2])
        }
        let screen = screen ?? (width, height)
        let encoder = try GIFEncoder(width: screen.width, height: screen.height, palette: palette)
        for i in 0..<count {
            try encoder.putControl(disposal: 2, delay: i + 1, transparentIndex: transparent.contains(i) ? UInt8(i) : nil)
            try encoder.putImage(Rect(0, 0, width, height), pixels: [UInt8](repeating: UInt8(i), count: width * height))
        }
        return try encoder.finish()
    }

    /// Runs `gif sheet` on `gif` with `options` and decodes the sheet.
    static func sheet(_ gif: [UInt8], _ options: [String]) async throws -> (PNGFile, GIFRun) {
        let out = try TemporaryDirectory()
        let input = try out.file("solid.gif", gif)
        let path = out.url.appending(path: "sheet.png").path
        let run = try await GIFRun(["sheet", input, "-o", path] + options)
        #expect(run.status == 0, "\(run.error)")
        return (try PNGFile.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))).get(), run)
    }

    /// Checks that `sheet` has `frames.count` cells of `image` size in
    /// `columns` columns, cell `n` filled with frame `frames[n]`'s colour (or
    /// transparent), gaps and label strips of the background, labels inked.
    static func expectCells(
        _ sheet: PNGFile, image: (width: Int, height: Int), columns: Int, frames: [Int],
        transparent: Set<Int> = []
    ) {
        let label = labelHeight(imageWidth: image.width)
        let rows = (frames.count + columns - 1) / columns
        #expect(sheet.width == gap + columns * (image.width + gap))
        #expect(sheet.height == gap + rows * (image.height + label + gap))
        func pixel(_ x: Int, _ y: Int) -> [UInt8] {
            let i = (y * sheet.width + x) * 4
            return Array(sheet.pixels[i..<i + 4])
        }
        for (n, frame) in frames.enumerated() {
            let x0 = gap + n % columns * (image.width + gap)
            let y0 = gap + n / columns * (image.height + label + gap)
            let expected = transparent.contains(frame) ? [0, 0, 0, 0] : color(frame)
            var wrong = 0
            for y in y0..<y0 + image.height {
                for x in x0..<x0 + image.width where pixel(x, y) != expected { wrong += 1 }
            }
            #expect(wrong == 0, "cell \(n) (frame \(frame)): \(wrong) pixels are not its colour")
            // Just outside the image: the gap on the left and above, and the
            // label strip below, which holds some ink and nothing else.
            #expect(pixel(x0 - 1, y0) == background, "cell \(n): gap on the left")
            #expect(pixel(x0, y0 - 1) == background, "cell \(n): gap above")
            var strip: Set<[UInt8]> = []
            for y in y0 + image.height..<y0 + image.height + label {
                for x in x0..<x0 + image.width { strip.insert(pixel(x, y)) }
            }
            #expect(strip == [background, ink], "cell \(n): the label strip is text on the background")
        }
        // Cells past the last frame stay background.
        if frames.count % columns != 0 {
            let n = frames.count
            let x0 = gap + n % columns * (image.width + gap), y0 = gap + n / columns * (image.height + label + gap)
            #expect(pixel(x0 + image.width / 2, y0 + image.height / 2) == background)
        }
    }

    @Test("Every frame, one row when they fit, each cell its frame's colour")
    func everyFrame() async throws {
        let (sheet, run) = try await Self.sheet(try Self.solidFrames(count: 5, width: 12, height: 9), [])
        Self.expectCells(sheet, image: (12, 9), columns: 5, frames: Array(0..<5))
        #expect(run.text.contains("(84x24): 5 frames at 12x9 in 5 columns"), "\(run.text)")
    }

    @Test("--columns wraps the grid; transparent frames stay transparent")
    func columns() async throws {
        let gif = try Self.solidFrames(count: 7, width: 10, height: 6, transparent: [2, 5])
        let (sheet, _) = try await Self.sheet(gif, ["--columns", "3"])
        Self.expectCells(sheet, image: (10, 6), columns: 3, frames: Array(0..<7), transparent: [2, 5])
    }

    @Test("Frames are scaled down to fit --cell, the label doubled from 96 pixels wide")
    func scaled() async throws {
        let (small, _) = try await Self.sheet(try Self.solidFrames(count: 3, width: 40, height: 20), ["--cell", "10"])
        Self.expectCells(small, image: (10, 5), columns: 3, frames: [0, 1, 2])
        let (large, _) = try await Self.sheet(try Self.solidFrames(count: 2, width: 300, height: 100), ["--cell", "120"])
        Self.expectCells(large, image: (120, 40), columns: 2, frames: [0, 1])
    }

    @Test("Past --max-height, every Nth frame, N the smallest that fits")
    func everyNth() async throws {
        // Cells 8 × (6 + 7) plus gaps: 12 wide, 17 tall. --max-width 52 fits
        // 4 columns (4 + 4 × 12 = 52), --max-height 40 fits 2 rows
        // (4 + 2 × 17 = 38; 3 rows would be 55): 8 cells for 30 frames,
        // so every 4th frame (7 would need 5), 0, 4, … 28.
        let gif = try Self.solidFrames(count: 30, width: 8, height: 6)
        let (sheet, run) = try await Self.sheet(gif, ["--max-width", "52", "--max-height", "40"])
        Self.expectCells(sheet, image: (8, 6), columns: 4, frames: Array(stride(from: 0, to: 30, by: 4)))
        #expect(run.text.contains("8 of 30 frames, one in 4,"), "\(run.text)")
        // One pixel less tall: one row of 4, every 8th frame.
        let (one, _) = try await Self.sheet(gif, ["--max-width", "52", "--max-height", "37"])
        Self.expectCells(one, image: (8, 6), columns: 4, frames: [0, 8, 16, 24])
    }

    @Test("Labels differ by frame index and delay")
    func labels() async throws {
        let (sheet, _) = try await Self.sheet(try Self.solidFrames(count: 12, width: 30, height: 4), ["--columns", "12"])
        // Each label strip's ink mask: frames 0…11 have labels "#i (i+1)0ms", all different.
        var masks: Set<[Bool]> = []
        for n in 0..<12 {
            let x0 = Self.gap + n * 34, y0 = Self.gap + 4
            var mask: [Bool] = []
            for y in y0..<y0 + 7 {
                for x in x0..<x0 + 30 { mask.append(sheet.pixels[(y * sheet.width + x) * 4] == 255) }
            }
            masks.insert(mask)
        }
        #expect(masks.count == 12)
    }

    @Test("Sizes that cannot be laid out get a typed error before anything is drawn")
    func limits() async throws {
        let out = try TemporaryDirectory()
        let input = try out.file("solid.gif", try Self.solidFrames(count: 3, width: 50, height: 50))
        let sheet = out.url.appending(path: "sheet.png").path
        let narrow = try await GIFRun(["sheet", input, "-o", sheet, "--max-width", "40"])
        #expect(narrow.status == 1)
        #expect(narrow.error.contains("one cell with its gaps is 58 pixels in width, more than the --max-width of 40"))
        // A 4000 × 4000 screen of 1 × 1 frames, 20 cells of 4000 in a row:
        // 80,084 × 4,022 pixels, past the 64 Mi pixels a sheet may have.
        let huge = try Self.solidFrames(count: 20, width: 1, height: 1, screen: (4000, 4000))
        let hugeInput = try out.file("huge.gif", huge)
        let large = try await GIFRun(["sheet", hugeInput, "-o", sheet, "--cell", "4000", "--columns", "20", "--max-height", "5000"])
        #expect(large.status == 1)
        #expect(large.error.contains("the sheet would be 80084x4022, more than the 67108864 pixels a sheet may have"), "\(large.error)")
        #expect(!FileManager.default.fileExists(atPath: sheet))
    }
}
