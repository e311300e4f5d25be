import GIF
import GIFPlayback
import Playback
import Testing

/// One source asked from many tasks at once: its one seeker is lent to one
/// request at a time, the others wait suspended, and every answer is the
/// frame asked for.
@Suite struct GIFFrameSourceConcurrencyTests {
    @Test func concurrentRequestsEachGetTheirFrame() async throws {
        // Fixtures/README.md: demo.gif, 240 frames on a 160×120 canvas.
        let path = GIFFrameSourceTests.fixture("demo.gif")
        let source = try GIFFrameSource(contentsOf: path)
        let reference = try GIFImage(contentsOf: path)
        let indices = [239, 0, 120, 5, 200, 1, 60, 239, 3, 180, 100, 7]
        let frames = try await withThrowingTaskGroup(of: RenderedFrame.self) { group in
            for index in indices {
                group.addTask { try await source.frame(at: index) }
            }
            var frames: [RenderedFrame] = []
            for try await frame in group { frames.append(frame) }
            return frames
        }
        #expect(frames.map(\.index).sorted() == indices.sorted())
        for frame in frames {
            #expect(frame.pixels == (try reference.frame(at: frame.index).pixels), "frame \(frame.index)")
        }
    }

    @Test func releaseDuringDecodesLeavesNoCheckpoints() async throws {
        let source = try GIFFrameSource(contentsOf: GIFFrameSourceTests.fixture("demo.gif"))
        async let late = source.frame(at: 239)
        async let early = source.frame(at: 200)
        source.releaseDecodingState()
        let frames = try await [late, early]
        #expect(frames.map(\.index) == [239, 200])
        // Seekers lent before the release are dropped when they come back;
        // one made after it may hold checkpoints of its own.
        source.releaseDecodingState()
        #expect(source.checkpointCount == 0)
        _ = try await source.frame(at: 239)
        #expect(source.checkpointCount > 0)
    }

    @Test func sourcesShareABoundedExecutor() async throws {
        // Documented clamp: 1…64 threads.
        #expect(FrameDecodeExecutor(threadCount: 0).threadCount == 1)
        #expect(FrameDecodeExecutor(threadCount: 1000).threadCount == 64)
        let executor = FrameDecodeExecutor(threadCount: 1)
        let demo = GIFFrameSourceTests.fixture("demo.gif"), loop = GIFFrameSourceTests.fixture("loop-2.gif")
        let sources = [
            GIFFrameSource(image: try GIFImage(contentsOf: demo), executor: executor),
            GIFFrameSource(image: try GIFImage(contentsOf: loop), executor: executor),
        ]
        #expect(sources.allSatisfy { $0.executor === executor })
        let requests = [(0, 100), (1, 1), (0, 7), (1, 0), (0, 239), (1, 1)]
        let frames = try await withThrowingTaskGroup(of: (Int, RenderedFrame).self) { group in
            for (source, index) in requests {
                group.addTask { (source, try await sources[source].frame(at: index)) }
            }
            var frames: [(Int, RenderedFrame)] = []
            for try await frame in group { frames.append(frame) }
            return frames
        }
        #expect(frames.count == requests.count)
        for (source, frame) in frames {
            let reference = try GIFImage(contentsOf: source == 0 ? demo : loop)
            #expect(frame.pixels == (try reference.frame(at: frame.index).pixels), "source \(source) frame \(frame.index)")
        }
        // An error comes back to the task that asked, and the source goes on.
        await #expect(throws: GIFError.self) { try await sources[1].frame(at: 2) }
        #expect(try await sources[1].frame(at: 0).index == 0)
    }

    @Test func cancelledRequestsAreDroppedBeforeTheirDecode() async throws {
        let path = GIFFrameSourceTests.fixture("demo.gif")
        let source = GIFFrameSource(image: try GIFImage(contentsOf: path), executor: FrameDecodeExecutor(threadCount: 1))
        // Cancelled before it asks: nothing is decoded.
        let early = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await source.frame(at: 239)
        }
        await #expect(throws: CancellationError.self) { try await early.value }
        #expect(source.checkpointCount == 0)

        // Many requests queued behind one thread, then cancelled: each one
        // either was dropped or, if its decode had started, is the right frame.
        let reference = try GIFImage(contentsOf: path)
        let batch = Task {
            try await withThrowingTaskGroup(of: RenderedFrame?.self) { group in
                for index in 0..<40 {
                    group.addTask {
                        do { return try await source.frame(at: index) } catch is CancellationError { return nil }
                    }
                }
                var frames: [RenderedFrame?] = []
                for try await frame in group { frames.append(frame) }
                return frames
            }
        }
        batch.cancel()
        let frames = try await batch.value
        #expect(frames.count == 40)
        for frame in frames.compactMap({ $0 }) {
            #expect(frame.pixels == (try reference.frame(at: frame.index).pixels), "frame \(frame.index)")
        }
        // The source goes on serving.
        #expect(try await source.frame(at: 120).index == 120)
    }
}
