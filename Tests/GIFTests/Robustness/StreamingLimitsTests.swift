import Testing
@testable import GIF

/// A stream gets each limit the moment the value it bounds is known, so a
/// block that never ends is refused at the limit it passes, not at the input
/// limit: the canvas at the logical screen and at the first frame's
/// descriptor, a frame's size at its descriptor, extensions as their bytes
/// arrive. The streams are made as they are fed, a chunk at a time.
@Suite("Limits while streaming")
struct StreamingLimitsTests {
    /// `count` bytes of sub-blocks of 255 bytes, never terminated.
    static func endlessSubBlocks(_ count: Int) -> [UInt8] {
        var chunk: [UInt8] = []
        chunk.reserveCapacity(count)
        while chunk.count < count { chunk += [255] + [UInt8](repeating: 0x41, count: 255) }
        return Array(chunk.prefix(count))
    }

    /// Feeds `head` and then endless sub-blocks in 64 KiB chunks until the
    /// stream is over or `most` bytes were fed; returns the stream.
    static func feed(_ head: [UInt8], endlessUpTo most: Int, limits: DecodingLimits = .default) throws -> ProgressiveGIF {
        var gif = ProgressiveGIF(limits: limits)
        try gif.append(head)
        let chunk = endlessSubBlocks(1 << 16)
        while !gif.isComplete, gif.receivedByteCount < most {
            try gif.append(chunk)
        }
        return gif
    }

    @Test("A 65535 × 65535 logical screen is refused at its descriptor, naming byte 6")
    func hugeScreen() {
        let header = GIFBuilder(width: 65535, height: 65535).bytes
        var gif = ProgressiveGIF()
        let error = #expect(throws: GIFError.self) { try gif.append(header) }
        #expect(error?.kind == .limitExceeded(.canvasPixels, value: 65535 * 65535, maximum: 1 << 26))
        #expect(error?.byteOffset == 6)
        #expect(gif.isComplete)
    }

    @Test("A first frame that grows the canvas past its limit is refused at its descriptor, before its data ends")
    func canvasGrownByTheFirstFrame() throws {
        var head = GIFBuilder(width: 1, height: 1).bytes
        head += [0x2C] + GIFBuilder.le16(60000) + GIFBuilder.le16(60000) + GIFBuilder.le16(1) + GIFBuilder.le16(1) + [0, 8]
        var gif = ProgressiveGIF()
        let error = #expect(throws: GIFError.self) { try gif.append(head + Self.endlessSubBlocks(4096)) }
        #expect(error?.kind == .limitExceeded(.canvasPixels, value: 60001 * 60001, maximum: 1 << 26))
        #expect(error?.byteOffset == 6)
    }

    @Test("A 65535 × 65535 frame followed by endless data is refused at its descriptor")
    func hugeFrame() throws {
        var head = GIFBuilder(width: 1, height: 1).bytes
        let descriptor = head.count
        head += [0x2C, 0, 0, 0, 0] + GIFBuilder.le16(65535) + GIFBuilder.le16(65535) + [0, 8]
        var gif = try Self.feed(head, endlessUpTo: 1 << 20)
        #expect(gif.isComplete)
        let error = #expect(throws: GIFError.self) { _ = try gif.nextFrame() }
        #expect(error?.kind == .limitExceeded(.framePixels, value: 65535 * 65535, maximum: 1 << 26))
        #expect(error?.byteOffset == descriptor)
    }

    /// A comment, and an application extension's data, whose sub-blocks never
    /// end: refused once they pass the 16 MiB extension limit.
    @Test("An extension whose sub-blocks never end is refused at the extension limit", arguments: [0xFE, 0xFF] as [UInt8])
    func endlessExtension(label: UInt8) throws {
        var head = GIFBuilder(width: 1, height: 1).bytes
        let start = head.count
        head += [0x21, label]
        if label == 0xFF { head += [11] + Array("XYZWABCD1.0".utf8) }
        let limit = DecodingLimits.default.maxExtensionBytes
        var gif = try Self.feed(head, endlessUpTo: 2 * limit)
        #expect(gif.isComplete)
        #expect(gif.receivedByteCount <= limit + start + (1 << 16))
        let error = #expect(throws: GIFError.self) { _ = try gif.nextFrame() }
        guard case .limitExceeded(.extensionBytes, let value, limit)? = error?.kind else {
            Issue.record("\(String(describing: error))")
            return
        }
        #expect(value > limit)
        #expect(error?.byteOffset == start)
    }

    /// 2,000 4 × 4 frames fed 64 bytes at a time, each image of the stream
    /// handed to `hold` (as a frame source's seeker takes one): the bytes,
    /// and the buffers the images read.
    static func feedHoldingImages(_ hold: (GIFImage) -> Void) throws -> (bytes: [UInt8], buffers: Set<UnsafeRawPointer>) {
        var builder = GIFBuilder(width: 4, height: 4)
        for i in 0..<2000 { builder.image(width: 4, height: 4, indices: [UInt8](repeating: UInt8(i % 2), count: 16)) }
        let bytes = builder.bytes
        var gif = ProgressiveGIF()
        var buffers = Set<UnsafeRawPointer>()
        var start = 0
        for end in stride(from: 64, through: bytes.count, by: 64) {
            try gif.append(bytes[start..<end])
            start = end
            guard let image = gif.image else { continue }
            hold(image)
            _ = image.arrivedBytes?.withUnsafeBufferPointer { buffers.insert(UnsafeRawPointer($0.baseAddress!)) }
        }
        return (bytes, buffers)
    }

    /// An image made from the stream (as a frame source's seeker holds one)
    /// shares the bytes: appends write past them in place. Every image is
    /// kept, so a buffer given up cannot hand its address to the next.
    @Test("Appends while images of the stream are held do not copy the bytes each time")
    func appendsDoNotCopyHeldBytes() throws {
        var held: [GIFImage] = []
        let (bytes, buffers) = try Self.feedHoldingImages { held.append($0) }
        #expect(held.count > 1000)
        // At most one buffer per doubling from 64 bytes to the whole file.
        #expect(buffers.count <= 16, "\(buffers.count) buffers for \(bytes.count / 64) appends")
    }

    /// A 10 × 10 frame whose data sub-blocks never end (no pixel count bounds
    /// them: clear codes, or bytes past the last pixel, make none) is refused
    /// once they pass the frame data limit, at the length byte of the
    /// sub-block that passes it, not at the input limit.
    @Test("A small frame whose data never ends is refused at the frame data limit, naming the sub-block")
    func endlessFrameData() throws {
        var head = GIFBuilder(width: 10, height: 10).bytes
        head += [0x2C, 0, 0, 0, 0] + GIFBuilder.le16(10) + GIFBuilder.le16(10) + [0]
        let data = head.count
        head.append(8)  // LZW code size; then sub-blocks of 1 + 255 bytes
        var limits = DecodingLimits()
        limits.maxFrameDataBytes = 1 << 20
        var gif = try Self.feed(head, endlessUpTo: 8 << 20, limits: limits)
        #expect(gif.isComplete)
        #expect(gif.receivedByteCount <= data + (1 << 20) + (1 << 16))
        let error = #expect(throws: GIFError.self) { _ = try gif.nextFrame() }
        // The data is 1 + 256·k bytes after k sub-blocks: the 4,096th takes
        // it past 2²⁰; its length byte is at 1 + 256·4,095.
        #expect(error?.kind == .limitExceeded(.frameDataBytes, value: 1 + 256 * 4096, maximum: 1 << 20))
        #expect(error?.byteOffset == data + 1 + 256 * 4095)
        #expect(error?.frameIndex == 0)
    }

    /// Frame 0, then a 10 × 10 frame whose LZW data (one sub-block of 115
    /// bytes after the code size) is followed by 16 sub-blocks of padding
    /// that a decoder skips: 117 + 16 · 256 = 4,213 bytes of data.
    static func paddedFrameFile() -> (bytes: [UInt8], dataOffset: Int, pixels: [UInt8]) {
        let palette: [[UInt8]] = [[255, 0, 0], [0, 0, 255]]
        var builder = GIFBuilder(width: 10, height: 10, palette: palette)
        builder.image(width: 10, height: 10, indices: [UInt8](repeating: 0, count: 100))
        let indices = (0..<100).map { UInt8($0 % 2) }
        builder.bytes += [0x2C, 0, 0, 0, 0] + GIFBuilder.le16(10) + GIFBuilder.le16(10) + [0]
        let dataOffset = builder.bytes.count
        let lzw = GIFBuilder.lzw(indices)
        builder.bytes += lzw.dropLast()
        for _ in 0..<16 { builder.bytes += [255] + [UInt8](repeating: 0, count: 255) }
        builder.bytes.append(0)
        builder.trailer()
        let pixels: [UInt8] = indices.flatMap { palette[Int($0)] + [255] }
        return (builder.bytes, dataOffset, pixels)
    }

    @Test("A frame's data is refused one byte past the frame data limit, whole or streamed, and read up to it")
    func frameDataLimitEdge() throws {
        let (bytes, dataOffset, pixels) = Self.paddedFrameFile()
        // At the limit: both frames, the second with the pixels it encodes.
        var limits = DecodingLimits()
        limits.maxFrameDataBytes = 4213
        let image = try GIFImage(bytes: bytes, limits: limits)
        #expect(image.info.error == nil)
        #expect(try image.frame(at: 1).pixels == pixels)
        // One byte under: frame 0 kept, frame 1 refused at its last padding
        // sub-block's length byte, in the whole file and in a stream of it.
        limits.maxFrameDataBytes = 4212
        let expected = GIFError(
            .limitExceeded(.frameDataBytes, value: 4213, maximum: 4212),
            frameIndex: 1, byteOffset: dataOffset + 117 + 15 * 256, framesDecoded: 1)
        let whole = try GIFImage(bytes: bytes, limits: limits)
        #expect(whole.info.frameCount == 1)
        #expect(whole.info.error == expected)
        var gif = ProgressiveGIF(limits: limits)
        for start in stride(from: 0, to: bytes.count, by: 97) {
            try gif.append(bytes[start..<min(start + 97, bytes.count)])
        }
        #expect(gif.isComplete)
        #expect(try gif.nextFrame() != nil)
        let error = #expect(throws: GIFError.self) { _ = try gif.nextFrame() }
        #expect(error == expected)
    }

    /// The default admits what a valid encoder can write for the largest
    /// frame: at most 12 bits a pixel (the widest LZW code, each code at
    /// least one pixel), a length byte per 255 bytes, a clear code per
    /// 4,096 − 258 codes.
    @Test("The default frame data limit admits 12-bit codes for every pixel of the largest frame")
    func defaultFrameDataLimit() {
        for limits in [DecodingLimits.default, .uploads] {
            let codes = limits.maxFramePixels + limits.maxFramePixels / (4096 - 258) + 2
            let packed = (codes * 12 + 7) / 8
            let data = 1 + packed + (packed + 254) / 255
            #expect(limits.maxFrameDataBytes >= data)
            #expect(limits.maxFrameDataBytes < limits.maxInputBytes)
        }
    }

    /// While an image of the stream is held (as a frame source's seeker
    /// holds one), the stream's buffer grows where it is: the held image and
    /// the stream read the same memory, so the bytes are never in two
    /// buffers at once, and the held image still reads what it had.
    @Test("Appends while an image of the stream is held grow the one buffer in place")
    func appendsGrowInPlaceWhileHeld() throws {
        var first: GIFImage?
        let (bytes, buffers) = try Self.feedHoldingImages { if first == nil { first = $0 } }  // held throughout
        #expect(buffers.count == 1, "\(buffers.count) buffers for \(bytes.count / 64) appends")
        let held = try #require(first?.bytes)
        #expect(held == Array(bytes[..<held.count]))
    }
}
