import Foundation
@testable import GIFCommand
import Testing

/// Hostile arguments to `gif`: refused with a usage error naming
/// the limit, before any allocation, instead of trapping.
@Suite struct HostileInputTests {
    static let demo = Corpus.packageRoot.appending(path: "Fixtures/demo.gif").path

    @Test("gif play --width beyond the limit is a usage error naming it",
          arguments: ["9223372036854775807", "3037000500", "4097", "0", "-1"])
    func playWidthOutOfRange(width: String) async throws {
        let run = try await GIFRun(["play", Self.demo, "--width=" + width])
        #expect(run.status == 64)
        #expect(run.error.contains("--width must be between 1 and 4096 columns"))
    }

    @Test("The renderer clamps columns and rows, so no width makes it trap or allocate without bound",
          arguments: [Int.max, 3_037_000_500, 4097])
    func rendererClampsColumns(columns: Int) {
        // An opaque red row 8192 pixels wide, drawn at the widest allowed
        // width: one line (the height rounds to 1 row) of 4096 red cells.
        let pixels = Array(repeating: [255, 0, 0, 255] as [UInt8], count: 8192).flatMap { $0 }
        let text = HalfBlockRenderer.render(pixels: pixels, width: 8192, height: 1, columns: columns)
        let lines = text.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(lines.first?.filter { $0 == "▀" }.count == HalfBlockRenderer.maxColumns)
    }

    @Test("The renderer draws nothing from pixels shorter than width × height × 4")
    func rendererShortPixels() {
        #expect(HalfBlockRenderer.render(pixels: [255, 0, 0, 255], width: 2, height: 2, columns: 2) == "")
        #expect(HalfBlockRenderer.render(pixels: [], width: .max, height: .max, columns: 2) == "")
    }

    /// 65,536 one-pixel frames, each at its own place on an 8192 × 8192
    /// screen: under 1 MB of GIF, 16 TiB of NIA.
    static var manyTinyFrames: [UInt8] {
        var bytes = HostileGIF.header(width: 8192, height: 8192)
        for i in 0..<65_536 {
            var frame = HostileGIF.tinyFrame
            let x = i % 8192, y = i / 8192
            frame[1] = UInt8(x & 0xFF); frame[2] = UInt8(x >> 8); frame[3] = UInt8(y & 0xFF); frame[4] = UInt8(y >> 8)
            bytes += frame
        }
        return bytes + [0x3B]
    }

    @Test("gif dump of 65,536 frames on an 8192² canvas is refused at the output budget before writing anything")
    func dumpOutputBudget() async throws {
        let scratch = try TemporaryDirectory()
        let path = try scratch.file("many.gif", Self.manyTinyFrames)
        // NIA: 65,536 frames × (24 + 4 × 8192²) bytes.
        let nia = try await GIFRun(["dump", path, "--format", "nia", "-o", "-"])
        #expect(nia.status == 1)
        #expect(nia.output.isEmpty)
        #expect(nia.errorLines == ["gif: \(path): the output bytes limit is exceeded (17592187617280 > 4294967296)"])
        // PPM files into a directory: refused before the directory is made.
        let directory = scratch.url.appending(path: "frames").path
        let ppm = try await GIFRun(["dump", path, "-o", directory])
        #expect(ppm.status == 1)
        #expect(ppm.error.contains("the output bytes limit is exceeded ("))
        #expect(!FileManager.default.fileExists(atPath: directory))
    }

    /// 16,385 one-pixel frames on a one-pixel canvas: a few bytes of output
    /// each, but one file each, one more than `DecodingLimits.maxOutputFiles`
    /// (16,384 by default).
    @Test("gif dump -o DIR of more frames than the output files limit is refused before writing, naming the limit")
    func dumpOutputFiles() async throws {
        let scratch = try TemporaryDirectory()
        var bytes = HostileGIF.header(width: 1, height: 1)
        for _ in 0..<16_385 { bytes += HostileGIF.tinyFrame }
        let path = try scratch.file("many.gif", bytes + [0x3B])
        let directory = scratch.url.appending(path: "frames").path
        let ppm = try await GIFRun(["dump", path, "-o", directory])
        #expect(ppm.status == 1)
        #expect(ppm.errorLines == ["gif: \(path): the output files limit is exceeded (16385 > 16384)"])
        #expect(!FileManager.default.fileExists(atPath: directory))
        // One file for the animation: not limited by the count of files.
        let nia = try await GIFRun(["dump", path, "--format", "nia", "-o", directory])
        #expect(nia.status == 0)
    }
}
