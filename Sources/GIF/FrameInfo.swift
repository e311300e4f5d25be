/// What the scanner learns about one frame without decoding it.
public struct FrameInfo: Sendable, Hashable {
    /// The frame's position in the file, from 0.
    public var index: Int
    /// The rectangle from the image descriptor, unclipped.
    public var rect: PixelRect
    /// Whether the rows are stored in four interlaced passes.
    package var isInterlaced: Bool
    /// The local colour table, if the frame has one.
    package var localPalette: Palette?
    /// The disposal from the frame's graphic control extension
    /// (``Disposal/unspecified`` without one).
    public var disposal: Disposal
    /// The transparent colour index, when the GCE's transparency flag is set.
    package var transparentIndex: UInt8?
    /// The delay as stored, in centiseconds (0 without a GCE).
    public var delayCentiseconds: Int
    /// Whether a graphic control extension preceded this frame.
    package var hasControlExtension: Bool
    /// Byte offset of the image descriptor (its `0x2C` introducer).
    package var descriptorOffset: Int
    /// Byte offset of the image data: the LZW minimum code size byte.
    @_spi(Benchmarks) public var dataOffset: Int
    /// Byte offset just past the image data's block terminator (or the end of
    /// the file when the data is cut short).
    @_spi(Benchmarks) public var dataEnd: Int
    /// The LZW minimum code size byte.
    package var lzwMinimumCodeSize: UInt8
    /// Whether the file ends inside this frame's data.
    package var isTruncated: Bool
    /// The loop count known when this frame's descriptor was read: the
    /// latest loop extension before it (``GIFInfo/loopCount`` is the latest
    /// in the whole file). NIA's footer records the last written frame's
    /// (as Wuffs' `convert-to-nia` does).
    public var loopCount = LoopCount(stored: nil)

    /// Whether the image data holds no pixel data at all: just the LZW
    /// minimum code size and a block terminator. Such a frame still counts
    /// and is shown as the canvas it leaves; the error follows it.
    package var hasNoImageData: Bool { !isTruncated && dataEnd - dataOffset == 2 }

    /// The delay as stored.
    public var delay: Duration { .milliseconds(delayCentiseconds * 10) }

    /// The delay browsers show: a stored delay of 0 or 1 cs (≤ 10 ms) becomes
    /// 100 ms; any other is kept.
    public var browserDelay: Duration {
        delayCentiseconds <= 1 ? .milliseconds(100) : delay
    }
}
