import Foundation
@testable import GIFCommand
import Testing

/// `gif play`: the frame-to-text rendering, as strings, and the refusal
/// without a terminal, end to end. Its timing is the playlist's, tested in
/// PlaybackTests.
@Suite struct PlayTests {
    static let esc = "\u{1B}["
    static let red: [UInt8] = [255, 0, 0, 255], green: [UInt8] = [0, 255, 0, 255]
    static let blue: [UInt8] = [0, 0, 255, 255], clear: [UInt8] = [9, 9, 9, 0]

    @Test("Two pixel rows per line: ▀ with the upper pixel in front, the lower behind")
    func halfBlocks() {
        // 2 × 2: red green / blue red.
        let pixels = [Self.red, Self.green, Self.blue, Self.red].flatMap { $0 }
        let text = HalfBlockRenderer.render(pixels: pixels, width: 2, height: 2, columns: 2)
        let e = Self.esc
        #expect(text == "\(e)38;2;255;0;0m\(e)48;2;0;0;255m▀\(e)38;2;0;255;0m\(e)48;2;255;0;0m▀\(e)0m")
    }

    @Test("Transparent pixels show the terminal's background; codes only when they change")
    func transparency() {
        // 3 × 3: row 0 red, clear, red; row 1 clear, blue, red; row 2 red red clear.
        let pixels = [
            Self.red, Self.clear, Self.red,
            Self.clear, Self.blue, Self.red,
            Self.red, Self.red, Self.clear,
        ].flatMap { $0 }
        let text = HalfBlockRenderer.render(pixels: pixels, width: 3, height: 3, columns: 3)
        let e = Self.esc
        let line0 = "\(e)38;2;255;0;0m▀"                       // red over default
            + "\(e)38;2;0;0;255m▄"                              // clear over blue
            + "\(e)38;2;255;0;0m\(e)48;2;255;0;0m▀" + "\(e)0m"  // red over red
        // The last row has no row below it: its lower halves are transparent.
        let line1 = "\(e)38;2;255;0;0m▀▀ \(e)0m"
        #expect(text == line0 + "\n" + line1)
    }

    @Test("Scaled to the columns with a box filter: 4 × 2 into 2 columns")
    func scaled() {
        // Each 2 × 2 block of the 4 × 4 image becomes one pixel: the halves
        // average red and blue, (128, 0, 128) after rounding.
        let row: [[UInt8]] = [Self.red, Self.blue, Self.green, Self.green]
        let pixels = (row + row + row + row).flatMap { $0 }
        let text = HalfBlockRenderer.render(pixels: pixels, width: 4, height: 4, columns: 2)
        let e = Self.esc
        #expect(text == "\(e)38;2;128;0;128m\(e)48;2;128;0;128m▀\(e)38;2;0;255;0m\(e)48;2;0;255;0m▀\(e)0m")
    }

    @Test("Without a terminal, gif play says so in one line and exits non-zero")
    func refusesWithoutATerminal() async throws {
        let demo = Corpus.packageRoot.appending(path: "Fixtures/demo.gif").path
        let run = try await GIFRun(["play", demo])
        #expect(run.status == 1)
        #expect(run.output.isEmpty)
        #expect(run.errorLines == ["gif: standard output is not a terminal; gif play draws there (try gif dump)"])
    }

    @Test("Contradictory options are refused before anything is drawn")
    func options() async throws {
        let demo = Corpus.packageRoot.appending(path: "Fixtures/demo.gif").path
        let run = try await GIFRun(["play", demo, "--reverse", "--bounce"])
        #expect(run.status == 64)
        #expect(run.error.contains("--reverse and --bounce cannot be used together"))
    }
}
