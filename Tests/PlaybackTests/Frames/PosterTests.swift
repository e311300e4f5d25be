import Playback
import Testing

/// A source with pixels given outright, one frame per array, and a log of
/// the frames asked for.
struct PixelSource: FrameSource {
    var canvasSize: PixelSize { PixelSize(width: canvasWidth, height: canvasHeight) }
    var timing: FrameSourceTiming { FrameSourceTiming(frameDelays: frameDelays, storedLoopCount: storedLoopCount) }
    var canvasWidth: Int
    var canvasHeight: Int
    var frames: [[UInt8]]
    let log = DecodeLog()

    var frameCount: Int { frames.count }
    var frameDelays: [Duration] { frames.map { _ in .milliseconds(100) } }
    var storedLoopCount: Int? { nil }

    func frame(at index: Int) async throws -> RenderedFrame {
        log.record(index)
        return RenderedFrame(index: index, width: canvasWidth, height: canvasHeight, pixels: frames[index])
    }
}

@Suite("Poster frames: box-filtered stills")
struct PosterTests {
    @Test("Sizes fit the box with the aspect ratio kept, never scaled up")
    func fit() {
        #expect(Poster.fit(width: 160, height: 120, maxWidth: 128, maxHeight: 128) == (128, 96))
        #expect(Poster.fit(width: 120, height: 160, maxWidth: 128, maxHeight: 128) == (96, 128))
        #expect(Poster.fit(width: 100, height: 1, maxWidth: 10, maxHeight: 10) == (10, 1))
        #expect(Poster.fit(width: 20, height: 10, maxWidth: 128, maxHeight: 128) == (20, 10))
        #expect(Poster.fit(width: 3, height: 2, maxWidth: 2, maxHeight: 2) == (2, 1))
    }

    @Test("Each output pixel averages its block; colour weighted by alpha")
    func boxAverage() async throws {
        // 4 × 2: left block red, opaque; right block two opaque and two
        // transparent pixels (whose colour must not bleed in).
        let red: [UInt8] = [200, 0, 0, 255], blue: [UInt8] = [0, 0, 100, 255], ghost: [UInt8] = [0, 255, 0, 0]
        let pixels = [red, red, blue, ghost, red, red, ghost, blue].flatMap { $0 }
        let source = PixelSource(canvasWidth: 4, canvasHeight: 2, frames: [pixels, pixels])
        let poster = try await Poster.make(from: source, maxSize: 2)
        #expect(poster.width == 2 && poster.height == 1 && poster.index == 0)
        // Right: alpha (255 + 0 + 0 + 255) / 4 = 127.5 → 128; colour from the
        // opaque pixels only.
        #expect(poster.pixels == [200, 0, 0, 255, 0, 0, 100, 128])
        // Only frame 0 was asked for.
        #expect(source.log.decoded == [0])
    }

    @Test("Fractional coverage: 3 → 2 pixels weights the middle pixel half to each side")
    func fractional() {
        let frame = RenderedFrame(index: 0, width: 3, height: 1, pixels: [0, 0, 0, 255, 90, 90, 90, 255, 180, 180, 180, 255])
        // Output 0 covers source 0 fully and half of source 1: (0·2 + 90) / 3 = 30.
        let out = Poster.boxFilter(frame, width: 2, height: 1)
        #expect(out.pixels == [30, 30, 30, 255, 150, 150, 150, 255])
    }

    @Test("A later frame and an out-of-range frame")
    func otherFrames() async throws {
        let source = PixelSource(canvasWidth: 1, canvasHeight: 1, frames: [[1, 2, 3, 255], [4, 5, 6, 255]])
        #expect(try await Poster.make(from: source, frame: 1, maxSize: 8).pixels == [4, 5, 6, 255])
        await #expect(throws: PlayerError.frameOutOfRange(2, frameCount: 2)) {
            try await Poster.make(from: source, frame: 2, maxSize: 8)
        }
    }
}
