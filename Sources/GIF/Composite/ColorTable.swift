/// A frame's 256 palette entries as RGBA8 words, ready for the compositor's
/// inner loop: entries past the palette, and every entry when there is no
/// palette, are opaque black.
struct ColorTable {
    /// Entry `i` as a `UInt32` whose bytes in memory are R, G, B, A.
    private(set) var words: [UInt32]

    init(_ palette: Palette?) {
        words = [UInt32](repeating: 0, count: 256)
        fill(from: palette)
    }

    /// Rewrites every entry from `palette`, in place.
    mutating func fill(from palette: Palette?) {
        let black = Self.word(red: 0, green: 0, blue: 0, alpha: 255)
        words.withUnsafeMutableBufferPointer { words in
            var i = 0
            if let palette {
                for color in palette.colors.prefix(256) {
                    words[i] = Self.word(red: color.red, green: color.green, blue: color.blue, alpha: 255)
                    i += 1
                }
            }
            while i < 256 {
                words[i] = black
                i += 1
            }
        }
    }

    /// Packs a colour so that its bytes in memory are R, G, B, A.
    static func word(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) -> UInt32 {
        (UInt32(red) | UInt32(green) << 8 | UInt32(blue) << 16 | UInt32(alpha) << 24).littleEndian
    }
}
