/// How a composited canvas lays out its pixels: four bytes each, row-major,
/// top row first, in the byte order the host draws with.
///
/// The format is chosen once, when a decoder's iterator or seeker, or a
/// frame source, is made. GIF applies it when a palette is turned into the
/// compositor's colour table (256 entries), never pixel by pixel, so every
/// format costs the same to composite. A canvas starts all zero,
/// transparent black in every format.
public enum PixelFormat: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Red, green, blue, alpha; not premultiplied.
    case rgba8
    /// Blue, green, red, alpha, each colour multiplied by alpha / 255: the
    /// layout Core Graphics (`premultipliedFirst` with 32-bit little-endian
    /// order) and most GPUs (`BGRA8Unorm`) take without conversion. GIF
    /// colours are opaque or fully transparent, so premultiplying leaves an
    /// opaque colour as it is.
    case premultipliedBGRA8

    /// The bytes of one pixel: 4.
    package static let bytesPerPixel = 4

    /// Whether colours are stored multiplied by alpha: how scaling averages
    /// them (a premultiplied colour is averaged as it is, a straight one
    /// weighted by its alpha).
    package var isPremultiplied: Bool {
        switch self {
        case .rgba8: false
        case .premultipliedBGRA8: true
        }
    }

    /// `"rgba8"` or `"premultiplied-bgra8"`.
    public var description: String {
        switch self {
        case .rgba8: "rgba8"
        case .premultipliedBGRA8: "premultiplied-bgra8"
        }
    }

    /// The bytes of one pixel of colour (`red`, `green`, `blue`, `alpha`),
    /// not premultiplied, in this format.
    public func bytes(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) -> (UInt8, UInt8, UInt8, UInt8) {
        switch self {
        case .rgba8:
            return (red, green, blue, alpha)
        case .premultipliedBGRA8:
            func scaled(_ c: UInt8) -> UInt8 { UInt8((UInt32(c) * UInt32(alpha) + 127) / 255) }
            return (scaled(blue), scaled(green), scaled(red), alpha)
        }
    }
}
