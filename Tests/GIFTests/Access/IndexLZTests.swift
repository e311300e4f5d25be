@testable import GIF
import Testing

/// ``IndexLZ``' format: per band a four-byte length, then sequences of a
/// token (literal count high, match length − 4 low, 15 continued by bytes
/// up to one below 255), the literals, a two-byte distance and the rest of
/// the match's length; a band's last sequence has literals only.
@Suite("Index LZ: a frame's indices compressed a band of rows at a time")
struct IndexLZTests {
    static func encode(_ values: [UInt8], width: Int, limit: Int = .max) -> [UInt8]? {
        values.withUnsafeBufferPointer { IndexLZ.encode($0, width: width, limit: limit) }
    }

    /// Reads `encoded` back band by band, as the index tier draws it; `nil`
    /// when a band is malformed.
    static func decode(_ encoded: [UInt8], width: Int, count: Int) -> [UInt8]? {
        let bandCount = IndexLZ.rowsPerBand(width: width) * width
        var out: [UInt8] = []
        var band = [UInt8](repeating: 0xAA, count: bandCount)
        return encoded.withUnsafeBufferPointer { source -> [UInt8]? in
            var reader = IndexLZ.Reader(source)
            while true {
                guard let read = band.withUnsafeMutableBufferPointer({ reader.read(into: $0) }) else { return nil }
                if read == 0 { return out }
                out += band[..<read]
                if out.count > count { return nil }
            }
        }
    }

    /// Frames of every kind the index tier meets, and the worst cases for
    /// the codec: random noise (no matches), one index throughout (one long
    /// overlapping match), short periods (overlapping copies of 2 to 7
    /// bytes), dithering with a few values, rows repeating the row above,
    /// and mixes of these.
    static func frame(kind: Int, width: Int, height: Int, random: inout SplitMix64) -> [UInt8] {
        let count = width * height
        switch kind {
        case 0: return (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
        case 1: return [UInt8](repeating: UInt8.random(in: 0...255, using: &random), count: count)
        case 2:
            let period = Int.random(in: 2...7, using: &random)
            let pattern = (0..<period).map { _ in UInt8.random(in: 0...255, using: &random) }
            return (0..<count).map { pattern[$0 % period] }
        case 3: return (0..<count).map { _ in UInt8.random(in: 0...3, using: &random) }
        case 4:
            let row = (0..<width).map { _ in UInt8.random(in: 0...15, using: &random) }
            return (0..<count).map { row[$0 % width] }
        default:
            var values: [UInt8] = []
            while values.count < count {
                let length = Int.random(in: 1...600, using: &random)
                let value = UInt8.random(in: 0...255, using: &random)
                values += Bool.random(using: &random)
                    ? [UInt8](repeating: value, count: length)
                    : (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
            }
            return Array(values.prefix(count))
        }
    }

    @Test("Every generated frame reads back exactly: noise, one index, short periods, widths 1 to 300, 1-pixel frames")
    func roundTrips() throws {
        var random = SplitMix64(seed: 0x1D_E47A)
        var sizes = (1...40).map { ($0, 1 + $0 % 5) } + [(1, 1), (1, 70_000), (300, 300), (640, 205), (65_535, 2)]
        for _ in 0..<40 { sizes.append((Int.random(in: 1...700, using: &random), Int.random(in: 1...120, using: &random))) }
        for (width, height) in sizes {
            for kind in 0...5 {
                let values = Self.frame(kind: kind, width: width, height: height, random: &random)
                let encoded = try #require(Self.encode(values, width: width), "\(width)×\(height) kind \(kind)")
                #expect(Self.decode(encoded, width: width, count: values.count) == values, "\(width)×\(height) kind \(kind)")
            }
        }
    }

    @Test("Four values repeated: their literals, then one match at distance 4 whose length continues past 15")
    func format() throws {
        let values = [UInt8]((0..<100).flatMap { _ in [1, 2, 3, 4] as [UInt8] })
        let encoded = try #require(Self.encode(values, width: 400))
        // The match takes 396 − 4 = 392 = 15 + 255 + 122.
        #expect(encoded == [10, 0, 0, 0] + [0x4F, 1, 2, 3, 4, 4, 0, 255, 122] + [0x00])
    }

    @Test("A frame is one block per band of rows, each band under 64 KiB")
    func bands() throws {
        #expect(IndexLZ.rowsPerBand(width: 1) == 65_536)
        #expect(IndexLZ.rowsPerBand(width: 640) == 102)
        #expect(IndexLZ.rowsPerBand(width: 65_535) == 1)
        let values = [UInt8](repeating: 7, count: 640 * 205)
        let encoded = try #require(Self.encode(values, width: 640))
        // Three bands (102, 102 and 1 rows), each a length and its block.
        var position = 0, blocks = 0
        while position < encoded.count {
            position += 4 + encoded[position..<position + 4].enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
            blocks += 1
        }
        #expect(position == encoded.count && blocks == 3)
    }

    @Test("Indices that would take more than seven eighths of their bytes are not encoded")
    func notWorthIt() {
        var random = SplitMix64(seed: 7)
        let noise = (0..<10_000).map { _ in UInt8.random(in: 0...255, using: &random) }
        #expect(noise.withUnsafeBufferPointer { IndexLZ.encode($0, width: 100) } == nil)
        #expect([UInt8]().withUnsafeBufferPointer { IndexLZ.encode($0, width: 1) } == nil)
        #expect([UInt8](repeating: 0, count: 1_000).withUnsafeBufferPointer { IndexLZ.encode($0, width: 10) } != nil)
    }

    @Test("A reader stops at a malformed block instead of reading or writing out of bounds")
    func malformed() {
        let width = 16
        // A length past the end; literals promised but missing; a distance
        // of 0 and one before the band's start; a match past the band.
        #expect(Self.decode([9, 0, 0, 0, 0x00], width: width, count: 16) == nil)
        #expect(Self.decode([3, 0, 0, 0, 0x50, 1, 2], width: width, count: 16) == nil)
        #expect(Self.decode([5, 0, 0, 0, 0x10, 1, 0, 0, 0x00], width: width, count: 16) == nil)
        #expect(Self.decode([5, 0, 0, 0, 0x10, 1, 2, 0, 0x00], width: width, count: 16) == nil)
        var huge: [UInt8] = [0x1F, 1, 1, 0] + [UInt8](repeating: 255, count: 300) + [0]
        huge = [UInt8(huge.count & 0xFF), UInt8(huge.count >> 8), 0, 0] + huge
        #expect(Self.decode(huge, width: width, count: 16) == nil)
        // A continued count cut short.
        #expect(Self.decode([2, 0, 0, 0, 0xF0, 255], width: width, count: 16) == nil)
        #expect(Self.decode([2, 0, 0, 0], width: width, count: 16) == nil)
    }
}
