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
    static func feed(_ head: [UInt8], endlessUpTo most: Int) throws -> IncrementalGIF {
        var gif = IncrementalGIF()
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
        var gif = IncrementalGIF()
        let error = #expect(throws: GIFError.self) { try gif.append(header) }
        #expect(error?.kind == .limitExceeded(.canvasPixels, value: 65535 * 65535, maximum: 1 << 26))
        #expect(error?.byteOffset == 6)
        #expect(gif.isComplete)
    }

    @Test("A first frame that grows the canvas past its limit is refused at its descriptor, before its data ends")
    func canvasGrownByTheFirstFrame() throws {
        var head = GIFBuilder(width: 1, height: 1).bytes
        head += [0x2C] + GIFBuilder.le16(60000) + GIFBuilder.le16(60000) + GIFBuilder.le16(1) + GIFBuilder.le16(1) + [0, 8]
        var gif = IncrementalGIF()
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

    /// An image made from the stream (as a frame source's seeker holds one)
    /// shares the bytes: appends write past them in place, and the stream
    /// moves to new memory only when its buffer doubles.
    @Test("Appends while images of the stream are held do not copy the bytes each time")
    func appendsDoNotCopyHeldBytes() throws {
        var builder = GIFBuilder(width: 4, height: 4)
        for _ in 0..<2000 { builder.image(width: 4, height: 4, indices: [UInt8](repeating: 0, count: 16)) }
        let bytes = builder.bytes
        var gif = IncrementalGIF()
        var held: [GIFImage] = []
        var buffers = Set<UnsafeRawPointer>()
        var start = 0
        for end in stride(from: 64, through: bytes.count, by: 64) {
            try gif.append(bytes[start..<end])
            start = end
            guard let image = gif.image else { continue }
            held = [image]  // one image held at a time, as a seeker does
            _ = image.arrivedBytes?.withUnsafeBufferPointer { buffers.insert(UnsafeRawPointer($0.baseAddress!)) }
        }
        #expect(held.count == 1)
        // Doubling from 64 bytes to the whole file: about log2(size / 64) buffers.
        #expect(buffers.count <= 16, "\(buffers.count) buffers for \(bytes.count / 64) appends")
    }
}
