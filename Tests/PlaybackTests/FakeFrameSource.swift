import Foundation
import Playback

/// A frame source with known delays whose pixels are the frame index
/// repeated; it counts decodes so cache tests can check underruns.
struct FakeFrameSource: FrameSource {
    var frameDelays: [Duration]
    var storedLoopCount: Int?
    var canvasWidth = 2
    var canvasHeight = 1
    let log = DecodeLog()

    var frameCount: Int { frameDelays.count }

    /// Bytes of one frame: 2 × 1 pixels × 4.
    static let frameBytes = 8

    /// A source with delays in milliseconds.
    static func milliseconds(_ delays: Int..., loop storedLoopCount: Int? = nil) -> FakeFrameSource {
        FakeFrameSource(frameDelays: delays.map { .milliseconds($0) }, storedLoopCount: storedLoopCount)
    }

    func frame(at index: Int) async throws -> RenderedFrame {
        log.record(index)
        return RenderedFrame(
            index: index, width: canvasWidth, height: canvasHeight,
            pixels: Array(repeating: UInt8(truncatingIfNeeded: index), count: canvasWidth * canvasHeight * 4)
        )
    }
}

/// The indices a ``FakeFrameSource`` decoded, in order.
final class DecodeLog: @unchecked Sendable {
    private let lock = NSLock()
    private var indices: [Int] = []

    func record(_ index: Int) { lock.withLock { indices.append(index) } }
    var decoded: [Int] { lock.withLock { indices } }
}
