@testable import GIFPlayback
import Playback
import Testing

/// The executor's and each source's pick: the first of
/// the most urgent, so first come, first served within a priority.
@Suite("Decode priority")
struct DecodePriorityTests {
    @Test("The most urgent request goes first; among equals, the oldest")
    func mostUrgentFirst() {
        let queued: [FrameRequestPriority] = [.background, .prefetch, .background, .now, .prefetch, .now]
        #expect(FrameDecodeExecutor.mostUrgent(queued, { $0 }) == 3)
        #expect(FrameDecodeExecutor.mostUrgent([.background, .prefetch, .prefetch], { $0 }) == 1)
        #expect(FrameDecodeExecutor.mostUrgent([.background, .background], { $0 }) == 0)
        #expect(FrameDecodeExecutor.mostUrgent([FrameRequestPriority](), { $0 }) == nil)
        // Served in turn, the order is: every now, then prefetch, then the rest.
        var left = Array(queued.enumerated())
        var served: [Int] = []
        while let next = FrameDecodeExecutor.mostUrgent(left, { $0.element }) { served.append(left.remove(at: next).offset) }
        #expect(served == [3, 5, 1, 4, 0, 2])
    }
}
