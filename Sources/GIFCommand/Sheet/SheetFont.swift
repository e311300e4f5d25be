/// The contact sheet's label font: 3 × 5 pixel glyphs for the digits and
/// the few other characters a label uses (`#`, `m`, `s`, space), drawn at
/// an integer scale.
enum SheetFont {
    static let glyphWidth = 3
    static let glyphHeight = 5
    /// From one glyph's left edge to the next one's.
    static let advance = glyphWidth + 1

    /// The glyph of `character`, five rows of three bits from the top, the
    /// high bit of each row leftmost; blank for a character it lacks.
    static func glyph(_ character: Character) -> UInt16 {
        switch character {
        case "0": 0b111_101_101_101_111
        case "1": 0b010_110_010_010_111
        case "2": 0b111_001_111_100_111
        case "3": 0b111_001_111_001_111
        case "4": 0b101_101_111_001_001
        case "5": 0b111_100_111_001_111
        case "6": 0b111_100_111_101_111
        case "7": 0b111_001_001_001_001
        case "8": 0b111_101_111_101_111
        case "9": 0b111_101_111_001_111
        case "#": 0b101_111_101_111_101
        case "m": 0b000_110_111_101_101
        case "s": 0b000_011_110_011_110
        default: 0
        }
    }

    /// Draws `text` into RGBA8 `pixels` (rows `bytesPerRow` apart) with its
    /// top-left corner at `x`, `y`, each font pixel `scale` square in
    /// `color`; nothing at or right of `right` is touched.
    static func draw(
        _ text: String, x: Int, y: Int, right: Int, scale: Int, color: (UInt8, UInt8, UInt8),
        into pixels: inout [UInt8], bytesPerRow: Int
    ) {
        var left = x
        for character in text {
            let bits = glyph(character)
            for row in 0..<glyphHeight * scale {
                for column in 0..<glyphWidth * scale where left + column < right {
                    let bit = (glyphHeight - 1 - row / scale) * glyphWidth + (glyphWidth - 1 - column / scale)
                    guard bits >> bit & 1 == 1 else { continue }
                    let i = (y + row) * bytesPerRow + (left + column) * 4
                    (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3]) = (color.0, color.1, color.2, 255)
                }
            }
            left += advance * scale
            if left >= right { break }
        }
    }
}
