import CLibPNG

/// A PNG decoded with libpng's simplified reader, as 8-bit RGBA: the
/// tests' check on what the command writes, independent of its writer.
struct PNGFile: Equatable {
    var width: Int
    var height: Int
    /// Four bytes a pixel, red, green, blue, alpha; rows top first.
    var pixels: [UInt8]
    /// Whether the file stores an alpha channel (colour type 6) rather
    /// than RGB (colour type 2).
    var storesAlpha: Bool

    /// Decodes `bytes`; `nil` with libpng's message when it refuses them.
    static func decode(_ bytes: [UInt8]) -> Result<PNGFile, DecodeFailure> {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        let begun = bytes.withUnsafeBytes { png_image_begin_read_from_memory(&image, $0.baseAddress, $0.count) }
        defer { png_image_free(&image) }
        guard begun != 0 else { return .failure(DecodeFailure(message: message(image))) }
        let storesAlpha = image.format & UInt32(PNG_FORMAT_FLAG_ALPHA) != 0
        image.format = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)
        var pixels = [UInt8](repeating: 0, count: Int(image.width) * Int(image.height) * 4)
        let finished = pixels.withUnsafeMutableBytes { png_image_finish_read(&image, nil, $0.baseAddress, 0, nil) }
        guard finished != 0 else { return .failure(DecodeFailure(message: message(image))) }
        return .success(PNGFile(width: Int(image.width), height: Int(image.height), pixels: pixels, storesAlpha: storesAlpha))
    }

    struct DecodeFailure: Error, Equatable {
        var message: String
    }

    private static func message(_ image: png_image) -> String {
        withUnsafeBytes(of: image.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    /// The PNGs of a concatenation, split at the end of each IEND chunk
    /// (walking the chunks by their lengths); `nil` when `bytes` are not
    /// whole PNGs back to back.
    static func split(_ bytes: [UInt8]) -> [[UInt8]]? {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var files: [[UInt8]] = []
        var start = 0
        while start < bytes.count {
            guard bytes.count - start >= 8, Array(bytes[start..<start + 8]) == signature else { return nil }
            var at = start + 8
            while true {
                guard bytes.count - at >= 12 else { return nil }
                let length = bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) }
                let type = String(decoding: bytes[at + 4..<at + 8], as: UTF8.self)
                at += 12 + length
                guard at <= bytes.count else { return nil }
                if type == "IEND" { break }
            }
            files.append(Array(bytes[start..<at]))
            start = at
        }
        return files
    }
}
