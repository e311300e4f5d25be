import Foundation
import Testing
@_spi(Benchmarks) @testable import GIF

/// The index tier (a seeker's stored palette indices) composites every
/// frame exactly as the plain iterator does, in loops and after seeks, with
/// budgets that hold every frame, half of them or none; and when every frame
/// fits, no frame is decoded twice.
@Suite struct FrameIndexCacheTests {
    static let files: [String] = ["blink", "go", "image-gif", "nsgif", "pillow"]
        .flatMap { Corpus.files(in: $0) }.filter { $0.hasSuffix(".gif") }

    /// The plain whole-file iterator's frames (an independent path: no
    /// seeker, no stored indices): each frame's digest and completeness,
    /// up to the first error.
    static func expected(_ image: GIFImage) -> [(digest: Int, complete: Bool)] {
        var iterator = image.makeFrameIterator()
        var frames: [(Int, Bool)] = []
        while let frame = try? iterator.next() { frames.append((digest(frame.pixels), frame.isComplete)) }
        return frames
    }

    /// A fixed-seed shuffle (SplitMix64), with repeats and backward jumps.
    static func randomOrder(_ count: Int, seed: UInt64 = 0x9E37_79B9_7F4A_7C15) -> [Int] {
        var state = seed
        return (0..<2 * count).map { _ in
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(count))
        }
    }

    static func check(
        _ seeker: inout FrameSeeker, _ index: Int, _ expected: [(digest: Int, complete: Bool)],
        _ file: String
    ) throws {
        let frame = try seeker.frame(at: index)
        #expect(digest(frame.pixels) == expected[index].digest, "\(file) frame \(index)")
        #expect(frame.isComplete == expected[index].complete, "\(file) frame \(index)")
    }

    /// On the run's share of the corpus (``Sweep``).
    @Test(arguments: Sweep.sample(files, of: "index tier"))
    func loopsAndSeeksMatchTheIterator(_ file: String) throws {
        guard let image = try? GIFImage(contentsOf: Corpus.path(file)) else { return }
        let expected = Self.expected(image)
        guard !expected.isEmpty else { return }
        let need = image.info.frames.prefix(expected.count).reduce(0) { $0 + $1.rect.area }
        let canvas = image.info.canvasSize.area * 4
        // Three loops and 64 seeks with every frame's indices held; two
        // loops and 32 seeks with half of them; two loops with none.
        for (indexBudget, loops, seeks) in [(DecodingBudget.default.indexBytes, 3, 64), (need / 2, 2, 32), (0, 2, 0)] {
            // Checkpoints for about every fourth frame, so seeks resume from
            // them too, and a seek costs a few frames.
            let checkpoints = canvas * max(1, expected.count / 4)
            var seeker = image.makeSeeker(budget: DecodingBudget(checkpointBytes: checkpoints, indexBytes: indexBudget))
            var decodesAfterLoop: [Int] = []
            for _ in 0..<loops {
                for index in expected.indices { try Self.check(&seeker, index, expected, file) }
                decodesAfterLoop.append(seeker.decodeCount)
            }
            #expect(seeker.indexBytes <= indexBudget)
            let held = seeker.indexedFrameCount
            // The first loop decodes every frame once; later loops decode
            // exactly the frames not held, except frame 0 of an animation
            // when the canvas after it is held (FrameSeeker's docs: a loop
            // starting again copies it back).
            #expect(decodesAfterLoop[0] == expected.count, "\(file)")
            let restored = seeker.holdsLoopStart && !seeker.holdsIndices(ofFrame: 0) ? 1 : 0
            for loop in 1..<loops {
                #expect(
                    decodesAfterLoop[loop] - decodesAfterLoop[loop - 1] == expected.count - held - restored,
                    "\(file) budget \(indexBudget)")
            }
            if indexBudget >= need {
                #expect(held == expected.count, "\(file)")
                // A frame that decoded no pixel keeps no indices, and one
                // kept as runs fewer than its pixels.
                #expect(seeker.indexBytes <= need, "\(file)")
            } else if indexBudget == 0 {
                #expect(held == 0)
            }
            let before = seeker.decodeCount
            for index in Self.randomOrder(expected.count).prefix(seeks) {
                try Self.check(&seeker, index, expected, file)
            }
            if indexBudget >= need { #expect(seeker.decodeCount == before, "\(file): seeks decoded") }
        }
    }

    /// Screen recording fixture: 600 frames whose canvases take 614 MB and
    /// whose indices take 256,000 + 11 × 24,000 + 588 × 224 bytes
    /// (Fixtures/README.md, Sources/GIFFixtureGenerator), kept as runs
    /// where they take an eighth of them or less (``IndexRuns``' format): the desktop is a run
    /// of 25,620 zeros (6 bytes), then per window row a run of 600 (6 bytes)
    /// with 339 runs of 40 zeros between the rows (2 bytes each), then a run
    /// of 12,820 zeros (6): 2,730 bytes; each pane is 12 rows of index 15
    /// and 12 runs of 1,800 (6 bytes each): 144; a 16 × 14 character's runs
    /// would take more than an eighth of its 224 bytes, so it is kept as it is.
    @Test func screenRecordingLoopsWithoutDecoding() throws {
        let image = try Fixture.open("screen-recording.gif")
        #expect(image.info.frameCount == 600)
        let expected = Self.expected(image)
        #expect(expected.count == 600)
        var seeker = image.makeSeeker()
        for index in 0..<600 { try Self.check(&seeker, index, expected, "screen-recording.gif") }
        #expect(seeker.decodeCount == 600)
        #expect(seeker.indexBytes == 2_730 + 11 * 144 + 588 * 16 * 14)
        for index in 0..<600 { try Self.check(&seeker, index, expected, "screen-recording.gif") }
        #expect(seeker.decodeCount == 600)
    }

    /// Trimming drops checkpoints first, then the last frames' indices, and
    /// the frames stay the same.
    @Test func trimKeepsFramesIdentical() throws {
        let image = try Fixture.open("demo.gif")
        let expected = Self.expected(image)
        var seeker = image.makeSeeker()
        for index in expected.indices { try Self.check(&seeker, index, expected, "demo.gif") }
        let indexBytes = seeker.indexBytes
        #expect(seeker.checkpointCount > 0)
        seeker.trim(toBytes: indexBytes)
        #expect(seeker.checkpointCount == 0)
        #expect(seeker.indexBytes == indexBytes)
        seeker.trim(toBytes: indexBytes / 2)
        #expect(seeker.indexBytes <= indexBytes / 2)
        #expect(seeker.indexedFrameCount < expected.count)
        seeker.trim(toBytes: -1)
        #expect(seeker.checkpointAndIndexBytes == 0)
        for index in expected.indices.reversed() { try Self.check(&seeker, index, expected, "demo.gif") }
    }

    /// Which frames are held whole, as a drawing seeker asks before it
    /// writes frames into a host's buffer as it composites them: a frame
    /// stored out of order, a frame dropped, a trim and a frame whose data
    /// fails each change the answer, frame by frame.
    @Test func holdsWholeFollowsEveryStoreAndDrop() throws {
        let image = try Fixture.open("demo.gif")
        let indices = FrameIndexCache(budget: 1 << 20)
        var seeker = FrameSeeker(image: image, memoryBudget: 0, sharing: indices, pixelFormat: .rgba8)
        for index in 0...9 { try seeker.composite(at: index) }
        #expect(indices.holdsWhole(0...9))
        #expect(indices.holdsWhole(3...9))
        #expect(!indices.holdsWhole(0...10))
        #expect(indices.firstMissing(in: 0...12) == 10)
        indices.remove(4)
        #expect(!indices.holdsWhole(0...9))
        #expect(!indices.holdsWhole(4...4))
        #expect(indices.holdsWhole(0...3))
        #expect(indices.holdsWhole(5...9))
        #expect(indices.firstMissing(in: 0...9) == 4)
        // Frames 10 to 12 stored while 4 is missing, then 4 again: the
        // frames held reach 12 with nothing missing.
        for index in 10...12 { try seeker.composite(at: index) }
        #expect(!indices.holdsWhole(0...12))
        #expect(indices.holdsWhole(5...12))
        var other = FrameSeeker(image: image, memoryBudget: 0, sharing: indices, pixelFormat: .rgba8)
        for index in 0...4 { try other.composite(at: index) }
        #expect(indices.holdsWhole(0...12))
        #expect(indices.firstMissing(in: 0...12) == nil)
        indices.trim(toBytes: indices.byteCount - 1)
        #expect(!indices.holdsWhole(0...12))
        #expect(indices.holdsWhole(0...11))
        indices.removeAll()
        #expect(!indices.holdsWhole(0...0))

        // Frame 1 of truncated.gif ends inside its data: held, not whole.
        let truncated = try Fixture.open("truncated.gif")
        let cut = FrameIndexCache(budget: 1 << 20)
        var cutSeeker = FrameSeeker(image: truncated, memoryBudget: 0, sharing: cut, pixelFormat: .rgba8)
        try cutSeeker.composite(at: 0)
        _ = try? cutSeeker.composite(at: 1)
        #expect(cut.firstMissing(in: 0...1) == nil)
        #expect(cut.holdsWhole(0...0))
        #expect(!cut.holdsWhole(0...1))
        #expect(!cut.holdsWhole(1...1))
    }
}
