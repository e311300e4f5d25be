import Foundation
import Testing
@testable import GIF

/// Frames composited onto an opaque canvas, three bytes a pixel over a
/// background (what `gif dump` writes as PPM), against the RGBA frames of the
/// same file put over the same background by the rule: a transparent pixel
/// shows the background, an opaque one its colour. The RGBA frames are the
/// ones the published NIA checksums vouch for.
@Suite struct OpaqueCanvasTests {
    /// The files with NIA checksums, and Pillow's disposal and transparency
    /// cases: those of at most a million composited pixels in all, or every
    /// one with `GIF_TEST_FULL=1`.
    static let files = (Corpus.niaEntries.map(\.path) + Corpus.files(in: "pillow").filter { $0.hasSuffix(".gif") })
        .filter { file in
            guard ProcessInfo.processInfo.environment["GIF_TEST_FULL"] != "1" else { return true }
            guard let info = try? GIFImage(bytes: Corpus.bytes(file)).info else { return true }
            return info.canvasSize.area * info.frameCount <= 1_000_000
        }

    /// A grey background (cleared with one fill) and a colour (a pixel at a
    /// time).
    static let backgrounds = [Palette.Color(red: 255, green: 255, blue: 255), Palette.Color(red: 0x10, green: 0x20, blue: 0x30)]

    /// Every frame (and the error after the last) of `iterator`.
    static func frames(_ iterator: FrameIterator) -> (frames: [CompositedFrame], error: GIFError?) {
        var iterator = iterator
        var frames: [CompositedFrame] = []
        do {
            while let frame = try iterator.next() { frames.append(frame) }
        } catch {
            return (frames, error)
        }
        return (frames, nil)
    }

    @Test("Each frame over a background equals its RGBA frame put over that background, in order and in parallel",
          arguments: backgrounds)
    func sameAsRGBAOverBackground(background: Palette.Color) throws {
        for file in Self.files {
            guard let image = try? GIFImage(bytes: Corpus.bytes(file)) else { continue }
            let (rgba, rgbaError) = Self.frames(image.makeFrameIterator())
            for parallel in [false, true] {
                let (opaque, error) = Self.frames(
                    FrameIterator(image: image, forceParallel: parallel, background: background))
                #expect(opaque.count == rgba.count, "\(file)")
                #expect(error?.kind == rgbaError?.kind, "\(file)")
                for (frame, reference) in zip(opaque, rgba) {
                    #expect(frame.background == background && frame.bytesPerPixel == 3)
                    #expect(frame.isComplete == reference.isComplete && frame.changedRect == reference.changedRect)
                    var expected: [UInt8] = []
                    expected.reserveCapacity(reference.pixels.count / 4 * 3)
                    for pixel in stride(from: 0, to: reference.pixels.count, by: 4) {
                        let transparent = reference.pixels[pixel + 3] == 0
                        expected.append(transparent ? background.red : reference.pixels[pixel])
                        expected.append(transparent ? background.green : reference.pixels[pixel + 1])
                        expected.append(transparent ? background.blue : reference.pixels[pixel + 2])
                    }
                    #expect(frame.pixels == expected, "\(file) frame \(frame.index), parallel \(parallel)")
                }
            }
        }
    }

    @Test("The writers take an opaque canvas as it stands (PPM) or as opaque pixels (PAM, NIA)")
    func writers() throws {
        var gif = GIFBuilder(width: 3, height: 1, palette: [[255, 0, 0], [0, 255, 0], [0, 0, 255], [9, 9, 9]])
        gif.control(transparent: 3)
        gif.image(width: 3, height: 1, indices: [0, 3, 2])
        gif.trailer()
        let image = try GIFImage(bytes: gif.bytes)
        var frames = image.makeFrameIterator(background: Palette.Color(red: 1, green: 2, blue: 3))
        let frame = try #require(try frames.next())
        #expect(frame.pixels == [255, 0, 0, 1, 2, 3, 0, 0, 255])
        #expect(frame.pixel(x: 1, y: 0) == (1, 2, 3, 255))
        let header = Array("P6\n3 1\n255\n".utf8)
        #expect(PNMWriter.ppm(frame, background: .white) == header + frame.pixels)
        var written: [UInt8] = [], buffer: [UInt8] = []
        PNMWriter.writePPM(frame, buffer: &buffer) { written += $0 }
        #expect(written == header + frame.pixels)
        #expect(PNMWriter.pam(frame).suffix(12) == [255, 0, 0, 255, 1, 2, 3, 255, 0, 0, 255, 255])
        var nia = NIAWriter(canvasSize: frame.size)
        #expect(nia.frame(frame).dropFirst(24).prefix(12) == [0, 0, 255, 255, 3, 2, 1, 255, 255, 0, 0, 255])
    }
}
