import Foundation
import GIF

/// Finds and opens the GIFs in `Fixtures/`, located from this file's path,
/// not the working directory.
enum Fixture {
    /// `…/Fixtures` of this package.
    static let directory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // GIFTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // the package
        .appendingPathComponent("Fixtures")

    /// Every `.gif` in the directory, sorted.
    static var names: [String] {
        let all = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return all.filter { $0.hasSuffix(".gif") }.sorted()
    }

    /// The path of `name`.
    static func path(_ name: String) -> String {
        directory.appendingPathComponent(name).path
    }

    /// The bytes of `name`.
    static func bytes(_ name: String) throws -> [UInt8] {
        try Array(Data(contentsOf: directory.appendingPathComponent(name)))
    }

    /// Opens `name` from its path.
    static func open(_ name: String) throws(GIFError) -> GIFImage {
        try GIFImage(contentsOf: path(name))
    }

    /// Every composited frame of `image`; throws whatever the iterator throws.
    static func frames(of image: GIFImage) throws(GIFError) -> [CompositedFrame] {
        var iterator = image.makeFrameIterator()
        var frames: [CompositedFrame] = []
        while let frame = try iterator.next() { frames.append(frame) }
        return frames
    }

    /// Opens `name` and returns every composited frame.
    static func frames(_ name: String) throws(GIFError) -> [CompositedFrame] {
        try frames(of: open(name))
    }
}

/// One RGBA8 pixel, for spelling out expected canvases.
struct RGBA: Hashable, CustomStringConvertible {
    var red: UInt8
    var green: UInt8
    var blue: UInt8
    var alpha: UInt8

    init(_ red: UInt8, _ green: UInt8, _ blue: UInt8, _ alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    var description: String { "(\(red),\(green),\(blue),\(alpha))" }

    /// The start of every canvas, and what disposal 2 leaves.
    static let clear = RGBA(0, 0, 0, 0)
    /// Any index with no palette, or past the palette's end.
    static let black = RGBA(0, 0, 0)

    // The small fixtures' 8-entry table (Fixtures/README.md), by index.
    static let red = RGBA(255, 0, 0)
    static let green = RGBA(0, 255, 0)
    static let blue = RGBA(0, 0, 255)
    static let yellow = RGBA(255, 255, 0)
    static let cyan = RGBA(0, 255, 255)
    static let magenta = RGBA(255, 0, 255)
    static let white = RGBA(255, 255, 255)
    static let gray = RGBA(128, 128, 128)
}

/// Canvases drawn as text, one character per pixel, one line per row, so an
/// expectation reads like the construction and a failure shows both pictures.
enum CanvasMap {
    /// `R G B Y C M W Z` are the small fixtures' palette entries 0–7 (`Z`
    /// gray), `K` opaque black, `.` transparent black.
    static let standard: [Character: RGBA] = [
        "R": .red, "G": .green, "B": .blue, "Y": .yellow, "C": .cyan, "M": .magenta, "W": .white, "Z": .gray,
        "K": .black, ".": .clear,
    ]

    /// `frame`'s whole canvas as text; a pixel missing from `legend` is `?`.
    static func render(_ frame: CompositedFrame, legend: [Character: RGBA] = standard) -> String {
        var names: [RGBA: Character] = [:]
        for (name, color) in legend { names[color] = name }
        var lines: [String] = []
        for y in 0..<frame.size.height {
            var line = ""
            for x in 0..<frame.size.width {
                let p = frame.pixel(x: x, y: y)
                line.append(names[RGBA(p.red, p.green, p.blue, p.alpha)] ?? "?")
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}

/// The first pixel where `frame`'s canvas differs from `expected`
/// (`expected(x, y)` for every canvas pixel), described; `nil` when all match.
func firstDifference(_ frame: CompositedFrame, _ expected: (_ x: Int, _ y: Int) -> RGBA) -> String? {
    guard frame.pixels.count == frame.size.area * 4 else {
        return "\(frame.pixels.count) bytes for a \(frame.size) canvas"
    }
    for y in 0..<frame.size.height {
        for x in 0..<frame.size.width {
            let p = frame.pixel(x: x, y: y)
            let got = RGBA(p.red, p.green, p.blue, p.alpha), want = expected(x, y)
            if got != want { return "frame \(frame.index), pixel (\(x),\(y)): got \(got), expected \(want)" }
        }
    }
    return nil
}
