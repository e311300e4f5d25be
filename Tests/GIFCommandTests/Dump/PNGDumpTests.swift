import Foundation
import GIF
import Testing

/// `gif dump --format png`: each PNG, read back with libpng, is the
/// library's composited frame pixel for pixel, alpha included.
@Suite("gif dump --format png")
struct PNGDumpTests {
    /// The library's frames of `file`, RGBA8.
    static func frames(_ path: String) throws -> [CompositedFrame] {
        var iterator = try GIFImage(contentsOf: path).makeFrameIterator()
        var frames: [CompositedFrame] = []
        while let frame = try iterator.next() { frames.append(frame) }
        return frames
    }

    /// The pixels (four bytes each) where `a` and `b` differ, or the larger
    /// pixel count when their sizes differ: a number, so that a failure
    /// reports quickly instead of listing two canvases.
    static func differingPixels(_ a: [UInt8], _ b: [UInt8]) -> Int {
        guard a.count == b.count else { return max(a.count, b.count) / 4 }
        return stride(from: 0, to: a.count, by: 4).count { a[$0..<$0 + 4] != b[$0..<$0 + 4] }
    }

    /// Corpus animations with transparent pixels on some frames and none on
    /// others, so that both the RGBA and the RGB form are written.
    @Test("Each frame file decodes to the composited frame, alpha included", arguments: [
        "pillow/dispose_bgnd.gif", "pillow/dispose_bgnd_transparency.gif", "blink/crbug779261.gif",
        "pillow/transparent_dispose.gif", "pillow/star.gif",
    ])
    func frameFiles(file: String) async throws {
        let frames = try Self.frames(Corpus.path(file))
        let out = try TemporaryDirectory()
        let run = try await GIFRun(["dump", Corpus.path(file), "--format", "png", "-o", out.url.appending(path: "f").path])
        #expect(run.status == 0, "\(run.error)")
        let names = frames.indices.map { "frame-" + String(repeating: "0", count: 3 - String($0).count) + "\($0).png" }
        #expect(try out.names(in: "f") == names)
        var transparent = 0
        for (frame, name) in zip(frames, names) {
            let bytes = [UInt8](try Data(contentsOf: out.url.appending(path: "f/\(name)")))
            let png = try PNGFile.decode(bytes).get()
            #expect((png.width, png.height) == (frame.size.width, frame.size.height), "\(name)")
            #expect(Self.differingPixels(png.pixels, frame.pixels) == 0, "\(file) \(name)")
            let hasTransparency = stride(from: 3, to: frame.pixels.count, by: 4).contains { frame.pixels[$0] != 255 }
            #expect(png.storesAlpha == hasTransparency, "\(name): alpha is stored exactly when a pixel needs it")
            if hasTransparency { transparent += 1 }
        }
        #expect(transparent > 0, "the file has a frame with transparent pixels")
        #expect(run.text.hasPrefix("wrote \(frames.count) frame\(frames.count == 1 ? "" : "s") as PNG"))
    }

    @Test("To standard output, the PNGs are concatenated in frame order")
    func standardOutput() async throws {
        let file = "pillow/dispose_bgnd_transparency.gif"
        let frames = try Self.frames(Corpus.path(file))
        let run = try await GIFRun(["dump", Corpus.path(file), "--format", "png", "--frames", "1,4-6", "-o", "-"])
        #expect(run.status == 0)
        let files = try #require(PNGFile.split(run.output))
        #expect(files.count == 4)
        for (bytes, index) in zip(files, [1, 4, 5, 6]) {
            let png = try PNGFile.decode(bytes).get()
            #expect(Self.differingPixels(png.pixels, frames[index].pixels) == 0, "frame \(index)")
        }
        #expect(run.error.hasPrefix("wrote 4 frames as PNG"))
    }

    @Test("--max-size scales the PNG as it scales the PAM")
    func maxSize() async throws {
        let file = Corpus.path("blink/animated-gif-with-offsets.gif")
        let pam = try await GIFRun(["dump", file, "--format", "pam", "--frames", "2", "--max-size", "50", "-o", "-"])
        let png = try await GIFRun(["dump", file, "--format", "png", "--frames", "2", "--max-size", "50", "-o", "-"])
        let decoded = try PNGFile.decode(png.output).get()
        let header = DumpTests.pamHeader(decoded.width, decoded.height)
        #expect(max(decoded.width, decoded.height) == 50)
        #expect(Array(pam.output.prefix(header.count)) == header)
        #expect(Self.differingPixels(Array(pam.output.dropFirst(header.count)), decoded.pixels) == 0)
    }

    @Test("A 0x0 canvas has no PNG: a typed error naming the file, no file left")
    func emptyCanvas() async throws {
        let out = try TemporaryDirectory()
        // A 0×0 screen and a 0×0 frame: the canvas stays 0×0.
        let input = try out.file("empty.gif", [
            0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 0, 0, 0, 0, 0x80, 0, 0, 0xFF, 0, 0, 0, 0, 0xFF,
            0x2C, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 2, 0x44, 0x0A, 0, 0x3B,
        ])
        let run = try await GIFRun(["dump", input, "--format", "png", "-o", out.url.appending(path: "f").path])
        #expect(run.status == 1)
        #expect(run.error.contains("frame-000.png: a PNG is at least 1x1 pixels, and the image is 0x0"))
        #expect(try out.names(in: "f").isEmpty)
    }
}
