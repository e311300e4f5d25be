import Testing
@testable import GIF

/// A seeker's frames, in any order and with any budget, are the frames the
/// sequential iterator composites.
@Suite struct FrameSeekerTests {
    static let files = [
        "image-gif/samples/gifplayer-muybridge.gif",
        "blink/animated.gif",
        "blink/animated-10color.gif",
        "pillow/dispose_prev.gif",
        "pillow/dispose_bgnd.gif",
        "blink/size-failure.gif",
        "blink/wrong-block-length.gif",
        "pillow/dispose_prev_first_frame.gif",
    ]

    static func checksums(_ image: GIFImage) -> [UInt32] {
        var iterator = image.makeFrameIterator()
        var sums: [UInt32] = []
        while let frame = try? iterator.next() { sums.append(CRC32.checksum(frame.pixels)) }
        return sums
    }

    /// Frame indices in a scrambled but fixed order, with repeats and
    /// backward jumps.
    static func order(_ count: Int) -> [Int] {
        (0..<2 * count).map { ($0 * 7919 + 13) % count } + [count - 1, 0, count - 1]
    }

    @Test(arguments: files)
    func seekingMatchesSequential(_ file: String) throws {
        let path = Corpus.path(file)
        guard let image = try? GIFImage(contentsOf: path), image.info.frameCount > 0 else { return }
        let expected = Self.checksums(image)
        // The default budget, and budgets that fit only a few canvases.
        for budget in [FrameSeeker.defaultMemoryBudget, image.info.canvasSize.area * 4 * 3, 1] {
            var seeker = image.makeSeeker(memoryBudget: budget)
            // Every frame, twice, with the default budget on small files; with
            // small budgets or large files (a debug build checksums slowly), a
            // shorter tour and its backward jumps.
            let order = Self.order(expected.count)
            let small = image.info.canvasSize.area * expected.count < 4_000_000
            let tour = budget == FrameSeeker.defaultMemoryBudget && small
                ? order : Array(order.prefix(48)) + order.suffix(3)
            for index in tour {
                let frame = try seeker.frame(at: index)
                #expect(frame.index == index)
                #expect(CRC32.checksum(frame.pixels) == expected[index], "frame \(index), budget \(budget)")
            }
        }
    }

    @Test func checkpointsStayWithinTheBudget() throws {
        let image = try Fixture.open("demo.gif")
        let canvas = image.info.canvasSize.area * 4
        var seeker = image.makeSeeker(memoryBudget: canvas * 10)
        try seeker.prepare()
        #expect(seeker.checkpointCount <= 10)
        #expect(seeker.checkpointInterval == (image.info.frameCount + 9) / 10)
        #expect(try seeker.frame(at: 200) == image.frame(at: 200))
    }

    @Test func copyFrameDrawsIntoTheGivenStorage() throws {
        let image = try Fixture.open("demo.gif")
        var seeker = image.makeSeeker()
        var pixels: [UInt8] = []
        #expect(try seeker.copyFrame(at: 0, into: &pixels))
        #expect(pixels == (try image.frame(at: 0).pixels))
        let storage = pixels.withUnsafeBytes { $0.baseAddress }
        // Forward, back past a checkpoint, to the end and round to the start.
        for index in [1, 2, 100, 3, 239, 0] {
            #expect(try seeker.copyFrame(at: index, into: &pixels))
            #expect(pixels == (try image.frame(at: index).pixels), "frame \(index)")
            #expect(pixels.withUnsafeBytes { $0.baseAddress } == storage, "frame \(index) reused the storage")
        }
    }

    @Test func outOfRangeThrows() throws {
        let image = try Fixture.open("demo.gif")
        var seeker = image.makeSeeker()
        #expect(throws: GIFError.self) { try seeker.frame(at: image.info.frameCount) }
        #expect(throws: GIFError.self) { try seeker.frame(at: -1) }
    }
}
