import Playback

/// Draws RGBA pixels as text for a 24-bit colour terminal: each character
/// cell shows two pixels, the upper one as the foreground of `▀` and the
/// lower one as its background.
///
/// A pure function of its input, so tests compare strings. Pixels with alpha
/// below 128 are transparent and show the terminal's default background:
/// a cell with only its lower pixel opaque draws `▄` in the lower colour, a
/// cell with neither draws a space. Colour codes are written only when they
/// change along a line; every line ends with a reset (`ESC[0m`), and lines
/// are joined by `\n` with no newline after the last.
enum HalfBlockRenderer {
    private struct Color: Equatable {
        var red: UInt8, green: UInt8, blue: UInt8
    }

    /// The most columns drawn (`gif play --width` refuses more): wider than
    /// any terminal, and small enough that the scaled picture stays a few
    /// MiB.
    static let maxColumns = 4096

    /// The image scaled to `columns` pixels wide (box filter, aspect ratio
    /// kept; the height rounds to the nearest pixel, at least 1), as
    /// `ceil(height / 2)` lines of `columns` cells; "" when `pixels` holds
    /// fewer than `width * height * 4` bytes.
    /// - Parameters:
    ///   - pixels: `width * height * 4` RGBA8 bytes, top row first.
    ///   - width: The image width in pixels.
    ///   - height: The image height in pixels.
    ///   - columns: The width to draw, in terminal columns (clamped to
    ///     1…``maxColumns``; the height to at most ``Poster/maxSide`` rows).
    static func render(pixels: [UInt8], width: Int, height: Int, columns: Int) -> String {
        guard width > 0, height > 0, pixels.count / 4 / height >= width else { return "" }
        let columns = min(max(1, columns), maxColumns)
        let (scaledHeight, overflow) = height.multipliedReportingOverflow(by: columns)
        let rows = overflow ? Poster.maxSide : min(Poster.maxSide, max(1, (scaledHeight + width / 2) / width))
        var image = pixels
        if columns != width || rows != height {
            let frame = RenderedFrame(index: 0, width: width, height: height, pixels: pixels)
            image = Poster.boxFilter(frame, width: columns, height: rows).pixels
        }
        func color(_ x: Int, _ y: Int) -> Color? {
            guard y < rows else { return nil }
            let i = (y * columns + x) * 4
            guard image[i + 3] >= 128 else { return nil }
            return Color(red: image[i], green: image[i + 1], blue: image[i + 2])
        }
        var lines: [String] = []
        for line in 0..<((rows + 1) / 2) {
            var text = ""
            var foreground: Color?
            var background: Color?  // nil: the terminal's default
            func setForeground(_ color: Color) {
                guard foreground != color else { return }
                foreground = color
                text += "\u{1B}[38;2;\(color.red);\(color.green);\(color.blue)m"
            }
            func setBackground(_ color: Color?) {
                guard background != color else { return }
                background = color
                text += color.map { "\u{1B}[48;2;\($0.red);\($0.green);\($0.blue)m" } ?? "\u{1B}[49m"
            }
            for x in 0..<columns {
                switch (color(x, 2 * line), color(x, 2 * line + 1)) {
                case (let upper?, let lower):
                    setForeground(upper)
                    setBackground(lower)
                    text += "▀"
                case (nil, let lower?):
                    setForeground(lower)
                    setBackground(nil)
                    text += "▄"
                case (nil, nil):
                    setBackground(nil)
                    text += " "
                }
            }
            lines.append(text + "\u{1B}[0m")
        }
        return lines.joined(separator: "\n")
    }
}
