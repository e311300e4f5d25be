/// An image container format, named from a file's first bytes.
///
/// ``Sniffer`` never looks at file names: many stores serve GIFs without a
/// `.gif` extension, and many `.gif` files are not GIFs.
public enum ImageFormat: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// A GIF with the `GIF87a` signature.
    case gif87a
    /// A GIF with the `GIF89a` signature.
    case gif89a
    /// A still PNG (`89 50 4E 47 0D 0A 1A 0A`, no `acTL` before `IDAT`).
    case png
    /// An animated PNG: a PNG whose `acTL` chunk comes before `IDAT`.
    case apng
    /// A JPEG (`FF D8 FF`).
    case jpeg
    /// A WebP (`RIFF....WEBP`).
    case webp
    /// An AVIF (`....ftyp` with brand `avif` or `avis`).
    case avif
    /// A HEIC/HEIF (`....ftyp` with brand `heic`, `heix` or `mif1`).
    case heic
    /// A Windows bitmap (`BM`).
    case bmp
    /// A Windows icon (`00 00 01 00`).
    case ico
    /// A TIFF (`II*\0` or `MM\0*`).
    case tiff
    /// Fewer than 6 bytes, or a signature this sniffer does not know.
    case unknown

    /// Whether this is one of the two GIF signatures.
    public var isGIF: Bool { self == .gif87a || self == .gif89a }

    /// A short human name: "GIF89a", "PNG", "JPEG", "unknown".
    public var description: String {
        switch self {
        case .gif87a: "GIF87a"
        case .gif89a: "GIF89a"
        case .png: "PNG"
        case .apng: "APNG"
        case .jpeg: "JPEG"
        case .webp: "WebP"
        case .avif: "AVIF"
        case .heic: "HEIC"
        case .bmp: "BMP"
        case .ico: "ICO"
        case .tiff: "TIFF"
        case .unknown: "unknown"
        }
    }
}
