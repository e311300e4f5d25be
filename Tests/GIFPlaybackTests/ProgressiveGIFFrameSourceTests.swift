import Foundation
@_spi(Benchmarks) import GIF
@_spi(Benchmarks) import GIFPlayback
@_spi(Benchmarks) import Playback
import Testing

/// The fixture's bytes and its whole-file scan.
func fixtureBytes(_ name: String) throws -> [UInt8] {
    try [UInt8](Data(contentsOf: URL(fileURLWithPath: GIFFrameSourceTests.fixture(name))))
}

/// A progressive frame source: the timing of the frames
/// arrived so far, an update when more arrive and when the file completes,
/// and frames equal to the whole-file decode's.
@Suite("Progressive GIF frame source")
struct ProgressiveGIFFrameSourceTests {
    @Test("Fed frame by frame: each frame available at its last byte, with the whole-file pixels and delays")
    func frameByFrame() async throws {
        // Fixtures/README.md: demo.gif, 160×120, 240 frames, loops forever.
        let bytes = try fixtureBytes("demo.gif")
        let whole = try GIFImage(bytes: bytes)
        let source = ProgressiveGIFFrameSource()
        #expect(source.frameCount == 0 && !source.isComplete && source.canvasSize == PixelSize(width: 0, height: 0))
        var start = 0
        var reference = whole.makeFrameIterator()
        for frame in whole.info.frames {
            // Everything up to the frame's last data byte but one: not yet.
            try source.append(bytes[start..<frame.dataEnd - 1])
            #expect(source.frameCount == frame.index, "before the last byte of frame \(frame.index)")
            try source.append(bytes[frame.dataEnd - 1..<frame.dataEnd])
            start = frame.dataEnd
            #expect(source.frameCount == frame.index + 1, "at the last byte of frame \(frame.index)")
            #expect(source.frameDelays.last == frame.delay)
            // Checked as they arrive on every 10th frame (debug builds are slow).
            guard frame.index % 10 == 0 else { _ = try reference.next(); continue }
            let rendered = try await source.frame(at: frame.index)
            #expect(rendered.pixels == (try reference.next()?.pixels), "frame \(frame.index)")
        }
        #expect(source.canvasSize == whole.info.canvasSize)
        #expect(!source.isComplete)
        try source.append(bytes[start...])
        #expect(source.isComplete)
        #expect(source.error == nil)
        #expect(source.timing == FrameSourceTiming(
            frameDelays: whole.info.frames.map(\.delay), storedLoopCount: whole.info.loopCount.stored))
        // Random access once complete, against the whole-file decode.
        for index in [239, 3, 120, 0, 57] {
            #expect(try await source.frame(at: index).pixels == (try whole.frame(at: index).pixels), "frame \(index)")
        }
    }

    @Test("Timing updates: one per arrival, then the complete timing with the loop count, then the stream ends")
    func updates() async throws {
        // Fixtures/README.md: loop-2.gif, 2 frames of 10 cs, NETSCAPE2.0 stored 2.
        let bytes = try fixtureBytes("loop-2.gif")
        let whole = try GIFImage(bytes: bytes)
        let source = ProgressiveGIFFrameSource()
        let updates = source.timingUpdates()
        let ends = whole.info.frames.map(\.dataEnd)
        try source.append(bytes[..<ends[0]])
        try source.append(bytes[ends[0]..<ends[1]])
        try source.append(bytes[ends[1]...])
        var seen: [FrameSourceTiming] = []
        for await timing in updates { seen.append(timing) }
        let tenCs = Duration.milliseconds(100)
        #expect(seen == [
            FrameSourceTiming(frameDelays: [], storedLoopCount: nil, isComplete: false),
            FrameSourceTiming(frameDelays: [tenCs], storedLoopCount: 2, isComplete: false),
            FrameSourceTiming(frameDelays: [tenCs, tenCs], storedLoopCount: 2, isComplete: false),
            FrameSourceTiming(frameDelays: [tenCs, tenCs], storedLoopCount: 2, isComplete: true),
        ])
        // A stream asked for once complete holds the final timing only.
        var late: [FrameSourceTiming] = []
        for await timing in source.timingUpdates() { late.append(timing) }
        #expect(late == [seen.last!])
    }

    @Test("The loop count is the one read so far, and may change before the stream completes")
    func loopCountChangesAsItArrives() async throws {
        // Fixtures/README.md: loop-latest-wins.gif, NETSCAPE2.0 stored 5
        // before frame 0, ANIMEXTS1.0 stored 2 before frame 1: stored 2.
        let bytes = try fixtureBytes("loop-latest-wins.gif")
        let ends = try GIFImage(bytes: bytes).info.frames.map(\.dataEnd)
        let source = ProgressiveGIFFrameSource()
        let updates = source.timingUpdates()
        try source.append(bytes[..<ends[0]])
        try source.append(bytes[ends[0]..<ends[1]])
        try source.append(bytes[ends[1]...])
        var seen: [FrameSourceTiming] = []
        for await timing in updates { seen.append(timing) }
        #expect(seen.map(\.storedLoopCount) == [nil, 5, 2, 2])
        #expect(seen.map(\.frameDelays.count) == [0, 1, 2, 2])
        #expect(seen.map(\.isComplete) == [false, false, false, true])
        #expect(source.storedLoopCount == 2)
    }

    @Test("A stream cut inside a frame ends with the whole-file decode's frames and error",
          arguments: [0.25, 0.5, 0.9])
    func truncated(_ fraction: Double) async throws {
        let bytes = try fixtureBytes("demo.gif")
        let cut = Int(Double(bytes.count) * fraction)
        let prefix = Array(bytes[..<cut])
        let whole = try GIFImage(bytes: prefix)
        #expect(whole.info.error != nil, "the cut falls inside the block structure")
        let source = ProgressiveGIFFrameSource()
        for start in stride(from: 0, to: cut, by: 4096) { try source.append(prefix[start..<min(cut, start + 4096)]) }
        #expect(!source.isComplete)
        try source.finish()
        #expect(source.isComplete)
        #expect(source.error == whole.info.error)
        #expect(source.frameDelays == whole.info.frames.map(\.delay))
        // The last frame (cut short: the rows decoded) and one before it.
        for index in [whole.info.frameCount - 1, whole.info.frameCount / 2] {
            #expect(try await source.frame(at: index).pixels == (try whole.frame(at: index).pixels), "frame \(index)")
        }
    }

    @Test("A stream cut inside the header throws the whole-file decode's error at finish")
    func cutInHeader() throws {
        let bytes = try fixtureBytes("demo.gif")
        let prefix = Array(bytes[..<10])
        var wholeError: GIFError?
        do { _ = try GIFImage(bytes: prefix) } catch { wholeError = error }
        let source = ProgressiveGIFFrameSource()
        try source.append(prefix)
        #expect(throws: wholeError!) { try source.finish() }
        #expect(source.isComplete && source.error == wholeError)
    }

    /// Frame 0 of demo.gif, then a 10 × 10 frame whose sub-blocks never end:
    /// the source completes with the frame data limit's error once the data
    /// passes it, frame 0 still playable, instead of reading on to the input
    /// limit.
    @Test("A frame whose data never ends completes the source with the frame data limit's error")
    func endlessFrameData() async throws {
        let bytes = try fixtureBytes("demo.gif")
        let frame0 = try GIFImage(bytes: bytes).info.frames[0]
        var limits = DecodingLimits()
        limits.maxFrameDataBytes = 1 << 16
        let source = ProgressiveGIFFrameSource(limits: limits)
        try source.append(bytes[..<frame0.dataEnd])
        let descriptor = frame0.dataEnd
        try source.append([0x2C, 0, 0, 0, 0, 10, 0, 10, 0, 0, 8])
        let block = [UInt8]([255] + [UInt8](repeating: 0x41, count: 255))
        while !source.isComplete, source.receivedByteCount < 1 << 20 { try source.append(block) }
        // Read into values first: an expectation that fails on the source
        // itself would reflect its lock.
        let (complete, frames, error) = (source.isComplete, source.frameCount, source.error)
        #expect(complete)
        #expect(frames == 1)
        // 1 + 256·k data bytes after k sub-blocks: the 256th passes 2¹⁶.
        #expect(error == GIFError(
            .limitExceeded(.frameDataBytes, value: 1 + 256 * 256, maximum: 1 << 16),
            frameIndex: 1, byteOffset: descriptor + 11 + 256 * 255, framesDecoded: 1))
        #expect(try await source.frame(at: 0).pixels == (try GIFImage(bytes: bytes).frame(at: 0).pixels))
    }
}
