/// Writes NIA ("naive image animation"), the Wuffs project's uncompressed
/// dump of a composited animation, whose CRC-32s are published for public
/// corpora (the layout is in ``header()`` and the frame writers).
///
/// For small uses, each part comes back as an array:
///
/// ```swift
/// import Foundation
///
/// var nia = NIAWriter(canvasSize: image.info.canvasSize)
/// var out = nia.header()
/// var frames = image.makeFrameIterator()
/// while let frame = try frames.next() { out += nia.frame(frame) }
/// out += nia.footer()
/// try FileHandle.standardOutput.write(contentsOf: out)   // CRC-32 it to compare with a corpus
/// ```
///
/// To stream a long animation in constant memory, append each part to one
/// buffer that you empty (keeping its capacity) after writing it out: after
/// the first frame, no call allocates.
///
/// ```swift
/// import Foundation
///
/// let output = FileHandle.standardOutput
/// var nia = NIAWriter(canvasSize: image.info.canvasSize)
/// var frames = image.makeFrameIterator()
/// var buffer: [UInt8] = []
/// nia.appendHeader(to: &buffer)
/// while let frame = try frames.next() {
///     nia.appendFrame(frame, to: &buffer)
///     try output.write(contentsOf: buffer)
///     buffer.removeAll(keepingCapacity: true)
/// }
/// nia.appendFooter(to: &buffer)
/// try output.write(contentsOf: buffer)
/// ```
public struct NIAWriter: Sendable {
    /// The canvas size written in the header.
    package let canvasSize: PixelSize
    /// How many frames have been written.
    package private(set) var framesWritten = 0
    private var elapsedFlicks: UInt64 = 0
    /// The loop count known when the last frame written was read.
    private var lastLoopCount = LoopCount(stored: nil)

    /// The magic bytes of the file header ("nïA" and version), of a frame
    /// header ("nïE"…) and the footer's end marker.
    static let headerMagic: [UInt8] = [0x6E, 0xC3, 0xAF, 0x41, 0xFF, 0x62, 0x6E, 0x34]
    static let frameMagic: [UInt8] = [0x6E, 0xC3, 0xAF, 0x45, 0xFF, 0x62, 0x6E, 0x34]
    static let footerMagic: [UInt8] = [0x00, 0x00, 0x00, 0x80]

    /// Flicks per centisecond: 705,600,000 flicks per second.
    static let flicksPerCentisecond: UInt64 = 7_056_000

    /// Starts a writer for a canvas.
    public init(canvasSize: PixelSize) {
        self.canvasSize = canvasSize
    }

    /// The number of bytes ``appendFrame(_:to:)`` writes for a frame of
    /// `size`: 24 bytes of frame header, 4 per pixel, and 4 bytes of padding
    /// when the pixel count is odd.
    package static func frameByteCount(_ size: PixelSize) -> Int {
        let area = clamped(size).area
        return 24 + area * 4 + (area % 2) * 4
    }

    /// `size` with each side clamped to 0...65,535, the most a GIF can state:
    /// what the writers use, so that a size built by hand cannot overflow.
    static func clamped(_ size: PixelSize) -> PixelSize {
        PixelSize(width: min(max(size.width, 0), 65_535), height: min(max(size.height, 0), 65_535))
    }

    /// The 16-byte file header.
    public func header() -> [UInt8] {
        var out: [UInt8] = []
        appendHeader(to: &out)
        return out
    }

    /// Appends the 16-byte file header to `out`.
    public func appendHeader(to out: inout [UInt8]) {
        out.append(contentsOf: Self.headerMagic)
        Self.appendU32(canvasSize.width, to: &out)
        Self.appendU32(canvasSize.height, to: &out)
    }

    /// One frame: its cumulative display time in flicks (raw delays), then
    /// the whole canvas as a still image in B, G, R, A order.
    public mutating func frame(_ frame: CompositedFrame) -> [UInt8] {
        var out: [UInt8] = []
        appendFrame(frame, to: &out)
        return out
    }

    /// Appends one frame to `out` (see ``frame(_:)``), with no allocation
    /// once `out` has the capacity (`frameByteCount(_:)` more bytes). An
    /// RGBA canvas is converted to BGRA a pixel word at a time; a canvas in
    /// `PixelFormat.premultipliedBGRA8` is copied as it stands (see
    /// `writeFrame(_:buffer:partBytes:to:)`).
    ///
    /// A frame whose `pixels` hold fewer than `size.area × 4` bytes (a value
    /// built by hand) is written at its stated size, the missing pixels as
    /// transparent black; bytes past the area are ignored. Each side of the
    /// size is clamped to 0...65,535.
    public mutating func appendFrame(_ frame: CompositedFrame, to out: inout [UInt8]) {
        let area = appendFrameHeader(frame, to: &out)
        Self.appendPixels(frame, 0..<area, to: &out)
        if area % 2 == 1 { out.append(contentsOf: repeatElement(0, count: 4)) }
    }

    /// Writes one frame (the bytes of ``appendFrame(_:to:)``) through
    /// `write`. On return `buffer` is empty, its capacity kept for the next
    /// frame.
    ///
    /// A canvas composited in `PixelFormat.premultipliedBGRA8` (what
    /// `makeFrameIterator(pixelFormat: .premultipliedBGRA8)` returns) is
    /// already NIA's layout: a GIF's canvas holds only opaque pixels and
    /// transparent black, which premultiplying leaves as they are. Its
    /// `pixels` array is handed to `write` as it stands, after the frame
    /// header, with no copy. Any other frame is converted in parts of about
    /// `partBytes` built in `buffer`, so that the frame of a large canvas is
    /// never held whole beside the canvas.
    package mutating func writeFrame<Failure: Error>(
        _ frame: CompositedFrame, buffer: inout [UInt8], partBytes: Int = 1 << 20,
        to write: ([UInt8]) throws(Failure) -> Void
    ) throws(Failure) {
        let area = appendFrameHeader(frame, to: &buffer)
        if frame.pixelFormat == .premultipliedBGRA8, frame.background == nil, frame.pixels.count == area * 4 {
            try write(buffer)
            buffer.removeAll(keepingCapacity: true)
            try write(frame.pixels)
        } else {
            let step = max(1, partBytes / 4)
            var next = 0
            while next < area {
                let end = min(area, next + step)
                Self.appendPixels(frame, next..<end, to: &buffer)
                next = end
                if buffer.count >= partBytes {
                    try write(buffer)
                    buffer.removeAll(keepingCapacity: true)
                }
            }
        }
        if area % 2 == 1 { buffer.append(contentsOf: repeatElement(0, count: 4)) }
        if !buffer.isEmpty {
            try write(buffer)
            buffer.removeAll(keepingCapacity: true)
        }
    }

    /// Counts the frame and appends its 24-byte header; returns its pixel
    /// count (the size clamped, see ``appendFrame(_:to:)``).
    private mutating func appendFrameHeader(_ frame: CompositedFrame, to out: inout [UInt8]) -> Int {
        elapsedFlicks &+= UInt64(frame.info.delayCentiseconds) &* Self.flicksPerCentisecond
        framesWritten += 1
        lastLoopCount = frame.info.loopCount
        let size = Self.clamped(frame.size)
        withUnsafeBytes(of: elapsedFlicks.littleEndian) { out.append(contentsOf: $0) }
        out.append(contentsOf: Self.frameMagic)
        Self.appendU32(size.width, to: &out)
        Self.appendU32(size.height, to: &out)
        return size.area
    }

    /// Appends the pixels `range` of `frame` as BGRA: copied as they are
    /// from a `PixelFormat.premultipliedBGRA8` canvas, converted from
    /// RGBA, or from RGB over a background (opaque) otherwise.
    private static func appendPixels(_ frame: CompositedFrame, _ range: Range<Int>, to out: inout [UInt8]) {
        if frame.background != nil { return appendOpaque(frame.pixels, range, blueFirst: true, to: &out) }
        switch frame.pixelFormat {
        case .premultipliedBGRA8: appendWords(frame.pixels, range, to: &out)
        case .rgba8: appendBGRA(frame.pixels, range, to: &out)
        }
    }

    /// Appends the 3-byte pixels `range` of `pixels` (red, green, blue) as
    /// opaque 4-byte pixels, in B, G, R, A order when `blueFirst`, else R,
    /// G, B, A; pixels past the end of `pixels` are transparent black.
    static func appendOpaque(_ pixels: [UInt8], _ range: Range<Int>, blueFirst: Bool, to out: inout [UInt8]) {
        out.reserveCapacity(out.count + range.count * 4)
        let present = max(0, min(range.upperBound, pixels.count / 3) - range.lowerBound)
        for i in range.lowerBound..<range.lowerBound + present {
            let red = pixels[i * 3], green = pixels[i * 3 + 1], blue = pixels[i * 3 + 2]
            out.append(blueFirst ? blue : red)
            out.append(green)
            out.append(blueFirst ? red : blue)
            out.append(255)
        }
        if present < range.count { appendZeros((range.count - present) * 4, to: &out) }
    }

    /// Appends the 4-byte pixels `range` of `pixels` as they are; pixels
    /// past the end of `pixels` are transparent black.
    static func appendWords(_ pixels: [UInt8], _ range: Range<Int>, to out: inout [UInt8]) {
        let lower = min(range.lowerBound * 4, pixels.count)
        let upper = min(range.upperBound * 4, pixels.count)
        out.append(contentsOf: pixels[lower..<upper])
        let missing = range.count * 4 - (upper - lower)
        appendZeros(missing, to: &out)
    }

    /// Appends `count` zero bytes (none when `count` ≤ 0) from a zeroed block
    /// on the stack: a copy at memory speed in any build, where appending
    /// `repeatElement` walks byte by byte in an unoptimised one.
    static func appendZeros(_ count: Int, to out: inout [UInt8]) {
        guard count > 0 else { return }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: min(count, 4096)) { zeros in
            zeros.initialize(repeating: 0)
            var left = count
            while left > 0 {
                let n = min(left, zeros.count)
                out.append(contentsOf: UnsafeBufferPointer(rebasing: zeros[..<n]))
                left -= n
            }
        }
    }

    /// Appends the pixels `range` of RGBA `pixels` as BGRA, a pixel word at
    /// a time, through a small buffer on the stack (so `out` is written
    /// once, by a copy, rather than zero-filled and then written); pixels
    /// past the end of `pixels` are transparent black.
    private static func appendBGRA(_ pixels: [UInt8], _ range: Range<Int>, to out: inout [UInt8]) {
        out.reserveCapacity(out.count + range.count * 4)
        let present = max(0, min(range.upperBound, pixels.count / 4) - range.lowerBound)
        let chunk = 4096
        pixels.withUnsafeBytes { source in
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: chunk) { words in
                var done = 0
                while done < present {
                    let count = min(chunk, present - done)
                    let first = range.lowerBound &+ done
                    assert((first + count) * 4 <= source.count)
                    for i in 0..<count {
                        // R G B A in memory, read as a little-endian word: swap R and B.
                        let rgba = UInt32(
                            littleEndian: source.loadUnaligned(fromByteOffset: (first &+ i) &* 4, as: UInt32.self))
                        words[i] = ((rgba & 0xFF00_FF00) | ((rgba & 0xFF) << 16) | ((rgba >> 16) & 0xFF)).littleEndian
                    }
                    UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: words[..<count])).withMemoryRebound(
                        to: UInt8.self
                    ) { out.append(contentsOf: $0) }
                    done += count
                }
            }
        }
        if present < range.count { appendZeros((range.count - present) * 4, to: &out) }
    }

    /// The 8-byte footer with the loop count known when the last frame
    /// written was read (``FrameInfo/loopCount``): a loop extension after the
    /// last frame does not change it, as in Wuffs' `convert-to-nia`. 0 when at most one frame was written.
    public func footer() -> [UInt8] {
        footer(loopCount: lastLoopCount)
    }

    /// Appends the footer NIA records (see ``footer()``) to `out`.
    public func appendFooter(to out: inout [UInt8]) {
        appendFooter(loopCount: lastLoopCount, to: &out)
    }

    /// The 8-byte footer: the number of plays (0 forever, stored N > 0 gives
    /// N + 1, no extension gives 1; 0 when at most one frame was written).
    /// ``footer()`` picks the loop count NIA records.
    package func footer(loopCount: LoopCount) -> [UInt8] {
        var out: [UInt8] = []
        appendFooter(loopCount: loopCount, to: &out)
        return out
    }

    /// Appends the 8-byte footer (see ``footer(loopCount:)``) to `out`.
    package func appendFooter(loopCount: LoopCount, to out: inout [UInt8]) {
        let plays = framesWritten <= 1 ? 0 : (loopCount.plays ?? 0)
        Self.appendU32(plays, to: &out)
        out.append(contentsOf: Self.footerMagic)
    }

    /// The whole NIA for `image`, in memory: for small images. A decode that
    /// fails part-way gives the frames completed so far (and the partial
    /// frame), the footer, and the error. To stream a long animation, use
    /// ``appendFrame(_:to:)`` with one reused buffer.
    package static func encode(_ image: GIFImage) -> (bytes: [UInt8], error: GIFError?) {
        var writer = NIAWriter(canvasSize: image.info.canvasSize)
        var out: [UInt8] = []
        writer.appendHeader(to: &out)
        var frames = image.makeFrameIterator()
        var failure: GIFError?
        do {
            while let frame = try frames.next() { writer.appendFrame(frame, to: &out) }
        } catch {
            failure = error
        }
        writer.appendFooter(to: &out)
        return (out, failure)
    }

    /// Appends `value`'s low 32 bits, little-endian.
    static func appendU32(_ value: Int, to out: inout [UInt8]) {
        withUnsafeBytes(of: UInt32(truncatingIfNeeded: value).littleEndian) { out.append(contentsOf: $0) }
    }
}
