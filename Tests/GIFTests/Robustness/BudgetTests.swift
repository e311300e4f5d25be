import Testing
@testable import GIF

/// Per-file budgets: the crafted files of the issue,
/// built here so every byte is known. Each stays within the default budgets
/// or is refused by the scan, before any decoding, with an error naming the
/// limit; the frames before the refusal are kept.
@Suite struct BudgetTests {
    static let side = 8192
    static let bigArea = 8192 * 8192  // 2²⁶, the default frame and canvas limit

    /// A tiny file declaring an 8192 × 8192 screen with one 1 × 1 frame.
    static var hugeScreenTinyFrame: [UInt8] {
        var gif = GIFBuilder(width: side, height: side, palette: [[0, 0, 0], [255, 255, 255]])
        gif.control(delay: 10)
        gif.image(width: 1, height: 1, indices: [1])
        gif.trailer()
        return gif.bytes
    }

    @Test("8192² screen, one 1 × 1 frame: within every default budget")
    func hugeScreenTinyFrameFits() throws {
        let bytes = Self.hugeScreenTinyFrame
        #expect(bytes.count < 64)
        let image = try GIFImage(bytes: bytes)
        #expect(image.info.canvasSize == PixelSize(width: Self.side, height: Self.side))
        #expect(image.info.frameCount == 1)
        #expect(image.info.error == nil)
        // One frame of NIA is 4 bytes a pixel plus 24: 256 MiB, under 4 GiB.
        try image.limits.checkOutput(frames: 1, bytesPerFrame: 24 + 4 * Self.bigArea)
    }

    /// Four 8192² frames of real LZW data, each with `disposal`.
    static func fourHugeFrames(disposal: UInt8) -> [UInt8] {
        var gif = GIFBuilder(width: side, height: side)
        for _ in 0..<4 {
            gif.control(disposal: disposal)
            gif.zeroRunImage(width: side, height: side)
        }
        gif.trailer()
        return gif.bytes
    }

    @Test("Four 8192² frames with disposal 3: refused at the decode memory budget, canvas + saved canvas + indices")
    func fourHugeRestoringFramesAreRefused() throws {
        let image = try GIFImage(bytes: Self.fourHugeFrames(disposal: 3))
        // 4 bytes a canvas pixel, 4 a saved pixel, 1 an index: 9 × 2²⁶ = 576 MiB > 384 MiB.
        let error = try #require(image.info.error)
        #expect(error.kind == .limitExceeded(.decodeBytes, value: 9 * Self.bigArea, maximum: 384 << 20))
        #expect(error.frameIndex == 0)
        #expect(image.info.frameCount == 0)
        #expect(error.reason == "the decode memory limit is exceeded (603979776 > 402653184)")
    }

    @Test("The same frames without disposal 3 fit: 2²⁸ pixels in all, 320 MiB of decode memory")
    func fourHugeFramesFit() throws {
        let image = try GIFImage(bytes: Self.fourHugeFrames(disposal: 1))
        #expect(image.info.frameCount == 4)
        #expect(image.info.error == nil)
        // A smaller restoring frame fits too: its saved copy is its clipped rectangle only.
        var gif = GIFBuilder(width: Self.side, height: Self.side)
        gif.control(disposal: 3)
        gif.zeroRunImage(width: 4096, height: 4096)
        gif.trailer()
        #expect(try GIFImage(bytes: gif.bytes).info.error == nil)
    }

    @Test("64 large frames clipped to a 1 × 1 canvas: refused at the total-pixel budget, the frames before kept")
    func largeClippedFramesStopAtTotalPixels() throws {
        var gif = GIFBuilder(width: 1, height: 1)
        gif.image(width: 1, height: 1, indices: [0])  // the first frame fixes the canvas at 1 × 1
        for _ in 0..<64 { gif.zeroRunImage(width: Self.side, height: Self.side) }
        gif.trailer()
        let image = try GIFImage(bytes: gif.bytes)
        #expect(image.info.canvasSize == PixelSize(width: 1, height: 1))
        // 1 + 16 × 2²⁶ = 2³⁰ + 1 > 2³⁰ at the 16th large frame, index 16.
        #expect(image.info.frameCount == 16)
        let error = try #require(image.info.error)
        #expect(error.kind == .limitExceeded(.totalPixels, value: (1 << 30) + 1, maximum: 1 << 30))
        #expect(error.frameIndex == 16)
        #expect(error.reason == "the total frame pixels limit is exceeded (1073741825 > 1073741824)")
    }

    @Test("The total-pixel budget stops decoding at the refused frame: frames before it come out whole")
    func totalPixelsStopDecoding() throws {
        // 8 × 8 frames on an 8 × 8 canvas, a budget of 150 pixels: frames 0
        // and 1 (128 pixels) fit, frame 2 (192) does not.
        var gif = GIFBuilder(width: 8, height: 8, palette: [[0, 0, 0], [255, 255, 255]])
        for _ in 0..<4 { gif.image(width: 8, height: 8, indices: Array(repeating: 1, count: 64)) }
        gif.trailer()
        var limits = DecodingLimits()
        limits.maxTotalPixels = 150
        let image = try GIFImage(bytes: gif.bytes, limits: limits)
        var frames = image.makeFrameIterator()
        var decoded = 0
        let error = #expect(throws: GIFError.self) {
            while let frame = try frames.next() {
                #expect(frame.isComplete)
                #expect(frame.pixels == Array(repeating: [255, 255, 255, 255] as [UInt8], count: 64).flatMap { $0 })
                decoded += 1
            }
        }
        #expect(decoded == 2)
        #expect(error?.kind == .limitExceeded(.totalPixels, value: 192, maximum: 150))
        #expect(error?.frameIndex == 2)
        #expect(error?.framesDecoded == 2)
    }

    @Test("65,536 one-pixel frames on an 8192² canvas: scanned, but whole-frame output is refused at the output budget")
    func manyTinyFramesOnHugeCanvas() throws {
        let bytes = Self.manyTinyFrames
        #expect(bytes.count < 1_200_000)
        let image = try GIFImage(bytes: bytes)
        #expect(image.info.frameCount == 65_536)
        #expect(image.info.error == nil)
        let perFrame = 24 + 4 * Self.bigArea
        let error = #expect(throws: GIFError.self) {
            try image.limits.checkOutput(frames: 65_536, bytesPerFrame: perFrame)
        }
        #expect(error?.kind == .limitExceeded(.outputBytes, value: 65_536 * perFrame, maximum: 1 << 32))
        // An overflowing product saturates instead of trapping.
        let huge = #expect(throws: GIFError.self) {
            try image.limits.checkOutput(frames: .max, bytesPerFrame: .max)
        }
        #expect(huge?.kind == .limitExceeded(.outputBytes, value: .max, maximum: 1 << 32))
    }

    /// 65,536 frames of one pixel each on an 8192 × 8192 screen.
    static var manyTinyFrames: [UInt8] {
        var gif = GIFBuilder(width: side, height: side, palette: [[0, 0, 0], [255, 255, 255]])
        for i in 0..<65_536 { gif.image(x: i % side, y: i / side, width: 1, height: 1, indices: [1]) }
        gif.trailer()
        return gif.bytes
    }

    /// `count` application extensions, each an 11-byte identifier then
    /// `blocks` sub-blocks of 255 bytes: 2 + 12 + 256 × blocks + 1 bytes each.
    static func applicationExtensions(count: Int, blocks: Int) -> [UInt8] {
        var gif = GIFBuilder(width: 1, height: 1)
        var bytes = gif.bytes
        let one: [UInt8] = [0x21, 0xFF, 11] + Array("XMP DataXMP".utf8)
            + Array(repeating: [255] + Array(repeating: 0x41, count: 255), count: blocks).flatMap { $0 } + [0]
        bytes.reserveCapacity(bytes.count + count * one.count + 40)
        for _ in 0..<count { bytes += one }
        gif = GIFBuilder(width: 1, height: 1)
        gif.image(width: 1, height: 1, indices: [0])
        gif.trailer()
        return bytes + gif.bytes.dropFirst(13)
    }

    @Test("52 MB of application extensions: refused at the extension-byte budget (16 MiB)")
    func applicationExtensionsStopAtExtensionBytes() throws {
        // 800 extensions of 256 blocks: 65,551 bytes each, 52.4 MB in all.
        let each = 2 + 12 + 256 * 256 + 1
        let bytes = Self.applicationExtensions(count: 800, blocks: 256)
        #expect(bytes.count > 52_000_000)
        let image = try GIFImage(bytes: bytes)
        let limit = 16 << 20
        let refused = limit / each + 1  // the first extension past the budget
        let error = try #require(image.info.error)
        #expect(error.kind == .limitExceeded(.extensionBytes, value: refused * each, maximum: limit))
        #expect(error.byteOffset == 13 + (refused - 1) * each)
        #expect(image.info.applicationExtensions.count == refused - 1)
        #expect(image.info.frameCount == 0)
    }

    @Test("Extension blocks past the count budget are refused, naming it")
    func extensionCountBudget() throws {
        var gif = GIFBuilder(width: 1, height: 1)
        for _ in 0..<11 { gif.comment("x") }
        gif.image(width: 1, height: 1, indices: [0])
        gif.trailer()
        var limits = DecodingLimits()
        limits.maxExtensionCount = 10
        let image = try GIFImage(bytes: gif.bytes, limits: limits)
        let error = try #require(image.info.error)
        #expect(error.kind == .limitExceeded(.extensionCount, value: 11, maximum: 10))
        #expect(image.info.comments.count == 10)
        #expect(error.reason == "the extension count limit is exceeded (11 > 10)")
    }

    @Test("The uploads preset is stricter than the defaults in every budget")
    func uploadsPreset() {
        let strict = DecodingLimits.uploads, loose = DecodingLimits.default
        #expect(strict.maxCanvasPixels < loose.maxCanvasPixels)
        #expect(strict.maxFramePixels < loose.maxFramePixels)
        #expect(strict.maxFrameCount < loose.maxFrameCount)
        #expect(strict.maxInputBytes < loose.maxInputBytes)
        #expect(strict.maxTotalPixels < loose.maxTotalPixels)
        #expect(strict.maxExtensionBytes < loose.maxExtensionBytes)
        #expect(strict.maxExtensionCount < loose.maxExtensionCount)
        #expect(strict.maxOutputBytes < loose.maxOutputBytes)
        #expect(strict.maxDecodeBytes < loose.maxDecodeBytes)
        // An 8192² screen is refused at the header under the preset.
        let error = #expect(throws: GIFError.self) { try GIFImage(bytes: Self.hugeScreenTinyFrame, limits: .uploads) }
        #expect(error?.kind == .limitExceeded(.canvasPixels, value: Self.bigArea, maximum: 1 << 24))
    }
}
