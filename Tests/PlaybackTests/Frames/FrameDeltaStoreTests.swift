@testable import Playback
import Pixels
import Testing

/// `FrameDeltaStore` on pictures whose pixels are known: a delta recorded
/// row by row writes back exactly the stretches it was given, and a set
/// whose first frames, at that size for the whole loop, would pass the
/// limit is given up then.
@Suite struct FrameDeltaStoreTests {
    /// A `width` × `height` picture, rows `bytesPerRow` apart, pixel (x, y)
    /// = (x, y, 7, 255); padding 0xEE.
    static func picture(width: Int, height: Int, bytesPerRow: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0xEE, count: bytesPerRow * height)
        for y in 0..<height {
            for x in 0..<width {
                bytes.replaceSubrange(y * bytesPerRow + x * 4..<y * bytesPerRow + x * 4 + 4,
                                      with: [UInt8(x), UInt8(y), 7, 255])
            }
        }
        return bytes
    }

    @Test func rowStretchesWriteBackOnlyTheirPixels() throws {
        let (width, height, bytesPerRow) = (8, 6, 8 * 4 + 12)
        let picture = Self.picture(width: width, height: height, bytesPerRow: bytesPerRow)
        let store = FrameDeltaStore(frameCount: 2, limit: 1 << 20)
        let rect = PixelRect(x: 1, y: 1, width: 5, height: 4)
        // Columns written by rows 1 ... 4 from row 1: two, none, more than
        // the rectangle (clipped to it), one.
        let columns = [2, 4, 3, 3, 0, 8, 3, 4]
        picture.withUnsafeBytes { pixels in
            columns.withUnsafeBufferPointer { columns in
                let rows = FrameDeltaStore.RowColumns(columns: columns, firstRow: 1)
                store.record(1, rect: rect, of: pixels, bytesPerRow: bytesPerRow, rows: rows)
            }
        }
        // Kept: the stretches' pixels (2 + 0 + 5 + 1) and four bytes a row.
        #expect(store.byteCount == 8 * 4 + 4 * 4)
        #expect(store.sealed == nil, "sealed before the restart's delta")
        picture.withUnsafeBytes { pixels in
            _ = store.record(0, rect: PixelRect(x: 0, y: 0, width: 0, height: 0), of: pixels, bytesPerRow: bytesPerRow)
        }
        let sealed = try #require(store.sealed)
        var target = [UInt8](repeating: 0x55, count: bytesPerRow * height)
        let applied = target.withUnsafeMutableBytes {
            sealed.storage.apply(1, to: $0.baseAddress!, bytesPerRow: bytesPerRow)
        }
        #expect(applied == rect)
        var expected = [UInt8](repeating: 0x55, count: bytesPerRow * height)
        for (y, stretch) in [(1, 2..<4), (2, 0..<0), (3, 1..<6), (4, 3..<4)] {
            for x in stretch {
                expected.replaceSubrange(y * bytesPerRow + x * 4..<y * bytesPerRow + x * 4 + 4,
                                         with: [UInt8(x), UInt8(y), 7, 255])
            }
        }
        #expect(target == expected)
    }

    /// Forty frames: sixteen of 100 bytes project to 4,000, twice a limit
    /// of 2,000. With that limit, the set is kept past the sixteenth frame
    /// and the later frames of 8 bytes keep it within the limit to the end
    /// (1,600 + 24 × 8 = 1,792 bytes); with 1,999 it is given up at the
    /// sixteenth frame, when the projection starts, holding nothing after.
    @Test(arguments: [2000, 1999])
    func aSetProjectedPastItsLimitIsGivenUpEarly(limit: Int) {
        let (width, bytesPerRow) = (5, 5 * 4)
        let picture = Self.picture(width: width, height: 5, bytesPerRow: bytesPerRow)
        let store = FrameDeltaStore(frameCount: 40, limit: limit)
        let rect = PixelRect(x: 0, y: 0, width: 5, height: 5)
        picture.withUnsafeBytes { pixels in
            for index in 1..<FrameDeltaStore.framesBeforeProjecting {
                store.record(index, rect: rect, of: pixels, bytesPerRow: bytesPerRow)
            }
            #expect(store.byteCount == 100 * (FrameDeltaStore.framesBeforeProjecting - 1))
            store.record(FrameDeltaStore.framesBeforeProjecting, rect: rect, of: pixels, bytesPerRow: bytesPerRow)
            if limit < 2000 {
                #expect(store.byteCount == 0, "kept \(store.byteCount) bytes past the projection")
            } else {
                let small = PixelRect(x: 0, y: 0, width: 1, height: 2)
                for index in FrameDeltaStore.framesBeforeProjecting + 1..<40 {
                    store.record(index, rect: small, of: pixels, bytesPerRow: bytesPerRow)
                }
                store.record(0, rect: small, of: pixels, bytesPerRow: bytesPerRow)
                #expect(store.sealed != nil && store.byteCount == 1600 + 24 * 8)
            }
        }
    }
}
