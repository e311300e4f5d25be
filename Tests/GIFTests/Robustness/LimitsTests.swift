import Testing
@_spi(Benchmarks) @testable import GIF

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
        var limits = DecodingLimits()
        limits.maxFrameCount = 10
        let image = try GIFImage(bytes: gif.bytes, limits: limits)
        #expect(image.info.frameCount == 10)
        #expect(image.info.error?.kind == .limitExceeded(.frameCount, value: 11, maximum: 10))
        #expect(image.info.error?.frameIndex == 10)
    }

    @Test func oversizedFrameIsRefusedBeforeDecoding() throws {
        var gif = GIFBuilder(width: 2, height: 2)
        gif.image(width: 2, height: 2, indices: [0, 0, 0, 0])
        gif.image(width: 4000, height: 4000, indices: [0])
        var limits = DecodingLimits()
        limits.maxFramePixels = 1_000_000
        let image = try GIFImage(bytes: gif.bytes, limits: limits)
        #expect(image.info.frameCount == 1)
        #expect(image.info.error?.kind == .limitExceeded(.framePixels, value: 16_000_000, maximum: 1_000_000))
    }

    // hostile sizes, each refused or bounded by a limit. That no
    // large allocation happens is proven in a child process under a memory
    // ceiling (GIFCommandTests/MemoryCeilingTests.swift); these tests pin
    // the errors and what is kept.

    @Test func hugeDeclaredCanvasWithFramesIsRefusedAtTheHeader() throws {
        var gif = GIFBuilder(width: 65535, height: 65535, palette: [[0, 0, 0], [255, 255, 255]])
        gif.image(width: 1, height: 1, indices: [1])
        gif.trailer()
        let error = #expect(throws: GIFError.self) { try GIFImage(bytes: gif.bytes) }
        #expect(error?.kind == .limitExceeded(.canvasPixels, value: 65535 * 65535, maximum: 1 << 26))
        #expect(error?.byteOffset == 6)
        #expect(error?.description.contains("canvas pixels limit") == true)
    }

    @Test func aHundredThousandTinyFramesStopAtTheFrameCountLimit() throws {
        var gif = GIFBuilder(width: 1, height: 1, palette: [[0, 0, 0], [255, 255, 255]])
        for _ in 0..<100_000 { gif.image(width: 1, height: 1, indices: [1]) }
        gif.trailer()
        let image = try GIFImage(bytes: gif.bytes)
        #expect(image.info.frameCount == 65_536)
        let error = try #require(image.info.error)
        #expect(error.kind == .limitExceeded(.frameCount, value: 65_537, maximum: 65_536))
        #expect(error.frameIndex == 65_536)
        #expect(error.byteOffset == image.info.frames[65_535].dataEnd)
        #expect(error.description.hasPrefix("the frame count limit is exceeded (65537 > 65536) (frame 65536, byte "))
        // Every frame below the limit decodes; then the limit is reported.
        var frames = image.makeFrameIterator()
        var decoded = 0
        let thrown = #expect(throws: GIFError.self) {
            while let frame = try frames.next() {
                decoded += 1
                if frame.pixels != [255, 255, 255, 255] { Issue.record("frame \(frame.index)") }
            }
        }
        #expect(decoded == 65_536)
        #expect(thrown?.kind == error.kind)
        #expect(thrown?.framesDecoded == 65_536)
    }

    @Test func aFrameMuchLargerThanTheCanvasIsDecodedClippedInCanvasMemory() throws {
        // 8000 × 8000 = 64 M pixels of real LZW data on a 2 × 2 canvas: the
        // frame is within maxFramePixels, so it is decoded in full, row by
        // row, and only the part on the canvas is kept.
        var gif = GIFBuilder(width: 2, height: 2, palette: [[10, 20, 30], [255, 255, 255], [0, 0, 0], [0, 0, 0]])
        gif.image(width: 2, height: 2, indices: [1, 1, 1, 1])
        gif.zeroRunImage(width: 8000, height: 8000)
        gif.trailer()
        let image = try GIFImage(bytes: gif.bytes)
        #expect(image.info.canvasSize == PixelSize(width: 2, height: 2))
        #expect(image.info.frames[1].rect == PixelRect(x: 0, y: 0, width: 8000, height: 8000))
        let frames = try Fixture.frames(of: image)
        #expect(frames.count == 2)
        #expect(frames[1].isComplete)
        #expect(frames[1].pixels == Array(repeating: [10, 20, 30, 255], count: 4).flatMap { $0 })
    }

    @Test func aFrameLargerThanTheFrameLimitIsRefusedBeforeDecoding() throws {
        var gif = GIFBuilder(width: 2, height: 2)
        gif.image(width: 2, height: 2, indices: [0, 0, 0, 0])
        gif.zeroRunImage(width: 65535, height: 65535)
        gif.trailer()
        let image = try GIFImage(bytes: gif.bytes)
        #expect(image.info.frameCount == 1)
        let error = try #require(image.info.error)
        #expect(error.kind == .limitExceeded(.framePixels, value: 65535 * 65535, maximum: 1 << 26))
        #expect(error.frameIndex == 1)
        #expect(error.description.contains("the frame pixels limit is exceeded"))
        var frames = image.makeFrameIterator()
        #expect(try frames.next()?.isComplete == true)
        #expect(throws: error) { try frames.next() }
    }

    @Test func inputBytesLimit() {
        let bytes = GIFBuilder(width: 1, height: 1).bytes
        var limits = DecodingLimits()
        limits.maxInputBytes = 12
        #expect(throws: GIFError(.limitExceeded(.inputBytes, value: 13, maximum: 12))) {
            try GIFImage(bytes: bytes, limits: limits)
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
        // An endless device is refused from its first bytes, not read to the limit.
        #expect(throws: GIFError(.notAGIF(.unknown), byteOffset: 0)) { try GIFImage(contentsOf: "/dev/zero") }
        let directory = #expect(throws: GIFError.self) { try GIFImage(contentsOf: "/tmp") }
        #expect(directory?.reason == "cannot read /tmp: Is a directory")
    }
}
