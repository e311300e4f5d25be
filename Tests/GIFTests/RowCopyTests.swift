import Pixels
import Testing

/// `copyRows` moves a rectangle between two row-strided areas: every byte
/// of each row reaches the same place in the target, and nothing around
/// the rectangle is written. Each source byte holds its own offset, so
/// where a byte came from is known.
@Suite struct RowCopyTests {
    @Test(arguments: [1, 4, 15, 16, 17, 31, 32, 48, 64, 100, 255, 256, 257, 400])
    func rowsLandWhereTheyBelong(rowBytes: Int) {
        let rows = 5, sourceStride = rowBytes + 7, targetStride = rowBytes + 13, margin = 9
        let source = (0..<rows * sourceStride).map { UInt8(truncatingIfNeeded: $0 * 7 + 1) }
        var target = [UInt8](repeating: 0xEE, count: margin + rows * targetStride)
        source.withUnsafeBytes { from in
            target.withUnsafeMutableBytes { to in
                copyRows(rows, of: rowBytes, from: from.baseAddress!, stride: sourceStride,
                         to: to.baseAddress! + margin, stride: targetStride)
            }
        }
        var expected = [UInt8](repeating: 0xEE, count: target.count)
        for row in 0..<rows {
            for byte in 0..<rowBytes {
                expected[margin + row * targetStride + byte] = source[row * sourceStride + byte]
            }
        }
        #expect(target == expected)
    }
}
