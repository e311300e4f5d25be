/// A GIF colour table: up to 256 RGB entries.
public struct Palette: Sendable, Hashable {
    /// One colour table entry.
    public struct Color: Sendable, Hashable {
        /// Red, 0–255.
        public var red: UInt8
        /// Green, 0–255.
        public var green: UInt8
        /// Blue, 0–255.
        public var blue: UInt8

        /// Creates a colour.
        package init(red: UInt8, green: UInt8, blue: UInt8) {
            self.red = red
            self.green = green
            self.blue = blue
        }
    }

    /// The entries, in index order (2, 4, …, 256 of them in a well-formed file).
    package var colors: [Color]

    /// Creates a palette.
    package init(colors: [Color]) {
        self.colors = colors
    }

    /// Reads `count` RGB triplets from `bytes`.
    init(rgb bytes: ArraySlice<UInt8>) {
        var colors: [Color] = []
        colors.reserveCapacity(bytes.count / 3)
        var i = bytes.startIndex
        while i + 2 < bytes.endIndex {
            colors.append(Color(red: bytes[i], green: bytes[i + 1], blue: bytes[i + 2]))
            i += 3
        }
        self.colors = colors
    }

    /// The number of entries.
    package var count: Int { colors.count }
}
