import Testing
@testable import GIF

/// The NIA and Netpbm writers on a picture built so that every pixel is
/// known: bytes checked against the NIA layout Wuffs publishes and the Netpbm
/// formats, and the streaming (append) form against the array form.
@Suite struct WriterTests {
    /// Red, green, blue, white.
    static let palette: [[UInt8]] = [[255, 0, 0], [0, 255, 0], [0, 0, 255], [255, 255, 255]]

    /// A 3 × 1 canvas (an odd pixel count), delay 7 cs, index 3 transparent:
    /// red, green, transparent.
    static func image(frames: Int = 1) throws -> GIFImage {
        var gif = GIFBuilder(width: 3, height: 1, palette: palette)
        if frames > 1 { gif.loop(2) }
        for _ in 0..<frames {
            gif.control(delay: 7, transparent: 3)
            gif.image(width: 3, height: 1, indices: [0, 1, 3])
        }
        gif.trailer()
        return try GIFImage(bytes: gif.bytes)
    }

    static func le32(_ value: UInt32) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)]
    }

    /// One NIA frame of the picture: time in flicks (7 cs = 49,392,000), the
    /// frame magic, 3 × 1, then B G R A per pixel and 4 bytes of padding.
    static func niaFrame(flicks: UInt64) -> [UInt8] {
        le32(UInt32(flicks & 0xFFFF_FFFF)) + le32(UInt32(flicks >> 32))
            + [0x6E, 0xC3, 0xAF, 0x45, 0xFF, 0x62, 0x6E, 0x34] + le32(3) + le32(1)
            + [0, 0, 255, 255] + [0, 255, 0, 255] + [0, 0, 0, 0] + [0, 0, 0, 0]
    }

    @Test func niaBytesFollowTheLayout() throws {
        let (bytes, error) = NIAWriter.encode(try Self.image())
        #expect(error == nil)
        let header = [0x6E, 0xC3, 0xAF, 0x41, 0xFF, 0x62, 0x6E, 0x34] + Self.le32(3) + Self.le32(1)
        // One frame: 0 plays, then the footer's end marker.
        #expect(bytes == header + Self.niaFrame(flicks: 49_392_000) + Self.le32(0) + [0, 0, 0, 0x80])
        #expect(NIAWriter.frameByteCount(PixelSize(width: 3, height: 1)) == Self.niaFrame(flicks: 0).count)
    }

    @Test func niaStreamedThroughOneBufferEqualsTheArrays() throws {
        let image = try Self.image(frames: 3)
        var arrays = NIAWriter(canvasSize: image.info.canvasSize)
        var streamed = NIAWriter(canvasSize: image.info.canvasSize)
        var whole = arrays.header()
        var stream: [UInt8] = []
        var buffer: [UInt8] = []
        streamed.appendHeader(to: &buffer)
        var frames = image.makeFrameIterator()
        var storage: Set<UnsafeRawPointer?> = []
        while let frame = try frames.next() {
            whole += arrays.frame(frame)
            streamed.appendFrame(frame, to: &buffer)
            stream += buffer
            // Emptied with its capacity kept: the same storage every frame.
            buffer.removeAll(keepingCapacity: true)
            storage.insert(buffer.withUnsafeBytes { $0.baseAddress })
        }
        whole += arrays.footer(loopCount: image.info.loopCount)
        streamed.appendFooter(loopCount: image.info.loopCount, to: &stream)
        #expect(stream == whole)
        #expect(storage.count == 1)
        // Stored 2 means 3 plays; each frame's time is cumulative.
        #expect(Array(whole.suffix(8)) == Self.le32(3) + [0, 0, 0, 0x80])
        #expect(Array(whole[16..<56]) == Self.niaFrame(flicks: 49_392_000))
        #expect(Array(whole[96..<136]) == Self.niaFrame(flicks: 3 * 49_392_000))
    }

    @Test func ppmShowsTransparencyOverTheBackground() throws {
        let frame = try Self.image().frame(at: 0)
        let header = Array("P6\n3 1\n255\n".utf8)
        #expect(PNMWriter.ppm(frame) == header + [255, 0, 0, 0, 255, 0, 255, 255, 255])
        let black = PNMWriter.Background(red: 0, green: 0, blue: 0)
        var buffer: [UInt8] = [9]
        PNMWriter.appendPPM(frame, background: black, to: &buffer)
        #expect(buffer == [9] + header + [255, 0, 0, 0, 255, 0, 0, 0, 0])
    }

    @Test func ppmBlendsPartialAlpha() throws {
        var frame = try Self.image().frame(at: 0)
        // Alpha 51 (a fifth): 255 × 51 / 255 over black is 51.
        frame.pixels[3] = 51
        let black = PNMWriter.Background(red: 0, green: 0, blue: 0)
        #expect(Array(PNMWriter.ppm(frame, background: black).suffix(9)) == [51, 0, 0, 0, 255, 0, 0, 0, 0])
    }

    @Test func pamKeepsAlpha() throws {
        let frame = try Self.image().frame(at: 0)
        let header = Array("P7\nWIDTH 3\nHEIGHT 1\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n".utf8)
        #expect(PNMWriter.pam(frame) == header + [255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 0, 0])
    }

    @Test func framesBuiltByHandAreClampedNotTrapped() throws {
        var frame = try Self.image().frame(at: 0)
        // Pixels for one of the three stated pixels: the rest are written as
        // transparent black.
        frame.pixels = [255, 0, 0, 255]
        var nia = NIAWriter(canvasSize: frame.size)
        #expect(Array(nia.frame(frame).suffix(16)) == [0, 0, 255, 255] + [0, 0, 0, 0] + [0, 0, 0, 0] + [0, 0, 0, 0])
        #expect(Array(PNMWriter.ppm(frame).suffix(9)) == [255, 0, 0, 255, 255, 255, 255, 255, 255])
        #expect(Array(PNMWriter.pam(frame).suffix(12)) == [255, 0, 0, 255] + [UInt8](repeating: 0, count: 8))
        // A negative or huge side is clamped to 0...65,535.
        frame.size = PixelSize(width: -5, height: Int.max)
        #expect(nia.frame(frame).count == 24)
        #expect(PNMWriter.ppm(frame) == Array("P6\n0 65535\n255\n".utf8))
        #expect(NIAWriter.frameByteCount(PixelSize(width: Int.max, height: Int.max)) == 24 + 65_535 * 65_535 * 4 + 4)
    }

    @Test func decimalHeadersNeedNoStrings() {
        for value in [0, 7, 10, 99, 100, 65_535] {
            var out: [UInt8] = []
            PNMWriter.appendDecimal(value, to: &out)
            #expect(out == Array(String(value).utf8))
        }
    }
}
