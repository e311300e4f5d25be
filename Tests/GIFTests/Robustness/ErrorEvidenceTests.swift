import Foundation
import Testing
@testable import GIF

/// `GIFError` carries typed evidence: the block a file ends in,
/// the LZW code and the next free table entry, the `errno` of a failed read;
/// its `description` reads as it always has.
@Suite struct ErrorEvidenceTests {
    static let palette: [[UInt8]] = [[255, 0, 0], [0, 255, 0], [0, 0, 255], [255, 255, 255]]

    /// A `width` × `height` frame whose LZW data (code size 2: clear 4, end
    /// 5, first free entry 6) is `data`, one sub-block.
    static func gif(lzw data: [UInt8], width: Int = 2, height: Int = 1) -> [UInt8] {
        var bytes = GIFBuilder(width: width, height: height, palette: palette).bytes
        bytes += [0x2C, 0, 0, 0, 0] + GIFBuilder.le16(width) + GIFBuilder.le16(height) + [0]
        bytes += [2, UInt8(data.count)] + data + [0, 0x3B]
        return bytes
    }

    @Test func badCodeNamesTheCodeAndTheNextFreeEntry() throws {
        // 3-bit codes, least significant bit first: clear (4), literal 0, then
        // 7. A literal after a clear adds no entry, so 6 is the next free one
        // and 7 lies past it: 100, 000, 111 → bytes 0xC4 0x01.
        let image = try GIFImage(bytes: Self.gif(lzw: [0xC4, 0x01]))
        var frames = image.makeFrameIterator()
        let partial = try #require(try frames.next())
        #expect(!partial.isComplete)
        let error = try #require(throws: GIFError.self) { try frames.next() }
        #expect(error.kind == .badLZWCode(code: 7, nextFree: 6))
        #expect(error.frameIndex == 0)
        #expect(error.description.hasPrefix("the image data holds an invalid LZW code (7) (frame 0, byte "))
        #expect(error.description.hasSuffix("; 1 frame decoded)"))
    }

    /// The same bad code at the start of a 256 × 256 frame: the one pixel
    /// before it is shown, the rest of the canvas is untouched.
    @Test func aBadCodeInALargeFrameStopsThereToo() throws {
        let image = try GIFImage(bytes: Self.gif(lzw: [0xC4, 0x01], width: 256, height: 256))
        var frames = image.makeFrameIterator()
        let partial = try #require(try frames.next())
        #expect(!partial.isComplete)
        // The one pixel before the bad code is palette entry 0, red; the rest
        // of the canvas stays transparent black.
        #expect(Array(partial.pixels[0..<8]) == [255, 0, 0, 255, 0, 0, 0, 0])
        #expect(partial.pixels[8...].allSatisfy { $0 == 0 })
        let error = try #require(throws: GIFError.self) { try frames.next() }
        #expect(error.kind == .badLZWCode(code: 7, nextFree: 6))
        #expect(try image.rawFrame(at: 0).decodedPixelCount == 1)
    }

    @Test func aFirstCodeAfterAClearMustBeALiteral() throws {
        // Clear (4), then 6: no entry exists yet, so nothing is decoded.
        let image = try GIFImage(bytes: Self.gif(lzw: [0x34]))
        var frames = image.makeFrameIterator()
        let error = try #require(throws: GIFError.self) { try frames.next() }
        #expect(error.kind == .badLZWCode(code: 6, nextFree: 6))
        #expect(error.framesDecoded == 0)
    }

    @Test func aFailedReadKeepsItsErrno() {
        let path = "/nonexistent/missing.gif"
        let error = #expect(throws: GIFError.self) { try GIFImage(contentsOf: path) }
        #expect(error?.kind == .io(path: path, errno: GIFError.Errno(rawValue: ENOENT)))
        #expect(error?.description == "cannot read \(path): \(String(cString: strerror(ENOENT)))")
    }

    @Test func truncationsNameTheirBlock() throws {
        var gif = GIFBuilder(width: 1, height: 1, palette: Self.palette)
        let header = gif.bytes.count
        gif.image(width: 1, height: 1, indices: [1], palette: Self.palette)
        // Cut inside the image descriptor, then inside the local colour table.
        let descriptor = try GIFImage(bytes: Array(gif.bytes.prefix(header + 5)))
        #expect(descriptor.info.error?.kind == .truncated(block: .imageDescriptor))
        #expect(descriptor.info.error?.reason == "the file ends inside the image descriptor")
        let table = try GIFImage(bytes: Array(gif.bytes.prefix(header + 12)))
        #expect(table.info.error?.kind == .truncated(block: .localColorTable))
        #expect(table.info.error?.reason == "the file ends inside the local colour table")
    }
}
