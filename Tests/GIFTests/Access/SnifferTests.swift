import Testing
@testable import GIF

/// The sniffer names formats from magic bytes (the signatures each format publishes).
@Suite struct SnifferTests {
    /// Each non-GIF corpus file and the format its signature says it is.
    static let notGIF: [(String, ImageFormat)] = [
        ("1bit.ico", .ico), ("1xint32_min.bmp", .bmp), ("55.jpg", .jpeg), ("apng00.png", .apng),
        ("crbug.364830.webp", .webp), ("green-10.png", .png), ("silver-full-range-srgb-420-8bpc.avif", .avif),
    ]

    @Test(arguments: notGIF)
    func namesOtherFormats(_ name: String, _ format: ImageFormat) throws {
        let bytes = try Corpus.bytes("not-gif/\(name)")
        #expect(Sniffer.sniff(bytes).format == format)
        #expect(throws: GIFError(.notAGIF(format), byteOffset: 0)) { try GIFImage(bytes: bytes) }
    }

    @Test func everyNotGIFFileIsListed() {
        #expect(Corpus.files(in: "not-gif").count == Self.notGIF.count)
    }

    @Test func openingAPNGSaysSo() throws {
        let error = try #require(throws: GIFError.self) {
            try GIFImage(contentsOf: Corpus.path("not-gif/green-10.png"))
        }
        #expect(error.reason == "this is a PNG file, not a GIF")
    }

    @Test(arguments: ["blink", "go", "image-gif/samples", "pillow"])
    func namesEveryCorpusGIF(_ folder: String) throws {
        let names = Corpus.files(in: folder).filter { $0.hasSuffix(".gif") }
        #expect(!names.isEmpty)
        for name in names {
            let format = Sniffer.sniff(try Corpus.bytes(name)).format
            #expect(format.isGIF, "\(name) sniffed as \(format)")
        }
    }

    @Test func readsPixelSizeFromHeaders() throws {
        // GIF: logical screen width and height, little-endian, at bytes 6–9.
        let gif: [UInt8] = Array("GIF89a".utf8) + [0x34, 0x12, 0x02, 0x01]
        #expect(Sniffer.sniff(gif) == .init(format: .gif89a, pixelSize: PixelSize(width: 0x1234, height: 0x0102)))
        // PNG: IHDR width and height, big-endian, at bytes 16–23.
        let png = Sniffer.pngSignature + [0, 0, 0, 13] + Array("IHDR".utf8) + [0, 0, 1, 0, 0, 0, 0, 7]
        #expect(Sniffer.sniff(png) == .init(format: .png, pixelSize: PixelSize(width: 256, height: 7)))
    }

    @Test func isStricterThanGiflib() {
        #expect(Sniffer.sniff(Array("GIF88a....".utf8)).format == .unknown)
        #expect(Sniffer.sniff(Array("GIF".utf8)).format == .unknown)
        #expect(Sniffer.sniff(Array("GIF89".utf8)).format == .unknown)
        #expect(Sniffer.sniff(Array("GIF87a".utf8)).format == .gif87a)
        #expect(Sniffer.sniff([0xFF, 0xD8, 0xFF]).format == .unknown, "fewer than 6 bytes is unknown")
        #expect(Sniffer.sniff([UInt8]()).format == .unknown)
    }

    static let signatures: [([UInt8], ImageFormat)] = {
        let ftyp: [UInt8] = [0, 0, 0, 0x18] + Array("ftyp".utf8)
        let tail: [UInt8] = [0, 0, 0, 0]
        let riff: [UInt8] = Array("RIFF".utf8) + [0, 0, 0, 0]
        return [
            (Array("II*\0abcd".utf8), .tiff), (Array("MM\0*abcd".utf8), .tiff),
            (ftyp + Array("heic".utf8) + tail, .heic), (ftyp + Array("mif1".utf8) + tail, .heic),
            (ftyp + Array("avis".utf8) + tail, .avif), (ftyp + Array("isom".utf8) + tail, .unknown),
            (riff + Array("WEBPVP8 ".utf8), .webp), (riff + Array("WAVEfmt ".utf8), .unknown),
            (Array("BM\0\0\0\0".utf8), .bmp), ([0, 0, 1, 0, 1, 0], .ico),
        ]
    }()

    @Test(arguments: signatures)
    func namesSignatures(_ bytes: [UInt8], _ format: ImageFormat) {
        #expect(Sniffer.sniff(bytes).format == format)
    }
}
