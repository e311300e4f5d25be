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
}
