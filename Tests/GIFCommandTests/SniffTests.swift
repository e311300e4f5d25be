import Foundation
import Testing

@Suite("gif sniff")
struct SniffTests {
    /// Each file in `not-gif/` and the name its format has (its published signature).
    static let notGIF: [(file: String, format: String)] = [
        ("green-10.png", "PNG"), ("apng00.png", "APNG"), ("55.jpg", "JPEG"), ("crbug.364830.webp", "WebP"),
        ("silver-full-range-srgb-420-8bpc.avif", "AVIF"), ("1xint32_min.bmp", "BMP"), ("1bit.ico", "ICO"),
    ]

    @Test("names every non-GIF file and exits 1", arguments: notGIF)
    func namesNonGIF(file: String, format: String) async throws {
        let path = Corpus.path("not-gif/\(file)")
        let run = try await GIFRun(["sniff", path])
        #expect(run.status == 1)
        let line = try #require(run.text.split(separator: "\n").first)
        #expect(line.hasPrefix("\(path): \(format)"))
        #expect(line.hasSuffix("(not a GIF)"))
        #expect(run.error.isEmpty)
    }

    @Test("every file in not-gif/ is covered")
    func coversTheFolder() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Corpus.path("not-gif"))
            .filter { !$0.hasPrefix(".") && $0 != "LICENSE" }
        #expect(Set(files) == Set(Self.notGIF.map(\.file)))
    }

    @Test("reads the PNG's size from IHDR")
    func pngSize() async throws {
        let run = try await GIFRun(["sniff", Corpus.path("not-gif/green-10.png")])
        #expect(run.text == "\(Corpus.path("not-gif/green-10.png")): PNG 10x10 (not a GIF)\n")
    }

    @Test("names every corpus GIF by its signature and screen size, exits 0")
    func namesGIFs() async throws {
        let paths = Corpus.niaFiles.map(Corpus.path)
        let run = try await GIFRun(["sniff"] + paths)
        #expect(run.status == 0)
        let expected = try Corpus.niaFiles.map { file in
            let bytes = try Corpus.bytes(file)
            let size = Corpus.screenSize(bytes)
            return "\(Corpus.path(file)): \(String(decoding: bytes[0..<6], as: UTF8.self)) \(size.width)x\(size.height)"
        }
        #expect(run.text.split(separator: "\n").map(String.init) == expected)
    }

    @Test("exits 1 when one file of several is not a GIF, and still names them all")
    func mixed() async throws {
        let run = try await GIFRun(["sniff", Corpus.path("blink/animated.gif"), Corpus.path("not-gif/55.jpg")])
        #expect(run.status == 1)
        #expect(run.text.split(separator: "\n").count == 2)
    }

    @Test("reports a missing file on stderr, keeps going, exits 1")
    func missing() async throws {
        let run = try await GIFRun(["sniff", "/nonexistent/a.gif", Corpus.path("blink/animated.gif")])
        #expect(run.status == 1)
        #expect(run.error == "gif: /nonexistent/a.gif: No such file or directory\n")
        #expect(run.text.hasPrefix(Corpus.path("blink/animated.gif") + ": GIF89a"))
    }
}
