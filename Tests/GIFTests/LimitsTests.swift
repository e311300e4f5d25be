import Testing
@testable import GIF

/// Decoding limits are checked before allocating, and errors name the limit.
@Suite struct LimitsTests {
    @Test func hugeDeclaredCanvasIsRefusedAtTheHeader() {
        // 65535 × 65535 declared in 13 bytes: refused before any canvas exists.
        let header = Array("GIF89a".utf8) + [0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0]
        let error = #expect(throws: GIFError.self) { try GIFImage(bytes: header) }
        #expect(error?.kind == .limitExceeded(.canvasPixels, value: 65535 * 65535, maximum: 1 << 26))
        #expect(error?.reason == "the canvas pixels limit is exceeded (4294836225 > 67108864)")
    }

    @Test func firstFrameGrowthCountsTowardsTheCanvasLimit() {
        var gif = GIFBuilder(width: 1, height: 1)
        gif.image(x: 60000, y: 60000, width: 1, height: 1, indices: [0])
        let error = #expect(throws: GIFError.self) { try GIFImage(bytes: gif.bytes) }
        #expect(error?.kind == .limitExceeded(.canvasPixels, value: 60001 * 60001, maximum: 1 << 26))
    }

    @Test func frameCountLimitKeepsTheFramesBeforeIt() throws {
        var gif = GIFBuilder(width: 1, height: 1)
        for _ in 0..<12 { gif.image(width: 1, height: 1, indices: [0]) }
        let image = try GIFImage(bytes: gif.bytes, limits: DecodingLimits(maxFrameCount: 10))
        #expect(image.info.frameCount == 10)
        #expect(image.info.error?.kind == .limitExceeded(.frameCount, value: 11, maximum: 10))
        #expect(image.info.error?.frameIndex == 10)
    }

    @Test func oversizedFrameIsRefusedBeforeDecoding() throws {
        var gif = GIFBuilder(width: 2, height: 2)
        gif.image(width: 2, height: 2, indices: [0, 0, 0, 0])
        gif.image(width: 4000, height: 4000, indices: [0])
        let image = try GIFImage(bytes: gif.bytes, limits: DecodingLimits(maxFramePixels: 1_000_000))
        #expect(image.info.frameCount == 1)
        #expect(image.info.error?.kind == .limitExceeded(.framePixels, value: 16_000_000, maximum: 1_000_000))
    }

    @Test func inputBytesLimit() {
        let bytes = GIFBuilder(width: 1, height: 1).bytes
        #expect(throws: GIFError(.limitExceeded(.inputBytes, value: 13, maximum: 12))) {
            try GIFImage(bytes: bytes, limits: DecodingLimits(maxInputBytes: 12))
        }
    }

    @Test func giflibErrorsReadAsGiflibSaysThem() {
        // GifErrorString's texts, from giflib's gif_err.c.
        #expect(GIFLibError.imageDefect.description == "Image is defective, decoding aborted")
        #expect(GIFLibError.readFailed.description == "Failed to read from given file")
        #expect(GIFLibError(rawValue: 113) == .endOfDataTooSoon)
    }

    @Test func unreadableFilesAreIOErrors() {
        let missing = #expect(throws: GIFError.self) { try GIFImage(contentsOf: "/nonexistent/x.gif") }
        #expect(missing?.reason == "cannot read /nonexistent/x.gif: No such file or directory")
        let directory = #expect(throws: GIFError.self) { try GIFImage(contentsOf: "/tmp") }
        #expect(directory?.reason == "cannot read /tmp: Is a directory")
    }
}
