/// An RGB colour table entry, as the fixtures describe their palettes.
struct Color: Hashable {
    var red: UInt8
    var green: UInt8
    var blue: UInt8

    init(_ red: UInt8, _ green: UInt8, _ blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }
}

/// The colour tables the fixtures share. Tests spell the same colours out
/// again from this description, so keep the two in step.
enum Palettes {
    /// The 8-entry table of the small fixtures. Indices:
    /// 0 red, 1 green, 2 blue, 3 yellow, 4 cyan, 5 magenta, 6 white, 7 gray.
    static let standard: [Color] = [
        Color(255, 0, 0), Color(0, 255, 0), Color(0, 0, 255), Color(255, 255, 0),
        Color(0, 255, 255), Color(255, 0, 255), Color(255, 255, 255), Color(128, 128, 128),
    ]

    /// Indices into ``standard``, named.
    enum Index {
        static let red: UInt8 = 0
        static let green: UInt8 = 1
        static let blue: UInt8 = 2
        static let yellow: UInt8 = 3
        static let cyan: UInt8 = 4
        /// The background index of every small fixture: it must never show,
        /// since the background colour is metadata only.
        static let magenta: UInt8 = 5
        static let white: UInt8 = 6
        static let gray: UInt8 = 7
    }

    /// 16 entries, entry `i` = (16·i, 128, 255 − 16·i): every red value differs.
    static let ramp16: [Color] = (0..<16).map { (i: Int) -> Color in Color(UInt8(16 * i), 128, UInt8(255 - 16 * i)) }

    /// 256 entries, entry `i` = (i, 255 − i, 7·i mod 256): every red value differs.
    static let full256: [Color] = (0..<256).map { (i: Int) -> Color in Color(UInt8(i), UInt8(255 - i), UInt8(i * 7 & 0xFF)) }
}
