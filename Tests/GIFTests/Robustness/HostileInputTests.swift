import Testing
@testable import GIF

/// Hostile input to the GIF module's public API: each case is a
/// typed ``GIFError`` naming what was wrong, never a trap and never another
/// frame's pixels.
@Suite struct HostileInputTests {
    /// Two frames of one pixel each: index 1 then index 0 of a black/white
    /// global table.
    static var twoFrames: [UInt8] {
        var gif = GIFBuilder(width: 1, height: 1, palette: [[0, 0, 0], [255, 255, 255]])
        gif.image(width: 1, height: 1, indices: [1])
        gif.image(width: 1, height: 1, indices: [0])
        gif.trailer()
        return gif.bytes
    }

    @Test("frame(at:) with a negative index is frameOutOfRange, not frame 0", arguments: [-1, -2, Int.min])
    func negativeFrameIndex(index: Int) throws {
        let image = try GIFImage(bytes: Self.twoFrames)
        let error = #expect(throws: GIFError.self) { try image.frame(at: index) }
        #expect(error?.kind == .frameOutOfRange(index, count: 2))
        #expect(throws: GIFError.self) { try image.rawFrame(at: index) }
    }

    @Test("frame(at:) past the last frame is frameOutOfRange", arguments: [2, Int.max])
    func frameIndexPastTheEnd(index: Int) throws {
        let image = try GIFImage(bytes: Self.twoFrames)
        let error = #expect(throws: GIFError.self) { try image.frame(at: index) }
        #expect(error?.kind == .frameOutOfRange(index, count: 2))
    }
}
