/// Names an image format from a file's first bytes, and reads the pixel size
/// from the header where the format puts it there (GIF and PNG).
///
/// ```swift
/// let sniff = Sniffer.sniff(bytes.prefix(32))         // a file's first bytes
/// if sniff.format.isGIF, let size = sniff.pixelSize {
///     print(size.width, size.height)                  // lay out its cell before decoding
/// }
/// ```
///
/// The sniffer is stricter than giflib, which accepts any `GIF` prefix: only
/// `GIF87a` and `GIF89a` count, and fewer than 6 bytes are always
/// ``ImageFormat/unknown``.
public enum Sniffer {
    /// What the first bytes of a file say.
    public struct Result: Sendable, Hashable {
        /// The format.
        public var format: ImageFormat
        /// The pixel size from the header: a GIF's logical screen, a PNG's
        /// `IHDR`. `nil` for other formats or when the header is cut short.
        public var pixelSize: PixelSize?
    }

    /// Sniffs a buffer: the whole file or just its start. APNG is told from PNG
    /// only when the buffer reaches the `acTL` chunk.
    public static func sniff(_ bytes: some Collection<UInt8>) -> Result {
        let head = Array(bytes.prefix(4096))
        let format = format(of: head)
        return Result(format: format, pixelSize: pixelSize(of: head, format: format))
    }

    static func format(of b: [UInt8]) -> ImageFormat {
        guard b.count >= 6 else { return .unknown }
        if b.starts(with: Array("GIF87a".utf8)) { return .gif87a }
        if b.starts(with: Array("GIF89a".utf8)) { return .gif89a }
        if b.starts(with: pngSignature) { return isAnimatedPNG(b) ? .apng : .png }
        if b.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if b.count >= 12, b.starts(with: Array("RIFF".utf8)), Array(b[8..<12]) == Array("WEBP".utf8) {
            return .webp
        }
        if let brand = isoBrand(b) { return brand }
        if b.starts(with: [0x00, 0x00, 0x01, 0x00]) { return .ico }
        if b.starts(with: [0x49, 0x49, 0x2A, 0x00]) || b.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) { return .tiff }
        if b.starts(with: [0x42, 0x4D]) { return .bmp }
        return .unknown
    }

    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Walks PNG chunks looking for `acTL` before `IDAT`.
    static func isAnimatedPNG(_ b: [UInt8]) -> Bool {
        var offset = 8
        while offset + 8 <= b.count {
            let length = Int(bigEndian32(b, offset))
            let type = String(decoding: b[offset + 4..<offset + 8], as: Unicode.ASCII.self)
            if type == "acTL" { return true }
            if type == "IDAT" { return false }
            offset += 12 + length
        }
        return false
    }

    /// AVIF or HEIC from an ISO-BMFF `ftyp` box: the major brand first, then
    /// the compatible brands.
    static func isoBrand(_ b: [UInt8]) -> ImageFormat? {
        guard b.count >= 12, Array(b[4..<8]) == Array("ftyp".utf8) else { return nil }
        let boxEnd = min(Int(bigEndian32(b, 0)), b.count)
        var brands = [Array(b[8..<12])]
        var offset = 16
        while offset + 4 <= boxEnd {
            brands.append(Array(b[offset..<offset + 4]))
            offset += 4
        }
        for brand in brands.map({ String(decoding: $0, as: Unicode.ASCII.self) }) {
            switch brand {
            case "avif", "avis": return .avif
            case "heic", "heix", "mif1": return .heic
            default: continue
            }
        }
        return nil
    }

    static func pixelSize(of b: [UInt8], format: ImageFormat) -> PixelSize? {
        switch format {
        case .gif87a, .gif89a:
            guard b.count >= 10 else { return nil }
            return PixelSize(width: Int(b[6]) | Int(b[7]) << 8, height: Int(b[8]) | Int(b[9]) << 8)
        case .png, .apng:
            guard b.count >= 24, Array(b[12..<16]) == Array("IHDR".utf8) else { return nil }
            return PixelSize(width: Int(bigEndian32(b, 16)), height: Int(bigEndian32(b, 20)))
        default:
            return nil
        }
    }

    static func bigEndian32(_ b: [UInt8], _ offset: Int) -> UInt32 {
        UInt32(b[offset]) << 24 | UInt32(b[offset + 1]) << 16 | UInt32(b[offset + 2]) << 8 | UInt32(b[offset + 3])
    }
}
