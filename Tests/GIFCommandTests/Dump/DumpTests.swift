import Foundation
@_spi(Benchmarks) import GIF
import Testing

@Suite("gif dump")
struct DumpTests {
    /// A 2×1 GIF89a built by hand: global palette [red, blue], a GCE making
    /// index 0 transparent, one frame with pixels [0, 1]. Composited, pixel 0
    /// is transparent black and pixel 1 opaque blue.
    static let transparentPair: [UInt8] = [
        0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 2, 0, 1, 0, 0x80, 0, 0,  // header, 2-entry global table
        0xFF, 0x00, 0x00, 0x00, 0x00, 0xFF,  // red, blue
        0x21, 0xF9, 4, 0x01, 0, 0, 0, 0,  // GCE: transparent index 0
        0x2C, 0, 0, 0, 0, 2, 0, 1, 0, 0,  // image descriptor 2×1
        2, 2, 0x44, 0x0A, 0,  // LZW: clear, 0, 1, end (3-bit codes)
        0x3B,
    ]

    static func ppmHeader(_ width: Int, _ height: Int) -> [UInt8] {
        Array("P6\n\(width) \(height)\n255\n".utf8)
    }

    static func pamHeader(_ width: Int, _ height: Int) -> [UInt8] {
        Array("P7\nWIDTH \(width)\nHEIGHT \(height)\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n".utf8)
    }

    @Test("PPM: one file per frame, exact header and size", arguments: [
        "blink/animated.gif", "blink/full2loop.gif", "blink/animated-gif-with-offsets.gif", "go/video-001.gif",
    ])
    func ppm(file: String) async throws {
        let bytes = try Corpus.bytes(file)
        let (width, height) = Corpus.screenSize(bytes)
        let frames = try GIFImage(bytes: bytes).info.frameCount
        let out = try TemporaryDirectory()
        let run = try await GIFRun(["dump", Corpus.path(file), "-o", out.url.appending(path: "frames").path])
        #expect(run.status == 0)
        #expect(run.error.isEmpty)
        let names = (0..<frames).map { "frame-" + String(repeating: "0", count: 3 - String($0).count) + "\($0).ppm" }
        #expect(try out.names(in: "frames") == names)
        let header = Self.ppmHeader(width, height)
        for name in names {
            let data = [UInt8](try Data(contentsOf: out.url.appending(path: "frames/\(name)")))
            #expect(Array(data.prefix(header.count)) == header)
            #expect(data.count == header.count + width * height * 3)
        }
        #expect(run.text.hasPrefix("wrote \(frames) frame\(frames == 1 ? "" : "s") as PPM (\(width)x\(height))"))
        #expect(run.text.split(separator: "\n").count == 1)
    }

    @Test("PAM: exact header, size and RGBA pixels")
    func pam() async throws {
        let out = try TemporaryDirectory()
        let input = try out.file("pair.gif", Self.transparentPair)
        let run = try await GIFRun(["dump", input, "--format", "pam", "-o", out.url.appending(path: "frames").path])
        #expect(run.status == 0)
        #expect(try out.names(in: "frames") == ["frame-000.pam"])
        let data = [UInt8](try Data(contentsOf: out.url.appending(path: "frames/frame-000.pam")))
        #expect(data == Self.pamHeader(2, 1) + [0, 0, 0, 0, 0, 0, 255, 255])
    }

    @Test("PAM for a corpus file: exact header and size")
    func pamCorpus() async throws {
        let file = "blink/animated-10color.gif"
        let (width, height) = Corpus.screenSize(try Corpus.bytes(file))
        let run = try await GIFRun(["dump", Corpus.path(file), "--format", "pam", "--frames", "4", "-o", "-"])
        #expect(run.status == 0)
        let header = Self.pamHeader(width, height)
        #expect(Array(run.output.prefix(header.count)) == header)
        #expect(run.output.count == header.count + width * height * 4)
        #expect(run.error.hasPrefix("wrote 1 frame as PAM"))
    }

    @Test("PPM shows transparent pixels over white by default, or over --background")
    func background() async throws {
        let out = try TemporaryDirectory()
        let input = try out.file("pair.gif", Self.transparentPair)
        let white = try await GIFRun(["dump", input, "-o", "-"])
        #expect(white.output == Self.ppmHeader(2, 1) + [255, 255, 255, 0, 0, 255])
        let green = try await GIFRun(["dump", input, "-o", "-", "--background", "00FF00"])
        #expect(green.output == Self.ppmHeader(2, 1) + [0, 255, 0, 0, 0, 255])
        let hash = try await GIFRun(["dump", input, "-o", "-", "--background", "#102030"])
        #expect(hash.output == Self.ppmHeader(2, 1) + [0x10, 0x20, 0x30, 0, 0, 255])
    }

    @Test("--frames writes exactly the frames listed")
    func frameSelection() async throws {
        let out = try TemporaryDirectory()
        let run = try await GIFRun(["dump", Corpus.path("blink/animated-10color.gif"), "--frames", "0,3,5-9", "-o", "sel"],
                             in: out.url)
        #expect(run.status == 0)
        #expect(try out.names(in: "sel") == [0, 3, 5, 6, 7, 8, 9].map { "frame-00\($0).ppm" })
        #expect(run.text.hasPrefix("wrote 7 frames as PPM (100x100) to sel: frame-000.ppm … frame-009.ppm"))
    }

    @Test("PPM frames to stdout are concatenated; the summary goes to stderr")
    func ppmToStandardOutput() async throws {
        let file = "blink/animated.gif"
        let bytes = try Corpus.bytes(file)
        let (width, height) = Corpus.screenSize(bytes)
        let frames = try GIFImage(bytes: bytes).info.frameCount
        let run = try await GIFRun(["dump", Corpus.path(file), "-o", "-"])
        #expect(run.status == 0)
        #expect(run.output.count == frames * (Self.ppmHeader(width, height).count + width * height * 3))
        #expect(run.error == "wrote \(frames) frames as PPM (\(width)x\(height)) to standard output\n")
    }

    @Test("NIA to stdout matches the published CRC32", arguments: Corpus.niaFiles)
    func niaChecksum(file: String) async throws {
        let published = try #require(try Corpus.publishedNIAChecksums().first { $0.file == file })
        let run = try await GIFRun(["dump", Corpus.path(file), "--format", "nia", "-o", "-"])
        #expect(crc32(run.output) == published.crc)
        if published.ok {
            #expect(run.status == 0)
            #expect(run.errorLines.count == 1)  // the summary
        } else {
            #expect(run.status == 1)
            #expect(run.errorLines.count == 2)  // the summary, then the error
            #expect(run.errorLines.last?.hasPrefix("gif: \(Corpus.path(file)): ") == true)
        }
    }

    @Test("NIA to a directory is one file named after the input")
    func niaFile() async throws {
        let out = try TemporaryDirectory()
        let run = try await GIFRun(["dump", Corpus.path("blink/animated.gif"), "--format", "nia", "-o", out.url.path])
        #expect(run.status == 0)
        let data = [UInt8](try Data(contentsOf: out.url.appending(path: "animated.nia")))
        #expect(crc32(data) == 0xC5ED_1E55)
    }

    @Test("usage errors exit 64", arguments: [
        ["--frames", "3-1"], ["--frames", "x"], ["--background", "12345"], ["--format", "gif"],
        ["--format", "nia", "--frames", "1"], ["--format", "pam", "--background", "000000"],
    ])
    func usageErrors(arguments: [String]) async throws {
        let run = try await GIFRun(["dump", Corpus.path("blink/animated.gif"), "-o", "-"] + arguments)
        #expect(run.status == 64)
        #expect(run.output.isEmpty)
    }

    @Test("a frame past the last is an error naming the count")
    func frameOutOfRange() async throws {
        let run = try await GIFRun(["dump", Corpus.path("blink/animated.gif"), "-o", "-", "--frames", "0,2"])
        #expect(run.status == 1)
        #expect(run.error == "gif: \(Corpus.path("blink/animated.gif")): there is no frame 2 (the file has 2)\n")
        #expect(run.output.isEmpty)
    }
}
