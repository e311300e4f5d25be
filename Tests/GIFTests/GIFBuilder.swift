/// Assembles GIF bytes by hand, block by block, so a test knows every byte.
///
/// Image data is written as "uncompressed" LZW: 9-bit literal codes with a
/// clear code often enough that the code width never grows, which any
/// conforming decoder reads back as exactly the indices given.
struct GIFBuilder {
    var bytes: [UInt8]

    /// Header and logical screen; `palette` is a global table of RGB triplets
    /// (its length a power of two, 2…256 entries).
    init(width: Int, height: Int, palette: [[UInt8]]? = nil, version: String = "GIF89a") {
        bytes = Array(version.utf8) + Self.le16(width) + Self.le16(height)
        if let palette {
            bytes += [0x80 | UInt8(Self.sizeField(palette.count)), 0, 0]
            bytes += palette.flatMap { $0 }
        } else {
            bytes += [0, 0, 0]
        }
    }

    /// A graphic control extension.
    mutating func control(disposal: UInt8 = 0, delay: Int = 0, transparent: UInt8? = nil) {
        bytes += [0x21, 0xF9, 4, disposal << 2 | (transparent == nil ? 0 : 1)]
        bytes += Self.le16(delay) + [transparent ?? 0, 0]
    }

    /// A `NETSCAPE2.0` (or other) loop extension storing `count`.
    mutating func loop(_ count: Int, identifier: String = "NETSCAPE2.0") {
        bytes += [0x21, 0xFF, 11] + Array(identifier.utf8) + [3, 1] + Self.le16(count) + [0]
    }

    /// A comment extension.
    mutating func comment(_ text: String) {
        bytes += [0x21, 0xFE, UInt8(text.utf8.count)] + Array(text.utf8) + [0]
    }

    /// An image: descriptor, optional local table, and `indices` as LZW data.
    mutating func image(
        x: Int = 0, y: Int = 0, width: Int, height: Int, indices: [UInt8],
        palette: [[UInt8]]? = nil, interlaced: Bool = false
    ) {
        bytes += [0x2C] + Self.le16(x) + Self.le16(y) + Self.le16(width) + Self.le16(height)
        var flags: UInt8 = interlaced ? 0x40 : 0
        if let palette { flags |= 0x80 | UInt8(Self.sizeField(palette.count)) }
        bytes.append(flags)
        if let palette { bytes += palette.flatMap { $0 } }
        bytes += Self.lzw(indices)
    }

    /// The trailer.
    mutating func trailer() {
        bytes.append(0x3B)
    }

    /// Code size 8, then 9-bit codes: clear, up to 250 literals, clear, …, end.
    static func lzw(_ indices: [UInt8]) -> [UInt8] {
        var codes: [Int] = []
        for (i, index) in indices.enumerated() {
            if i % 250 == 0 { codes.append(256) }
            codes.append(Int(index))
        }
        codes.append(257)
        var packed: [UInt8] = []
        var bits = 0, count = 0
        for code in codes {
            bits |= code << count
            count += 9
            while count >= 8 {
                packed.append(UInt8(bits & 0xFF))
                bits >>= 8
                count -= 8
            }
        }
        if count > 0 { packed.append(UInt8(bits)) }
        var out: [UInt8] = [8]
        var start = 0
        while start < packed.count {
            let chunk = packed[start..<min(start + 255, packed.count)]
            out.append(UInt8(chunk.count))
            out += chunk
            start += 255
        }
        return out + [0]
    }

    static func le16(_ value: Int) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)]
    }

    static func sizeField(_ entries: Int) -> Int {
        var field = 0
        while 2 << field < entries { field += 1 }
        return field
    }
}

extension GIFBuilder {
    /// An image whose LZW data (code size 2) decodes to at least `pixels`
    /// zeros in few bytes: literal 0, then each new code one zero longer
    /// than the last, then, with the table full, code 4095 over and over.
    /// About 16,400 codes (25 KB) cover 64 Mi pixels.
    mutating func zeroRunImage(x: Int = 0, y: Int = 0, width: Int, height: Int) {
        bytes += [0x2C] + Self.le16(x) + Self.le16(y) + Self.le16(width) + Self.le16(height) + [0]
        bytes += Self.lzwZeroRun(pixels: width * height)
    }

    static func lzwZeroRun(pixels: Int) -> [UInt8] {
        var codes: [(code: Int, width: Int)] = [(4, 3), (0, 3)]  // clear, then literal 0
        var covered = 1, next = 6, width = 3
        while covered < pixels {
            let code = min(next, 4095)
            codes.append((code, width))
            covered += next < 4096 ? next - 4 : 4091
            if next < 4096 {
                next += 1
                if next == 1 << width, width < 12 { width += 1 }
            }
        }
        codes.append((5, width))  // end
        var packed: [UInt8] = []
        var bits = 0, count = 0
        for (code, width) in codes {
            bits |= code << count
            count += width
            while count >= 8 {
                packed.append(UInt8(bits & 0xFF))
                bits >>= 8
                count -= 8
            }
        }
        if count > 0 { packed.append(UInt8(bits)) }
        var out: [UInt8] = [2]
        var start = 0
        while start < packed.count {
            let chunk = packed[start..<min(start + 255, packed.count)]
            out.append(UInt8(chunk.count))
            out += chunk
            start += 255
        }
        return out + [0]
    }
}
