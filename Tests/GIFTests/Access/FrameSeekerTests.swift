import Testing
@_spi(Benchmarks) @testable import GIF

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

    static func checksums(_ image: GIFImage) -> [Int] {
        var iterator = image.makeFrameIterator()
        var sums: [Int] = []
        while let frame = try? iterator.next() { sums.append(digest(frame.pixels)) }
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
        for budget in [DecodingBudget.default.checkpointBytes, image.info.canvasSize.area * 4 * 3, 1] {
            var seeker = image.makeSeeker(
                budget: DecodingBudget(checkpointBytes: budget, indexBytes: DecodingBudget.default.indexBytes))
            // Every frame, twice, with the default budget on small files; with
            // small budgets or large files (a debug build checksums slowly), a
            // shorter tour and its backward jumps.
            let order = Self.order(expected.count)
            let small = image.info.canvasSize.area * expected.count < 4_000_000
            let tour = budget == DecodingBudget.default.checkpointBytes && small
                ? order : Array(order.prefix(48)) + order.suffix(3)
            for index in tour {
                let frame = try seeker.frame(at: index)
                #expect(frame.index == index)
                #expect(digest(frame.pixels) == expected[index], "frame \(index), budget \(budget)")
            }
        }
    }

    @Test func checkpointsStayWithinTheBudget() throws {
        let image = try Fixture.open("demo.gif")
        let canvas = image.info.canvasSize.area * 4
        var seeker = image.makeSeeker(
            budget: DecodingBudget(checkpointBytes: canvas * 10, indexBytes: DecodingBudget.default.indexBytes))
        try seeker.prepare()
        #expect(seeker.checkpointCount <= 10)
        #expect(seeker.checkpointInterval == (image.info.frameCount + 9) / 10)
        #expect(try seeker.frame(at: 200) == image.frame(at: 200))
    }

    /// The browsers' rule: a frame whose data ends part-way is shown with the
    /// pixels decoded and the error follows it. Frames the scan found after
    /// it cannot be reached: asking for any of them, again and in any
    /// order, throws that error (a seeker once spun forever on the second
    /// such request, its iterator having ended), and the broken frame
    /// itself still comes back.
    @Test(arguments: [(0, 0), (1 << 20, 0), (0, 1 << 20), (1 << 20, 1 << 20)])
    func framesPastAFailureThrowItsErrorEveryTime(_ budgets: (checkpoints: Int, indices: Int)) throws {
        var builder = GIFBuilder(width: 4, height: 3, palette: [[0, 0, 0], [255, 0, 0], [0, 255, 0], [0, 0, 255]])
        builder.image(width: 4, height: 3, indices: [1, 2, 3, 1, 2, 3])   // 6 of 12 pixels
        for index: UInt8 in [2, 3] { builder.image(width: 4, height: 3, indices: [UInt8](repeating: index, count: 12)) }
        builder.trailer()
        let image = try GIFImage(bytes: builder.bytes)
        #expect(image.info.frameCount == 3)
        var seeker = image.makeSeeker(
            budget: DecodingBudget(checkpointBytes: budgets.checkpoints, indexBytes: budgets.indices))
        var failure: GIFError?
        for index in [0, 1, 2, 2, 1, 0, 2, 0, 0, 1] {
            do {
                let frame = try seeker.frame(at: index)
                #expect(index == 0 && !frame.isComplete, "frame \(index)")
            } catch {
                #expect(index > 0, "frame \(index): \(error)")
                #expect(error.frameIndex == 0 && error.framesDecoded == 1, "\(error)")
                #expect(failure == nil || failure == error)
                failure = error
            }
        }
    }

    /// Standards: an absurd budget is a clamp, never a trap. `Int.max`
    /// over a canvas of no pixels (1 byte counted for it) once overflowed
    /// working out the checkpoint interval (found by the fuzzer).
    @Test func absurdBudgetsAreClampedOnAnyCanvas() throws {
        var builder = GIFBuilder(width: 8, height: 0, palette: [[0, 0, 0], [255, 255, 255]])
        builder.image(width: 8, height: 0, indices: [])
        builder.trailer()
        let empty = try GIFImage(bytes: builder.bytes)
        try #require(empty.info.canvasSize.area == 0)
        for image in [empty, try Fixture.open("demo.gif")] {
            for budget in [Int.max, Int.max - 1, 0, -1, Int.min] {
                var seeker = image.makeSeeker(budget: DecodingBudget(checkpointBytes: budget, indexBytes: budget))
                #expect(seeker.checkpointInterval >= 1)
                _ = try? seeker.frame(at: 0)
                _ = try? seeker.frame(at: image.info.frameCount - 1)
                _ = try? seeker.frame(at: 0)
                #expect(seeker.checkpointByteCount <= max(0, budget) && seeker.indexBytes <= max(0, budget))
            }
        }
    }

    @Test func outOfRangeThrows() throws {
        let image = try Fixture.open("demo.gif")
        var seeker = image.makeSeeker()
        #expect(throws: GIFError.self) { try seeker.frame(at: image.info.frameCount) }
        #expect(throws: GIFError.self) { try seeker.frame(at: -1) }
    }
}
