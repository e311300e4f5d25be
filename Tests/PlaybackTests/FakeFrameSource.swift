import Foundation
import Playback
import PlaybackTestSupport

/// A frame source with known delays whose pixels are the frame index
/// repeated; it counts decodes so cache tests can check underruns.
struct FakeFrameSource: BudgetedFrameSource {
    var canvasSize: PixelSize { PixelSize(width: canvasWidth, height: canvasHeight) }
    var timing: FrameSourceTiming { FrameSourceTiming(frameDelays: frameDelays, storedLoopCount: storedLoopCount) }
    func trimDecodingState(toBytes bytes: Int) { if bytes <= 0 || decodingStateByteCount > bytes { releaseDecodingState() } }
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

    /// A cache that goes away calls this: tests waiting for that wake up.
    func releaseDecodingState() {
        Changes.shared.signal()
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

    func record(_ index: Int) {
        lock.withLock { indices.append(index) }
        Changes.shared.signal()
    }
    var decoded: [Int] { lock.withLock { indices } }
}

/// Opens once: everyone waiting is let through together.
actor Gate {
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func wait() async {
        guard !isOpen else { return }
        await withCheckedContinuation { waiters.append($0) }
    }

    func open() {
        isOpen = true
        for waiter in waiters { waiter.resume() }
        waiters.removeAll()
    }
}

/// A ``FakeFrameSource`` whose decodes wait for a gate, so a test can make
/// requests overlap.
struct GatedFrameSource: FrameSource {
    var canvasSize: PixelSize { PixelSize(width: canvasWidth, height: canvasHeight) }
    var timing: FrameSourceTiming { FrameSourceTiming(frameDelays: frameDelays, storedLoopCount: storedLoopCount) }
    let gate: Gate
    let log = DecodeLog()
    var frameCount: Int { 6 }
    var canvasWidth: Int { 2 }
    var canvasHeight: Int { 1 }
    var frameDelays: [Duration] { Array(repeating: .milliseconds(100), count: 6) }
    var storedLoopCount: Int? { nil }

    func frame(at index: Int) async throws -> RenderedFrame {
        await gate.wait()
        log.record(index)
        return RenderedFrame(index: index, width: 2, height: 1, pixels: Array(repeating: UInt8(index), count: 8))
    }
}

/// A source that draws into the storage the cache hands it, recording how
/// big each handed-over buffer was.
final class RecyclingFrameSource: BudgetedFrameSource, @unchecked Sendable {
    var canvasSize: PixelSize { PixelSize(width: canvasWidth, height: canvasHeight) }
    var timing: FrameSourceTiming { FrameSourceTiming(frameDelays: frameDelays, storedLoopCount: storedLoopCount) }
    func trimDecodingState(toBytes bytes: Int) { if bytes <= 0 || decodingStateByteCount > bytes { releaseDecodingState() } }
    func frame(at index: Int, reusing storage: consuming [UInt8], priority: FrameRequestPriority) async throws -> RenderedFrame {
        try await frame(at: index, reusing: storage)
    }
    private let lock = NSLock()
    private var sizes: [Int] = []
    private var released = 0
    var frameCount: Int { 6 }
    var canvasWidth: Int { 2 }
    var canvasHeight: Int { 1 }
    var frameDelays: [Duration] { Array(repeating: .milliseconds(100), count: 6) }
    var storedLoopCount: Int? { nil }

    var storageSizes: [Int] { lock.withLock { sizes } }
    var releaseCount: Int { lock.withLock { released } }

    func releaseDecodingState() {
        lock.withLock { released += 1 }
        Changes.shared.signal()
    }

    func frame(at index: Int) async throws -> RenderedFrame {
        try await frame(at: index, reusing: [])
    }

    func frame(at index: Int, reusing storage: consuming [UInt8]) async throws -> RenderedFrame {
        var pixels = consume storage
        lock.withLock { sizes.append(pixels.count) }
        if pixels.count == 8 {
            for i in pixels.indices { pixels[i] = UInt8(index) }
        } else {
            pixels = Array(repeating: UInt8(index), count: 8)
        }
        return RenderedFrame(index: index, width: 2, height: 1, pixels: pixels)
    }
}
