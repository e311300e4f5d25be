import Foundation
import GIF
import Testing

/// `gif dump --max-size`: poster frames, end to end on the built binary.
@Suite struct PosterDumpTests {
    static let demo = Corpus.packageRoot.appending(path: "Fixtures/demo.gif").path

    @Test func firstFrameAt128IsScaledToFit() async throws {
        let run = try await GIFRun(["dump", Self.demo, "--frames", "0", "--max-size", "128", "-o", "-"])
        #expect(run.status == 0)
        let header = Array("P6\n128 96\n255\n".utf8)
        #expect(Array(run.output.prefix(header.count)) == header)
        #expect(run.output.count == header.count + 128 * 96 * 3)
        #expect(run.errorLines == ["wrote 1 frame as PPM (128x96 from 160x120) to standard output"])
    }

    /// At 40 (a quarter of 160 × 120) every output pixel is the mean of a
    /// 4 × 4 block of the decoder's first frame.
    @Test func pamPixelsAreBlockMeans() async throws {
        let run = try await GIFRun(["dump", Self.demo, "--frames", "0", "--max-size", "40", "--format", "pam", "-o", "-"])
        #expect(run.status == 0)
        let header = "P7\nWIDTH 40\nHEIGHT 30\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n"
        #expect(Array(run.output.prefix(header.utf8.count)) == Array(header.utf8))
        let frame = try GIFImage(contentsOf: Self.demo).frame(at: 0)
        var expected: [UInt8] = []
        for y in 0..<30 {
            for x in 0..<40 {
                for c in 0..<4 {
                    var sum = 0
                    for dy in 0..<4 { for dx in 0..<4 { sum += Int(frame.pixels[((4 * y + dy) * 160 + 4 * x + dx) * 4 + c]) } }
                    expected.append(UInt8((sum + 8) / 16))
                }
            }
        }
        #expect(Array(run.output.dropFirst(header.utf8.count)) == expected)
    }

    @Test func maxSizeIsRefusedForNIA() async throws {
        let run = try await GIFRun(["dump", Self.demo, "--format", "nia", "--max-size", "8", "-o", "-"])
        #expect(run.status == 64)
        #expect(run.error.contains("--max-size does not apply to NIA"))
    }
}
