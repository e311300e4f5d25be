/// Writes composited frames as Netpbm images, for inspection with any viewer.
public enum PNMWriter {
    /// An opaque RGB colour that transparent pixels are shown over.
    public typealias Background = Palette.Color

    /// A binary PPM (`P6`): the canvas composited over `background`, so a
    /// transparent pixel shows the background and an opaque one its colour
    /// (partial alpha, which GIF never makes, is blended and rounded).
    public static func ppm(_ frame: CompositedFrame, background: Background = .white) -> [UInt8] {
        let header = Array("P6\n\(frame.size.width) \(frame.size.height)\n255\n".utf8)
        let count = frame.size.area
        var out = header
        out.reserveCapacity(header.count + count * 3)
        let bg = [background.red, background.green, background.blue]
        for i in 0..<count {
            let alpha = Int(frame.pixels[i * 4 + 3])
            for c in 0..<3 {
                let value = Int(frame.pixels[i * 4 + c])
                out.append(UInt8((value * alpha + Int(bg[c]) * (255 - alpha) + 127) / 255))
            }
        }
        return out
    }

    /// A PAM (`P7`, `TUPLTYPE RGB_ALPHA`): the canvas with its alpha.
    public static func pam(_ frame: CompositedFrame) -> [UInt8] {
        let header = "P7\nWIDTH \(frame.size.width)\nHEIGHT \(frame.size.height)\nDEPTH 4\nMAXVAL 255\n"
            + "TUPLTYPE RGB_ALPHA\nENDHDR\n"
        return Array(header.utf8) + frame.pixels
    }
}

extension Palette.Color {
    /// White, the default PPM background: what ImageMagick's `-flatten` and
    /// most viewers put behind a transparent GIF.
    public static let white = Palette.Color(red: 255, green: 255, blue: 255)
}
