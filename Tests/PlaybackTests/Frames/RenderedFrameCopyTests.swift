import Playback
import Testing

/// A rendered frame drawn into a host buffer with a row stride.
@Suite struct RenderedFrameCopyTests {
    /// A 5 × 3 frame whose byte `i` is `i`, so every byte is known.
    static let frame = RenderedFrame(
        index: 4, width: 5, height: 3, pixels: (0..<60).map { UInt8($0) },
        changedRect: PixelRect(x: 1, y: 1, width: 3, height: 2))

    @Test func rowsLandAStrideApartAndThePaddingStays() throws {
        let stride = 5 * 4 + 6
        var buffer = [UInt8](repeating: 0xEE, count: stride * 3)
        try buffer.withUnsafeMutableBytes { try Self.frame.copy(into: $0, bytesPerRow: stride) }
        for y in 0..<3 {
            #expect(Array(buffer[y * stride..<y * stride + 20]) == (y * 20..<(y + 1) * 20).map { UInt8($0) })
            #expect(buffer[y * stride + 20..<(y + 1) * stride].allSatisfy { $0 == 0xEE })
        }
    }

    @Test func onlyChangedWritesTheChangedRectangle() throws {
        var buffer = [UInt8](repeating: 0xEE, count: 5 * 4 * 3)
        try buffer.withUnsafeMutableBytes { try Self.frame.copy(into: $0, bytesPerRow: 20, onlyChanged: true) }
        for y in 0..<3 {
            for x in 0..<5 {
                let i = (y * 5 + x) * 4
                let inside = (1...3).contains(x) && (1...2).contains(y)
                #expect(Array(buffer[i..<i + 4]) == (inside ? (i..<i + 4).map { UInt8($0) } : [0xEE, 0xEE, 0xEE, 0xEE]),
                        "pixel \(x),\(y)")
            }
        }
    }

    @Test func aChangedRectPastTheCanvasIsClipped() throws {
        var frame = Self.frame
        frame.changedRect = PixelRect(x: 3, y: -2, width: Int.max, height: 3)
        var buffer = [UInt8](repeating: 0xEE, count: 60)
        try buffer.withUnsafeMutableBytes { try frame.copy(into: $0, bytesPerRow: 20, onlyChanged: true) }
        // Columns 3 and 4 of row 0.
        let written = buffer.indices.filter { buffer[$0] != 0xEE }
        #expect(written == Array(12..<20))
        #expect(PixelRect(x: 3, y: -2, width: Int.max, height: 3).clipped(toWidth: 5, height: 3)
            == PixelRect(x: 3, y: 0, width: 2, height: 1))
    }

    @Test func aWholeCanvasByDefault() {
        let frame = RenderedFrame(index: 0, width: 5, height: 3, pixels: [UInt8](repeating: 0, count: 60))
        #expect(frame.changedRect == PixelRect(x: 0, y: 0, width: 5, height: 3))
        #expect(frame.pixelFormat == .rgba8)
    }

    @Test func badStrideSizeOrFrameIsATypedError() {
        var buffer = [UInt8](repeating: 0xEE, count: 60)
        func copy(_ frame: RenderedFrame, bytesPerRow: Int, count: Int) -> PixelBufferError? {
            buffer.withUnsafeMutableBytes { raw -> PixelBufferError? in
                do throws(PixelBufferError) {
                    try frame.copy(into: UnsafeMutableRawBufferPointer(rebasing: raw[0..<count]), bytesPerRow: bytesPerRow)
                    return nil
                } catch {
                    return error
                }
            }
        }
        #expect(copy(Self.frame, bytesPerRow: 19, count: 60) == .rowStrideTooSmall(bytesPerRow: 19, minimum: 20))
        #expect(copy(Self.frame, bytesPerRow: -20, count: 60) == .rowStrideTooSmall(bytesPerRow: -20, minimum: 20))
        #expect(copy(Self.frame, bytesPerRow: 20, count: 59) == .bufferTooSmall(byteCount: 59, needed: 60))
        #expect(copy(Self.frame, bytesPerRow: 24, count: 60) == .bufferTooSmall(byteCount: 60, needed: 68))
        #expect(copy(Self.frame, bytesPerRow: Int.max, count: 60) == .bufferTooSmall(byteCount: 60, needed: Int.max))
        var short = Self.frame
        short.pixels.removeLast()
        #expect(copy(short, bytesPerRow: 20, count: 60) == .malformedFrame(width: 5, height: 3, byteCount: 59))
        var huge = Self.frame
        huge.width = Int.max / 2
        #expect(copy(huge, bytesPerRow: 20, count: 60) == .malformedFrame(width: Int.max / 2, height: 3, byteCount: 60))
        #expect(buffer.allSatisfy { $0 == 0xEE })
    }
}

/// A 2 × 1 source in premultiplied BGRA: an opaque pixel beside a clear one.
struct PremultipliedSource: FrameSource {
    var canvasSize: PixelSize { PixelSize(width: canvasWidth, height: canvasHeight) }
    var timing: FrameSourceTiming { FrameSourceTiming(frameDelays: frameDelays, storedLoopCount: storedLoopCount) }
    var frameCount: Int { 1 }
    var canvasWidth: Int { 2 }
    var canvasHeight: Int { 1 }
    var frameDelays: [Duration] { [.milliseconds(100)] }
    var storedLoopCount: Int? { 0 }
    var pixelFormat: PixelFormat { .premultipliedBGRA8 }

    func frame(at index: Int) async throws -> RenderedFrame {
        RenderedFrame(index: index, width: 2, height: 1, pixels: [200, 100, 50, 255, 0, 0, 0, 0], pixelFormat: pixelFormat)
    }
}

/// A source's layout reaches whatever shows its frames.
@Suite struct SourcePixelFormatTests {
    /// A player over a source that cannot draw by itself draws from its
    /// cache, in the source's layout.
    @Test func aCacheDrawerReportsTheSourceLayout() throws {
        let clock = ManualClock()
        let player = try Player(source: PremultipliedSource(), startingAt: clock.now)
        #expect(player.drawer.pixelFormat == .premultipliedBGRA8)
    }

    /// Scaled to 1 × 1, the premultiplied colours are averaged as they are:
    /// (200 + 0) / 2 = 100 and so on. Averaged as straight colours, the
    /// clear pixel would weigh nothing and blue would stay 200.
    @Test func aScaledSourceKeepsAndAveragesTheLayout() async throws {
        let scaled = PremultipliedSource().displaying(at: DisplaySize(maxWidth: 1, maxHeight: 1))
        #expect(scaled.pixelFormat == .premultipliedBGRA8)
        let frame = try await scaled.frame(at: 0)
        #expect(frame.width == 1 && frame.height == 1)
        #expect(frame.pixelFormat == .premultipliedBGRA8)
        #expect(Array(frame.pixels[0..<3]) == [100, 50, 25])
    }
}
