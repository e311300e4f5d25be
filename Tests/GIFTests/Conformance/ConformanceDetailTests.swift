import Testing
@testable import GIF

/// Two of the browsers' rules found on held-out files,
/// each pinned with a file built byte by byte.
@Suite struct ConformanceDetailTests {
    static let palette: [[UInt8]] = [[0, 0, 0], [255, 0, 0]]
    static let red: [UInt8] = [255, 0, 0, 255]

    /// The NIA footer's 8 bytes for `plays`.
    static func footer(_ plays: UInt32) -> [UInt8] {
        [UInt8(plays & 0xFF), UInt8(plays >> 8 & 0xFF), UInt8(plays >> 16 & 0xFF), UInt8(plays >> 24), 0, 0, 0, 0x80]
    }

    /// Two 1 × 1 frames, with loop extensions where asked.
    static func twoFrames(before: Int? = nil, between: Int? = nil, after: Int? = nil) -> [UInt8] {
        var gif = GIFBuilder(width: 1, height: 1, palette: palette)
        if let before { gif.loop(before) }
        gif.image(width: 1, height: 1, indices: [1])
        if let between { gif.loop(between) }
        gif.image(width: 1, height: 1, indices: [1])
        if let after { gif.loop(after) }
        gif.trailer()
        return gif.bytes
    }

    // "A loop extension that comes after the last frame … still counts for
    // playback …, but the NIA footer records the loop count known when the
    // last frame was read."
    @Test("A loop extension after the last frame counts for playback, not for the NIA footer",
          arguments: [
            // (before, between, after, plays in the footer, stored for playback)
            (nil, nil, 5, 1, 5),        // none known at the last frame: 1 play
            (2, nil, 7, 3, 7),          // stored 2 known: 3 plays
            (nil, 0, 9, 0, 9),          // forever, read before the last frame
            (4, nil, nil, 5, 4),        // no late extension: the usual rule
          ] as [(Int?, Int?, Int?, UInt32, Int)])
    func loopAfterLastFrame(before: Int?, between: Int?, after: Int?, plays: UInt32, stored: Int) throws {
        let image = try GIFImage(bytes: Self.twoFrames(before: before, between: between, after: after))
        #expect(image.info.loopCount.stored == stored)
        let nia = NIAWriter.encode(image)
        #expect(nia.error == nil)
        #expect(Array(nia.bytes.suffix(8)) == Self.footer(plays))
    }

    /// A 2 × 1 canvas: frame 0 paints both pixels red (disposal as given),
    /// frame 1 covers it with image data that holds nothing but the LZW
    /// minimum code size and a block terminator.
    static func emptySecondFrame(disposal: UInt8) -> [UInt8] {
        var gif = GIFBuilder(width: 2, height: 1, palette: palette)
        gif.control(disposal: disposal, delay: 5)
        gif.image(width: 2, height: 1, indices: [1, 1])
        gif.control(delay: 7)
        var bytes = gif.bytes
        bytes += [0x2C, 0, 0, 0, 0, 2, 0, 1, 0, 0]  // descriptor: 2 × 1 at (0, 0), no local table
        bytes += [2, 0]                             // code size 2, then the block terminator
        return bytes + [0x3B]
    }

    // "A frame whose image data holds no pixels at all … still counts as a
    // frame: it is shown as the canvas it leaves (NIA writes that frame), and
    // the error follows it."
    @Test("A frame with no image data at all is shown as the canvas it leaves, then the error",
          arguments: [(UInt8(1), Array(repeating: red, count: 2).flatMap { $0 }),  // kept: still red
                      (UInt8(2), Array(repeating: 0, count: 8))] as [(UInt8, [UInt8])])  // cleared: transparent black
    func frameWithoutImageData(disposal: UInt8, shown: [UInt8]) throws {
        let image = try GIFImage(bytes: Self.emptySecondFrame(disposal: disposal))
        #expect(image.info.frameCount == 2)
        #expect(image.info.frames[1].hasNoImageData)
        var frames = image.makeFrameIterator()
        let first = try #require(try frames.next())
        #expect(first.isComplete && first.pixels == Array(repeating: Self.red, count: 2).flatMap { $0 })
        let second = try #require(try frames.next())
        #expect(second.index == 1)
        #expect(!second.isComplete)
        #expect(second.pixels == shown)
        let error = #expect(throws: GIFError.self) { try frames.next() }
        #expect(error?.kind == .notEnoughImageData)
        #expect(error?.frameIndex == 1)
        #expect(error?.framesDecoded == 2)
        #expect(try frames.next() == nil)

        // NIA writes both frames, then the footer; the error is reported.
        let nia = NIAWriter.encode(image)
        #expect(nia.error?.kind == .notEnoughImageData)
        let frameBytes = 8 + 16 + 2 * 4  // flicks, still-image header, 2 pixels (even: no padding)
        #expect(nia.bytes.count == 16 + 2 * frameBytes + 8)
        // The second frame's pixels in B, G, R, A order, after 12 cs.
        let secondStart = 16 + frameBytes
        let flicks = nia.bytes[secondStart..<secondStart + 8].reversed().reduce(0) { $0 << 8 | UInt64($1) }
        #expect(flicks == 12 * 7_056_000)
        let bgra = shown.chunks4.flatMap { [$0[2], $0[1], $0[0], $0[3]] }
        #expect(Array(nia.bytes[secondStart + 24..<secondStart + 32]) == bgra)
    }

    @Test("The parallel iterator and the seeker agree on a frame with no image data")
    func frameWithoutImageDataElsewhere() throws {
        let image = try GIFImage(bytes: Self.emptySecondFrame(disposal: 1))
        var parallel = FrameIterator(image: image, forceParallel: true)
        _ = try parallel.next()
        #expect(try parallel.next()?.pixels == Array(repeating: Self.red, count: 2).flatMap { $0 })
        #expect(throws: GIFError.self) { try parallel.next() }
        #expect(try image.frame(at: 1).pixels == Array(repeating: Self.red, count: 2).flatMap { $0 })
    }
}

private extension Array where Element == UInt8 {
    /// Consecutive groups of four bytes.
    var chunks4: [[UInt8]] { stride(from: 0, to: count, by: 4).map { Array(self[$0..<$0 + 4]) } }
}
