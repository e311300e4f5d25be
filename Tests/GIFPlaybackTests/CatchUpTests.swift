import Foundation
import GIF
@_spi(Benchmarks) import GIFPlayback
import Playback
import Testing

/// A drawer far behind the frame it is asked for, with no indices stored
/// within a budget (only the few passing frames a drawing source keeps)
/// and no seek checkpoints: it must still get there, stepping its canvas
/// on through the frames it holds so that it never needs more of them at
/// once than the passing frames hold, and decode each frame of the gap
/// about once, not again and again.
@Suite("A drawer far behind catches up")
struct CatchUpTests {
    /// Fixtures/README.md: screen-recording.gif is 600 frames of 640 × 400.
    /// Jumps forward by more than the passing frames (8) and by less, each
    /// drawn until it is not late; the pixels are the frame's as
    /// `FrameIterator` composites it.
    @Test func aGapWiderThanThePassingFramesIsCrossed() async throws {
        let image = try GIFImage(contentsOf: GIFFrameSourceTests.fixture("screen-recording.gif"))
        let expected = PlayerDrawTests.expectedFrames(image, format: .rgba8)
        let source = GIFFrameSource(
            image: image, budget: DecodingBudget(checkpointBytes: 0, indexBytes: 0), executor: PlayerDrawTests.executor)
        let player = try Player(source: source, startingAt: ManualClock.Instant(offset: .zero))
        var buffer = PlayerDrawTests.HostBuffer(width: image.info.canvasSize.width, height: image.info.canvasSize.height)
        var at = 0
        for target in [3, 40, 41, 160, 170, 420] {
            try await player.seek(toFrame: target)
            let before = source.decodeCount
            let deadline = ContinuousClock.now + .seconds(30)
            var result = try buffer.draw(player)
            while case .late = result, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(1))
                result = try buffer.draw(player)
            }
            guard case .drawn(frame: target, _, _) = result else {
                Issue.record("frame \(target) from \(at): \(result) after \(source.decodeCount - before) decodes")
                return
            }
            #expect(buffer.pixels == expected[target], "frame \(target)")
            // The gap's frames, and the look-ahead asked past each late one.
            let gap = target - at
            #expect(source.decodeCount - before <= 2 * gap + 16, "frame \(target) from \(at)")
            at = target
        }
    }
}
