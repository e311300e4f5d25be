/// Writes composited frames as Netpbm images, for inspection with any viewer.
///
/// ``ppm(_:background:)`` and ``pam(_:)`` return a new array: convenient for
/// one frame. To write many frames, `appendPPM(_:background:to:)` and
/// `appendPAM(_:to:)` append to a buffer you empty (keeping its capacity)
/// after writing it out, so that no frame allocates.
///
/// A frame whose `pixels` hold fewer than `size.area × 4` bytes (a value built
/// by hand) is written at its stated size, the missing pixels as transparent
/// black; each side of the size is clamped to 0...65,535.
public enum PNMWriter {
    /// An opaque RGB colour that transparent pixels are shown over.
    public typealias Background = Palette.Color

    /// A binary PPM (`P6`): the canvas composited over `background`, so a
    /// transparent pixel shows the background and an opaque one its colour
    /// (partial alpha, which GIF never makes, is blended and rounded). A
    /// canvas already composited over a background
    /// (``CompositedFrame/background``) is written as it stands.
    public static func ppm(_ frame: CompositedFrame, background: Background = .white) -> [UInt8] {
        var out: [UInt8] = []
        appendPPM(frame, background: background, to: &out)
        return out
    }

    /// Appends the binary PPM of ``ppm(_:background:)`` to `out`, a row of
    /// pixels at a time, without allocating once `out` has the capacity.
    package static func appendPPM(_ frame: CompositedFrame, background: Background = .white, to out: inout [UInt8]) {
        let area = appendPPMHeader(frame, to: &out)
        appendRGB(frame, 0..<area, background: background, to: &out)
    }

    /// Writes the PPM of ``ppm(_:background:)`` through `write`. A canvas
    /// composited over a background
    /// (``GIFImage/makeFrameIterator(parallel:background:)``) is the PPM's
    /// pixels: its `pixels` array is handed to `write` as it stands, after
    /// the header, with no copy. Any other frame is converted in parts of
    /// about `partBytes` built in `buffer`, so that the image of a large
    /// canvas is never held whole beside the canvas. On return `buffer` is
    /// empty, its capacity kept.
    package static func writePPM<Failure: Error>(
        _ frame: CompositedFrame, background: Background = .white, buffer: inout [UInt8],
        partBytes: Int = 1 << 20, to write: ([UInt8]) throws(Failure) -> Void
    ) throws(Failure) {
        let area = appendPPMHeader(frame, to: &buffer)
        if frame.background != nil, frame.pixels.count == area * 3 {
            try write(buffer)
            buffer.removeAll(keepingCapacity: true)
            try write(frame.pixels)
            return
        }
        try writeParts(area: area, bytesPerPixel: 3, partBytes: partBytes, buffer: &buffer, to: write) { range, out in
            appendRGB(frame, range, background: background, to: &out)
        }
    }

    /// A PAM (`P7`, `TUPLTYPE RGB_ALPHA`): the canvas with its alpha (opaque
    /// for a canvas over a background).
    public static func pam(_ frame: CompositedFrame) -> [UInt8] {
        var out: [UInt8] = []
        appendPAM(frame, to: &out)
        return out
    }

    /// Appends the PAM of ``pam(_:)`` to `out`, the pixels in one copy.
    package static func appendPAM(_ frame: CompositedFrame, to out: inout [UInt8]) {
        let area = appendPAMHeader(frame, to: &out)
        appendRGBA(frame, 0..<area, to: &out)
    }

    /// Writes the PAM of ``pam(_:)`` through `write`: the header from
    /// `buffer`, then an RGBA canvas's `pixels` array as it stands, with no
    /// copy (other frames in parts, as
    /// ``writePPM(_:background:buffer:partBytes:to:)`` writes).
    package static func writePAM<Failure: Error>(
        _ frame: CompositedFrame, buffer: inout [UInt8], partBytes: Int = 1 << 20,
        to write: ([UInt8]) throws(Failure) -> Void
    ) throws(Failure) {
        let area = appendPAMHeader(frame, to: &buffer)
        if frame.pixelFormat == .rgba8, frame.background == nil, frame.pixels.count == area * 4 {
            // The canvas is the PAM's pixels: written as it stands.
            try write(buffer)
            buffer.removeAll(keepingCapacity: true)
            try write(frame.pixels)
            return
        }
        try writeParts(area: area, bytesPerPixel: 4, partBytes: partBytes, buffer: &buffer, to: write) { range, out in
            appendRGBA(frame, range, to: &out)
        }
    }

    /// Appends the pixels of `area` a part at a time with `append`, handing
    /// `buffer` to `write` whenever it holds `partBytes`, and at the end.
    private static func writeParts<Failure: Error>(
        area: Int, bytesPerPixel: Int, partBytes: Int, buffer: inout [UInt8],
        to write: ([UInt8]) throws(Failure) -> Void,
        append: (Range<Int>, inout [UInt8]) -> Void
    ) throws(Failure) {
        let step = max(1, partBytes / bytesPerPixel)
        var next = 0
        while next < area {
            let end = min(area, next + step)
            append(next..<end, &buffer)
            next = end
            if buffer.count >= partBytes {
                try write(buffer)
                buffer.removeAll(keepingCapacity: true)
            }
        }
        if !buffer.isEmpty {
            try write(buffer)
            buffer.removeAll(keepingCapacity: true)
        }
    }

    private static func appendPPMHeader(_ frame: CompositedFrame, to out: inout [UInt8]) -> Int {
        let size = NIAWriter.clamped(frame.size)
        appendASCII("P6\n", to: &out)
        appendDecimal(size.width, to: &out)
        appendASCII(" ", to: &out)
        appendDecimal(size.height, to: &out)
        appendASCII("\n255\n", to: &out)
        return size.area
    }

    private static func appendPAMHeader(_ frame: CompositedFrame, to out: inout [UInt8]) -> Int {
        let size = NIAWriter.clamped(frame.size)
        appendASCII("P7\nWIDTH ", to: &out)
        appendDecimal(size.width, to: &out)
        appendASCII("\nHEIGHT ", to: &out)
        appendDecimal(size.height, to: &out)
        appendASCII("\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n", to: &out)
        return size.area
    }

    /// Appends the pixels `range` of `frame` as RGBA: as they are, or opaque
    /// from a canvas over a background.
    private static func appendRGBA(_ frame: CompositedFrame, _ range: Range<Int>, to out: inout [UInt8]) {
        if frame.background != nil {
            NIAWriter.appendOpaque(frame.pixels, range, blueFirst: false, to: &out)
        } else {
            NIAWriter.appendWords(frame.pixels, range, to: &out)
        }
    }

    /// Appends the pixels `range` of `frame` as RGB: copied from a canvas
    /// over a background (pixels past the end of it show that background),
    /// else RGBA composited over `background` (pixels past the end show
    /// `background`).
    private static func appendRGB(
        _ frame: CompositedFrame, _ range: Range<Int>, background: Background, to out: inout [UInt8]
    ) {
        if let baked = frame.background {
            let lower = min(range.lowerBound * 3, frame.pixels.count)
            let upper = min(range.upperBound * 3, frame.pixels.count)
            out.append(contentsOf: frame.pixels[lower..<upper])
            for _ in 0..<(range.count * 3 - (upper - lower)) / 3 {
                out.append(baked.red)
                out.append(baked.green)
                out.append(baked.blue)
            }
            return
        }
        let pixels = frame.pixels
        let start = out.count
        NIAWriter.appendZeros(range.count * 3, to: &out)
        let present = max(0, min(range.upperBound, pixels.count / 4) - range.lowerBound)
        let (bgRed, bgGreen, bgBlue) = (Int(background.red), Int(background.green), Int(background.blue))
        pixels.withUnsafeBytes { source in
            out.withUnsafeMutableBytes { destination in
                assert(start + range.count * 3 <= destination.count)
                assert((range.lowerBound + present) * 4 <= source.count)
                for i in 0..<range.count {
                    let s = (range.lowerBound &+ i) &* 4, d = start &+ i &* 3
                    let alpha = i < present ? Int(source[s &+ 3]) : 0
                    switch alpha {
                    case 255:
                        destination[d] = source[s]
                        destination[d &+ 1] = source[s &+ 1]
                        destination[d &+ 2] = source[s &+ 2]
                    case 0:
                        destination[d] = UInt8(truncatingIfNeeded: bgRed)
                        destination[d &+ 1] = UInt8(truncatingIfNeeded: bgGreen)
                        destination[d &+ 2] = UInt8(truncatingIfNeeded: bgBlue)
                    default:
                        destination[d] = blend(source[s], bgRed, alpha)
                        destination[d &+ 1] = blend(source[s &+ 1], bgGreen, alpha)
                        destination[d &+ 2] = blend(source[s &+ 2], bgBlue, alpha)
                    }
                }
            }
        }
    }

    /// `value` over the background `base` with `alpha`, rounded.
    private static func blend(_ value: UInt8, _ base: Int, _ alpha: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: (Int(value) * alpha + base * (255 - alpha) + 127) / 255)
    }

    /// Appends a static ASCII string's bytes (no allocation).
    private static func appendASCII(_ text: StaticString, to out: inout [UInt8]) {
        text.withUTF8Buffer { out.append(contentsOf: $0) }
    }

    /// Appends `value` (≥ 0) in decimal, without building a string.
    static func appendDecimal(_ value: Int, to out: inout [UInt8]) {
        var divisor = 1
        while divisor <= value / 10 { divisor *= 10 }
        var rest = max(value, 0)
        while divisor > 0 {
            out.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }
}

extension Palette.Color {
    /// White, the default PPM background: what ImageMagick's `-flatten` and
    /// most viewers put behind a transparent GIF.
    public static let white = Palette.Color(red: 255, green: 255, blue: 255)
}
