/// A frame's 256 palette entries as words in the canvas's `PixelFormat`,
/// ready for the compositor's inner loop: entries past the palette, and every
/// entry when there is no palette, are opaque black. The format is applied
/// here, 256 times per palette, so the inner loop only stores words.
struct ColorTable {
    /// Entry `i` as a `UInt32` whose bytes in memory are the pixel's bytes in
    /// ``format``.
    private(set) var words: [UInt32]
    /// The same entries as four planes of 256 bytes, for the compositor's
    /// vector path: byte `k` (in memory) of entry `i` at `256 * k + i`.
    private(set) var planes: [UInt8]
    /// The layout of each word's bytes.
    let format: PixelFormat

    init(_ palette: Palette?, format: PixelFormat = .rgba8) {
        words = [UInt32](repeating: 0, count: 256)
        planes = [UInt8](repeating: 0, count: 1024)
        self.format = format
        fill(from: palette)
    }

    /// Takes on `other`'s entries, copied into this table's own storage, so
    /// that neither shares storage with the other afterwards (a seeker
    /// restoring a checkpoint then refills its table without a copy).
    mutating func assign(from other: ColorTable) {
        guard format == other.format else {
            self = other
            return
        }
        words.withUnsafeMutableBufferPointer { _ = $0.update(fromContentsOf: other.words) }
        planes.withUnsafeMutableBufferPointer { _ = $0.update(fromContentsOf: other.planes) }
    }

    /// Rewrites every entry from `palette`, in place: the words and the
    /// planes in one pass over the palette's storage.
    mutating func fill(from palette: Palette?) {
        let format = format
        words.withUnsafeMutableBufferPointer { words in
            planes.withUnsafeMutableBufferPointer { planes in
                @inline(__always) func set(_ i: Int, _ red: UInt8, _ green: UInt8, _ blue: UInt8) {
                    Self.store(Self.word(red: red, green: green, blue: blue, alpha: 255, format: format), at: i,
                               words: words, planes: planes)
                }
                let filled = palette?.colors.withUnsafeBufferPointer { colors in
                    let count = min(colors.count, 256)
                    for i in 0..<count { set(i, colors[i].red, colors[i].green, colors[i].blue) }
                    return count
                } ?? 0
                for i in filled..<256 { set(i, 0, 0, 0) }
            }
        }
    }

    /// Sets entry `index` to `word`, returning the word it held.
    mutating func replace(_ index: Int, with word: UInt32) -> UInt32 {
        let old = words[index]
        words.withUnsafeMutableBufferPointer { words in
            planes.withUnsafeMutableBufferPointer { planes in Self.store(word, at: index, words: words, planes: planes) }
        }
        return old
    }

    /// Writes `word` as entry `index` of `words` and of `planes`.
    @inline(__always)
    private static func store(
        _ word: UInt32, at index: Int, words: UnsafeMutableBufferPointer<UInt32>, planes: UnsafeMutableBufferPointer<UInt8>
    ) {
        words[index] = word
        let value = UInt32(littleEndian: word)
        for k in 0..<4 { planes[256 * k + index] = UInt8(truncatingIfNeeded: value >> UInt32(8 * k)) }
    }

    /// Runs `body` with ``words`` and ``planes``.
    func withEntries<Result>(_ body: (UnsafePointer<UInt32>, UnsafePointer<UInt8>) -> Result) -> Result {
        words.withUnsafeBufferPointer { words in
            planes.withUnsafeBufferPointer { planes in body(words.baseAddress!, planes.baseAddress!) }
        }
    }

    /// Runs `body` with ``planes`` alone: the vector path reads nothing else.
    func withPlanes<Result>(_ body: (UnsafePointer<UInt8>) -> Result) -> Result {
        planes.withUnsafeBufferPointer { body($0.baseAddress!) }
    }

    /// Packs a colour (not premultiplied) so that its bytes in memory are
    /// the pixel's bytes in `format`: R, G, B, A for `PixelFormat.rgba8`.
    static func word(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8, format: PixelFormat = .rgba8) -> UInt32 {
        let (b0, b1, b2, b3) = format.bytes(red: red, green: green, blue: blue, alpha: alpha)
        return (UInt32(b0) | UInt32(b1) << 8 | UInt32(b2) << 16 | UInt32(b3) << 24).littleEndian
    }
}
