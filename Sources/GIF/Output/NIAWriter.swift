/// Writes NIA ("naive image animation"), the Wuffs project's uncompressed
/// dump of a composited animation, whose CRC-32s are published for public
/// corpora (layout in `CONFORMANCE.md`).
///
/// ```swift
/// var nia = NIAWriter(canvasSize: image.info.canvasSize)
/// var out = nia.header()
/// var frames = image.makeFrameIterator()
/// while let frame = try frames.next() { out += nia.frame(frame) }
/// out += nia.footer()
/// ```
public struct NIAWriter: Sendable {
    /// The canvas size written in the header and every frame.
    public let canvasSize: PixelSize
    /// How many frames have been written.
    public private(set) var framesWritten = 0
    private var elapsedFlicks: UInt64 = 0
    /// The loop count known when the last frame written was read.
    private var lastLoopCount = LoopCount(stored: nil)

    /// Flicks per centisecond: 705,600,000 flicks per second.
    static let flicksPerCentisecond: UInt64 = 7_056_000

    /// Starts a writer for a canvas.
    public init(canvasSize: PixelSize) {
        self.canvasSize = canvasSize
    }

    /// The 16-byte file header.
    public func header() -> [UInt8] {
        [0x6E, 0xC3, 0xAF, 0x41, 0xFF, 0x62, 0x6E, 0x34] + Self.u32(canvasSize.width) + Self.u32(canvasSize.height)
    }

    /// One frame: its cumulative display time in flicks (raw delays), then
    /// the whole canvas as a still image in B, G, R, A order.
    public mutating func frame(_ frame: CompositedFrame) -> [UInt8] {
        elapsedFlicks += UInt64(frame.info.delayCentiseconds) * Self.flicksPerCentisecond
        framesWritten += 1
        lastLoopCount = frame.info.loopCount
        let pixels = frame.pixels.count / 4
        var out = [UInt8]()
        out.reserveCapacity(24 + pixels * 4 + 4)
        withUnsafeBytes(of: elapsedFlicks.littleEndian) { out.append(contentsOf: $0) }
        out += [0x6E, 0xC3, 0xAF, 0x45, 0xFF, 0x62, 0x6E, 0x34]
        out += Self.u32(frame.size.width) + Self.u32(frame.size.height)
        for i in 0..<pixels {
            out += [frame.pixels[i * 4 + 2], frame.pixels[i * 4 + 1], frame.pixels[i * 4], frame.pixels[i * 4 + 3]]
        }
        if pixels % 2 == 1 { out += [0, 0, 0, 0] }
        return out
    }

    /// The 8-byte footer with the loop count known when the last frame
    /// written was read (``FrameInfo/loopCount``): a loop extension after the
    /// last frame does not change it, as in Wuffs' `convert-to-nia` (see
    /// `CONFORMANCE.md`). 0 when at most one frame was written.
    public func footer() -> [UInt8] {
        footer(loopCount: lastLoopCount)
    }

    /// The 8-byte footer: the number of plays (0 forever, stored N > 0 gives
    /// N + 1, no extension gives 1; 0 when at most one frame was written).
    /// ``footer()`` picks the loop count NIA records.
    public func footer(loopCount: LoopCount) -> [UInt8] {
        let plays = framesWritten <= 1 ? 0 : (loopCount.plays ?? 0)
        return Self.u32(plays) + [0x00, 0x00, 0x00, 0x80]
    }

    /// The whole NIA for `image`. A decode that fails part-way gives the
    /// frames completed so far (and the partial frame), the footer, and the
    /// error.
    public static func encode(_ image: GIFImage) -> (bytes: [UInt8], error: GIFError?) {
        var writer = NIAWriter(canvasSize: image.info.canvasSize)
        var out = writer.header()
        var frames = image.makeFrameIterator()
        var failure: GIFError?
        do {
            while let frame = try frames.next() { out += writer.frame(frame) }
        } catch {
            failure = error
        }
        out += writer.footer()
        return (out, failure)
    }

    static func u32(_ value: Int) -> [UInt8] {
        let v = UInt32(truncatingIfNeeded: value)
        return [UInt8(truncatingIfNeeded: v), UInt8(truncatingIfNeeded: v >> 8),
                UInt8(truncatingIfNeeded: v >> 16), UInt8(truncatingIfNeeded: v >> 24)]
    }
}
