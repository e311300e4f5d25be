@testable import GIF
import Testing

/// ``IndexRuns``' format: `0x00…0x7F` then `t + 1` literals, `0x80…0xFE`
/// then a value repeated `t − 0x80 + 3` times, `0xFF` then a four-byte
/// length, least significant first, and a value.
@Suite("Index runs: a frame's indices as runs and literals")
struct IndexRunsTests {
    static func encode(_ values: [UInt8]) -> [UInt8]? {
        values.withUnsafeBufferPointer { IndexRuns.encode($0) }
    }

    /// Reads `encoded` back `chunk` values at a time.
    static func decode(_ encoded: [UInt8], count: Int, chunk: Int) -> [UInt8] {
        var reader = IndexRuns.Reader(encoded)
        var out = [UInt8](repeating: 0xAA, count: count)
        var done = 0
        out.withUnsafeMutableBufferPointer { buffer in
            while done < count {
                let n = min(chunk, count - done)
                let read = reader.read(into: UnsafeMutableBufferPointer(rebasing: buffer[done..<done + n]))
                done += read
                if read < n { break }
            }
        }
        return Array(out[..<done])
    }

    @Test("Runs of 3 to 129 take two bytes, longer ones six; short stretches are literals")
    func tokens() throws {
        let zeros = [UInt8](repeating: 0, count: 1_000)
        let values = zeros + [1, 2, 3, 4] + zeros + [7, 7, 7] + [UInt8](repeating: 9, count: 129) + [5, 5]
        let encoded = try #require(Self.encode(values))
        #expect(encoded == [0xFF, 0xE8, 0x03, 0, 0, 0] + [0x03, 1, 2, 3, 4] + [0xFF, 0xE8, 0x03, 0, 0, 0]
            + [0x80, 7] + [0xFE, 9] + [0x01, 5, 5])
        for chunk in [1, 7, 128, 130, 5_000] {
            #expect(Self.decode(encoded, count: values.count, chunk: chunk) == values, "chunk \(chunk)")
        }
    }

    /// The bytes the format takes for `values`, counted from its rules: a
    /// run of 3 to 129 equal values two bytes, a longer one six, and the
    /// values between runs one byte each and one more per 128 of them.
    static func formatCount(_ values: [UInt8]) -> Int {
        var count = 0, literals = 0, index = 0
        func flush() {
            count += literals + (literals + 127) / 128
            literals = 0
        }
        while index < values.count {
            var end = index + 1
            while end < values.count, values[end] == values[index] { end += 1 }
            if end - index >= 3 {
                flush()
                count += end - index <= 129 ? 2 : 6
            } else {
                literals += end - index
            }
            index = end
        }
        flush()
        return count
    }

    @Test("Runs of every length from 1 to 40, starting at every offset in a word, end where their values change")
    func runLengthsAndOffsets() {
        for offset in 0..<9 {
            for length in 1...40 {
                for tail in [0, 1, 2, 3, 7, 8, 9, 300] {
                    // `offset` literals, the run, then `tail` values of
                    // another, which may themselves be a run.
                    let values = (0..<offset).map { UInt8($0 % 2 + 1) } + [UInt8](repeating: 5, count: length)
                        + [UInt8](repeating: 6, count: tail)
                    let counted = values.withUnsafeBufferPointer { IndexRuns.encodedCount($0) }
                    #expect(counted == Self.formatCount(values), "\(offset) + \(length) + \(tail)")
                    if let encoded = Self.encode(values) {
                        #expect(encoded.count == counted)
                        #expect(Self.decode(encoded, count: values.count, chunk: 7) == values)
                    }
                }
            }
        }
    }

    @Test("A literal stretch is split every 128 values")
    func longLiterals() throws {
        let literals = (0..<300).map { UInt8($0 % 2) }
        let values = [UInt8](repeating: 4, count: 4_000) + literals
        let encoded = try #require(Self.encode(values))
        #expect(encoded.count == 6 + (1 + 128) + (1 + 128) + (1 + 44))
        #expect(Self.decode(encoded, count: values.count, chunk: 100) == values)
    }

    @Test("Indices whose runs would take more than an eighth of them are not encoded")
    func notAnEighth() {
        #expect(Self.encode((0..<1_000).map { UInt8($0 % 3) }) == nil)
        // One run of n takes 2 bytes: kept from n = 16 (an eighth is 2 bytes).
        #expect(Self.encode([UInt8](repeating: 0, count: 15)) == nil)
        #expect(Self.encode([UInt8](repeating: 0, count: 16)) == [0x8D, 0])
        #expect(Self.encode([1]) == nil)
        #expect(Self.encode([]) == nil)
    }

    @Test("A reader stops at the end of malformed runs instead of reading past them")
    func malformed() {
        // A literal token promising 5 values with 2 present; a long run cut short.
        #expect(Self.decode([0x04, 1, 2], count: 10, chunk: 4) == [1, 2])
        #expect(Self.decode([0xFF, 0x10, 0], count: 10, chunk: 4) == [])
        #expect(Self.decode([0x80], count: 10, chunk: 4) == [])
    }
}
