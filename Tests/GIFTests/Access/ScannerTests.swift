import Testing
@testable import GIF
@_spi(Benchmarks) import GIF

/// The scanner's structural rules (the browsers'), on hand-built bytes.
@Suite struct ScannerTests {
    static let palette: [[UInt8]] = [[0, 0, 0], [255, 0, 0], [0, 255, 0], [0, 0, 255]]

    @Test func unknownBlockByteEndsTheStreamLikeATrailer() throws {
        var gif = GIFBuilder(width: 1, height: 1, palette: Self.palette)
        gif.image(width: 1, height: 1, indices: [1])
        let end = gif.bytes.count
        var bytes = gif.bytes + [0x99]
        var more = GIFBuilder(width: 1, height: 1)
        more.image(width: 1, height: 1, indices: [2])
        bytes += more.bytes.dropFirst(13)  // a frame after the unknown byte is never reached
        let info = try GIFScanner.scan(bytes)
        #expect(info.frameCount == 1)
        #expect(info.error == nil)
        #expect(info.hasTrailer == false)
        #expect(info.endOffset == end)
    }

    @Test func missingTrailerIsNotAnError() throws {
        var gif = GIFBuilder(width: 2, height: 1, palette: Self.palette)
        gif.image(width: 2, height: 1, indices: [1, 2])
        let image = try GIFImage(bytes: gif.bytes)
        #expect(image.info.error == nil)
        let frame = try image.frame(at: 0)
        #expect(frame.pixels == [255, 0, 0, 255, 0, 255, 0, 255])
    }

    @Test func lastControlExtensionWinsAndAppliesToTheNextImageOnly() throws {
        var gif = GIFBuilder(width: 1, height: 1, palette: Self.palette)
        gif.control(disposal: 3, delay: 7, transparent: 1)
        gif.control(disposal: 2, delay: 9)
        gif.image(width: 1, height: 1, indices: [1])
        gif.image(width: 1, height: 1, indices: [2])
        gif.trailer()
        let frames = try GIFScanner.scan(gif.bytes).frames
        #expect(frames[0].disposal == .restoreBackground)
        #expect(frames[0].delayCentiseconds == 9)
        #expect(frames[0].transparentIndex == nil)
        #expect(frames[1].disposal == .unspecified)
        #expect(frames[1].delayCentiseconds == 0)
        #expect(frames[1].hasControlExtension == false)
    }

    @Test(arguments: [
        ([Int](), "NETSCAPE2.0", nil as Int?, 1 as Int?),
        ([0], "NETSCAPE2.0", 0, nil),
        ([2], "NETSCAPE2.0", 2, 3),
        ([5], "ANIMEXTS1.0", 5, 6),
        ([4, 0], "NETSCAPE2.0", 0, nil),
        ([0, 1], "NETSCAPE2.0", 1, 2),
    ])
    func loopCountLatestWins(_ counts: [Int], _ identifier: String, _ stored: Int?, _ plays: Int?) throws {
        var gif = GIFBuilder(width: 1, height: 1, palette: Self.palette)
        for count in counts { gif.loop(count, identifier: identifier) }
        gif.image(width: 1, height: 1, indices: [1])
        gif.trailer()
        let loop = try GIFScanner.scan(gif.bytes).loopCount
        #expect(loop.stored == stored)
        #expect(loop.plays == plays)
    }

    @Test func commentsAndOtherApplicationExtensionsAreKept() throws {
        var gif = GIFBuilder(width: 1, height: 1, palette: Self.palette)
        gif.comment("made by hand")
        gif.loop(3, identifier: "XMP DataXMP")
        gif.image(width: 1, height: 1, indices: [1])
        gif.trailer()
        let info = try GIFScanner.scan(gif.bytes)
        #expect(info.comments == ["made by hand"])
        #expect(info.applicationExtensions.map(\.identifier) == ["XMP DataXMP"])
        #expect(info.applicationExtensions.first?.data == [1, 3, 0])
        #expect(info.loopCount.stored == nil)
    }

    /// ISO 8859-1 maps byte b to the character U+00bb: 0x41 "A", 0xE9 "é",
    /// 0xFF "ÿ", 0x80 the control U+0080.
    @Test func commentBytesAreLatin1() throws {
        var gif = GIFBuilder(width: 1, height: 1, palette: Self.palette)
        gif.bytes += [0x21, 0xFE, 4, 0x41, 0xE9, 0xFF, 0x80, 0]
        gif.image(width: 1, height: 1, indices: [1])
        gif.trailer()
        let info = try GIFScanner.scan(gif.bytes)
        #expect(info.comments == ["A\u{E9}\u{FF}\u{80}"])
        #expect(info.comments.first?.unicodeScalars.map(\.value) == [0x41, 0xE9, 0xFF, 0x80])
    }

    @Test func zeroSizeFrameCountsWithItsDelayAndItsDataIsSkipped() throws {
        var gif = GIFBuilder(width: 2, height: 1, palette: Self.palette)
        gif.image(width: 2, height: 1, indices: [1, 1])
        gif.control(delay: 25)
        gif.image(x: 1, y: 0, width: 0, height: 1, indices: [2, 2, 2])  // data present, nothing to paint
        gif.image(x: 1, y: 0, width: 1, height: 1, indices: [3])
        gif.trailer()
        let image = try GIFImage(bytes: gif.bytes)
        #expect(image.info.frameCount == 3)
        #expect(image.info.frames[1].delayCentiseconds == 25)
        #expect(try image.frame(at: 1).pixels == [255, 0, 0, 255, 255, 0, 0, 255])
        #expect(try image.frame(at: 2).pixels == [255, 0, 0, 255, 0, 0, 255, 255])
    }

    @Test func durationsSumStoredAndBrowserDelays() throws {
        var gif = GIFBuilder(width: 1, height: 1, palette: Self.palette)
        for delay in [0, 1, 2, 10] {
            gif.control(delay: delay)
            gif.image(width: 1, height: 1, indices: [1])
        }
        gif.trailer()
        let info = try GIFScanner.scan(gif.bytes)
        #expect(info.totalDuration == .milliseconds(130))
        #expect(info.browserDuration == .milliseconds(100 + 100 + 20 + 100))
    }

    @Test func truncatedHeaderAndTablesAreTypedErrors() {
        #expect(throws: GIFError(.truncated(block: .logicalScreenDescriptor), byteOffset: 6)) {
            try GIFScanner.scan(Array("GIF89a\u{1}\0".utf8))
        }
        let header = GIFBuilder(width: 1, height: 1, palette: Self.palette).bytes
        #expect(throws: GIFError(.truncated(block: .globalColorTable), byteOffset: 13)) {
            try GIFScanner.scan(Array(header.prefix(20)))
        }
    }

    @Test func fileCutInsideAFrameKeepsEarlierFramesAndNamesTheCutOne() throws {
        var gif = GIFBuilder(width: 4, height: 1, palette: Self.palette)
        gif.image(width: 4, height: 1, indices: [1, 1, 1, 1])
        let firstEnd = gif.bytes.count
        gif.image(width: 4, height: 1, indices: [2, 2, 2, 2])
        // Descriptor (10), code size (1), sub-block length (1), then 3 of the
        // data bytes: 24 bits hold the 9-bit clear code and one literal.
        let cut = Array(gif.bytes.prefix(firstEnd + 15))
        let image = try GIFImage(bytes: cut)
        var frames = image.makeFrameIterator()
        #expect(try frames.next()?.isComplete == true)
        let partial = try #require(try frames.next())
        #expect(partial.isComplete == false)
        // The one decoded pixel is drawn; the rest keep frame 0's red.
        let red: [UInt8] = [255, 0, 0, 255], green: [UInt8] = [0, 255, 0, 255]
        #expect(partial.pixels == green + red + red + red)
        let error = try #require(throws: GIFError.self) { try frames.next() }
        #expect(error.kind == .truncated(block: .imageData))
        #expect(error.frameIndex == 1)
        #expect(error.framesDecoded == 2)
        #expect(try frames.next() == nil)
    }
}
