import Testing
@testable import GIF

/// Every frame, and every error, of a parallel iterator is what the
/// sequential iterator gives.
@Suite struct ParallelDecodeTests {
    /// The corpus files with published checksums, the image-gif samples, and
    /// the generated fixtures.
    static let files: [String] = Corpus.niaEntries.map(\.path) + Corpus.files(in: "image-gif/samples")
        .filter { $0.hasSuffix(".gif") }

    /// The CRC-32 and completeness of every frame, then the error, if any.
    static func trace(_ image: GIFImage, parallel: Bool) -> (frames: [String], error: GIFError?) {
        // Forced, so that files of small frames go through the pipeline too.
        var iterator = parallel ? FrameIterator(image: image, forceParallel: true) : image.makeFrameIterator()
        var frames: [String] = []
        do {
            while let frame = try iterator.next() {
                frames.append("\(frame.index) \(digest(frame.pixels)) \(frame.isComplete)")
            }
            return (frames, nil)
        } catch {
            return (frames, error)
        }
    }

    @Test(arguments: files)
    func corpusFileMatchesSequential(_ file: String) throws {
        let image = try GIFImage(contentsOf: Corpus.path(file))
        let sequential = Self.trace(image, parallel: false)
        let parallel = Self.trace(image, parallel: true)
        #expect(parallel.frames == sequential.frames)
        #expect(parallel.error == sequential.error)
    }

    @Test(arguments: Fixture.names)
    func fixtureMatchesSequential(_ name: String) throws {
        let image = try Fixture.open(name)
        let sequential = Self.trace(image, parallel: false)
        let parallel = Self.trace(image, parallel: true)
        #expect(parallel.frames == sequential.frames)
        #expect(parallel.error == sequential.error)
    }

    @Test func parallelOnlyWhereThereIsEnoughToDecode() throws {
        let large = try GIFImage(contentsOf: Corpus.path("image-gif/samples/sample_big.gif"))
        #expect(large.makeFrameIterator(parallel: true).isParallel == (FrameIterator.worthDecodingAhead(large.info)))
        #expect(!large.makeFrameIterator().isParallel)
        // Fixtures/README.md: loop-2.gif is two 2 × 2 frames, 8 pixels in all:
        // far fewer than decodeAheadArea, decoded on the calling thread.
        let tiny = try Fixture.open("loop-2.gif")
        #expect(!tiny.makeFrameIterator(parallel: true).isParallel)
    }

    @Test func droppingAParallelIteratorHalfWayIsSafe() throws {
        let image = try GIFImage(contentsOf: Corpus.path("image-gif/samples/gifplayer-muybridge.gif"))
        for stop in [0, 1, 5, 100] {
            var iterator = FrameIterator(image: image, forceParallel: true)
            #expect(iterator.isParallel)
            for _ in 0..<stop { _ = try iterator.next() }
        }
        // A copy that falls behind decodes on its own and still gets the
        // right frames.
        var leader = FrameIterator(image: image, forceParallel: true)
        _ = try leader.next()
        var follower = leader
        _ = try leader.next()
        _ = try leader.next()
        let expected = try image.frame(at: 1)
        #expect(try follower.next() == expected)
    }
}
