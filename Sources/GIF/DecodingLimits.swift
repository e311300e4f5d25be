/// Bounds on what a decode may allocate or do, checked before the work is
/// done: per frame (canvas, frame rectangle) and per file (frames, total
/// pixels decoded, extensions, and for the `gif` command, output bytes and
/// files).
///
/// The defaults admit every real-world GIF we know of while keeping a hostile
/// file from taking more than a few hundred MiB: a 16384 × 16384 canvas
/// (1 GiB of RGBA) is refused, an 8192 × 8192 one is not.
///
/// ## Worst case under the defaults
///
/// With C = ``maxCanvasPixels``, F = ``maxFramePixels``, T = ``maxTotalPixels``,
/// N = ``maxFrameCount``, E = ``maxExtensionBytes`` and D = ``maxDecodeBytes``,
/// a decode of one file (scan, then every frame composited in order) holds
/// at most
///
///     memory ≈ input + min(D, 4·C (canvas) + 4·C (saved canvas, disposal 3)
///              + F (one frame's palette indices)) + E + 100 bytes·N (frame table)
///
/// that is 1 GiB + 384 MiB + 16 MiB + 6.25 MiB for the defaults (the input
/// limit dominates; a server should lower it, see ``uploads``), and does work
/// proportional to
///
///     CPU ∝ input bytes (scan) + T (LZW and compositing) + N (per frame)
///
/// where T = 2³⁰ pixels is about 4 to 8 CPU-seconds of decoding on one core.
/// A consumer that writes every frame whole (NIA, PPM) also writes
/// frames × 4·C bytes, bounded by `maxOutputBytes` (4 GiB).
public struct DecodingLimits: Sendable, Hashable {
    /// The limit that a file ran into.
    public enum Limit: String, Sendable, Hashable, CustomStringConvertible {
        /// ``DecodingLimits/maxCanvasPixels``.
        case canvasPixels = "canvas pixels"
        /// ``DecodingLimits/maxFramePixels``.
        case framePixels = "frame pixels"
        /// ``DecodingLimits/maxFrameCount``.
        case frameCount = "frame count"
        /// ``DecodingLimits/maxInputBytes``.
        case inputBytes = "input bytes"
        /// ``DecodingLimits/maxTotalPixels``.
        case totalPixels = "total frame pixels"
        /// ``DecodingLimits/maxExtensionBytes``.
        case extensionBytes = "extension bytes"
        /// ``DecodingLimits/maxExtensionCount``.
        case extensionCount = "extension count"
        /// `maxOutputBytes`.
        case outputBytes = "output bytes"
        /// `maxOutputFiles`.
        case outputFiles = "output files"
        /// ``DecodingLimits/maxDecodeBytes``.
        case decodeBytes = "decode memory"
        /// ``DecodingLimits/maxFrameDataBytes``.
        case frameDataBytes = "frame data bytes"

        /// The limit's name, e.g. "canvas pixels".
        public var description: String { rawValue }
    }

    /// Largest canvas, in pixels (width × height). Default 2²⁶ (64 Mi pixels,
    /// 256 MiB of RGBA).
    public var maxCanvasPixels: Int = 1 << 26
    /// Largest single frame rectangle, in pixels, before clipping. A frame is
    /// decoded in full even when most of it lies off the canvas, so this bounds
    /// the time one frame can take. Default 2²⁶.
    public var maxFramePixels: Int = 1 << 26
    /// Most frames in one file. Default 65,536.
    public var maxFrameCount: Int = 65_536
    /// Largest input, in bytes. Default 1 GiB.
    public var maxInputBytes: Int = 1 << 30
    /// Most pixels decoded from one file: the sum of every frame's rectangle
    /// (before clipping, since LZW decodes the whole rectangle). This bounds
    /// the decoding and compositing work of a file as ``maxFramePixels``
    /// bounds one frame's. The scan refuses the frame that would pass it, so
    /// the frames before it are kept and nothing is decoded beyond it.
    /// Default 2³⁰ (1 Gi pixels: 16 frames of 8192 × 8192, or 3,900 frames
    /// of 640 × 430).
    public var maxTotalPixels: Int = 1 << 30
    /// Most bytes of extension blocks (comments, application data, graphic
    /// control and unknown extensions, headers and sub-block lengths
    /// included) in one file; the scan stops at the extension that would
    /// pass it. Default 16 MiB.
    public var maxExtensionBytes: Int = 16 << 20
    /// Most extension blocks in one file (each frame usually has one, its
    /// graphic control extension). Default 2¹⁸ (262,144).
    public var maxExtensionCount: Int = 1 << 18
    /// Most bytes a consumer that writes whole frames (the `gif dump`
    /// command's NIA, PPM and PAM output) may write for one file; see
    /// `checkOutput(frames:bytesPerFrame:)`. Default 4 GiB.
    package var maxOutputBytes: Int = 1 << 32
    /// Most bytes the decoding of one frame may hold at once: the canvas
    /// (4 bytes a pixel), the saved copy of the canvas under a frame with
    /// disposal 3 (4 bytes a pixel of its clipped rectangle) and the frame's
    /// palette indices (1 byte a pixel of its whole rectangle). The scan
    /// refuses the first frame that would need more. Default 384 MiB: an
    /// 8192 × 8192 canvas with frames as large is decoded (320 MiB), but not
    /// when a frame covering it asks to be restored (disposal 3: 576 MiB).
    public var maxDecodeBytes: Int = 384 << 20
    /// Most files a consumer that writes one file per frame (the `gif dump`
    /// command's PPM and PAM output into a directory) may create for one
    /// file; see `checkOutputFiles(_:)`. Creating and renaming a file costs
    /// system time whatever its size: 65,536 one-pixel frames would take
    /// seconds of it. Default 16,384.
    package var maxOutputFiles: Int = 16_384
    /// Most bytes of one frame's image data: its LZW code size byte and its
    /// data sub-blocks, length bytes included (not the terminator). Nothing
    /// else bounds them: data may go on past the frame's last pixel (an
    /// encoder's padding, which decoders skip as browsers do), and clear
    /// codes make no pixels, so a 10 × 10 frame whose sub-blocks never end
    /// would be read up to ``maxInputBytes``. Checked as the sub-blocks
    /// arrive: the scan refuses the frame at the length byte of the
    /// sub-block that passes it, and keeps the frames before it.
    /// Default 100 MiB: what a frame of ``maxFramePixels`` pixels takes from
    /// an encoder that writes the widest codes, 12 bits a pixel (96 MiB),
    /// plus a length byte per 255 bytes and a clear code per 3,838 codes
    /// (under 0.5 MiB more), rounded up.
    public var maxFrameDataBytes: Int = 100 << 20

    /// Creates the default limits, each the value documented on it. Change
    /// one by setting it:
    ///
    /// ```swift
    /// var limits = DecodingLimits()
    /// limits.maxFrameCount = 1_000
    /// let image = try GIFImage(contentsOf: path, limits: limits)
    /// print(image.info.frameCount)   // at most 1,000
    /// ```
    public init() {}

    /// The default limits.
    public static let `default` = DecodingLimits()

    /// Stricter limits for a server making previews of strangers' uploads:
    /// 4096 × 4096 canvases (64 MiB of RGBA), frames of at most 2²⁴ pixels,
    /// 4,096 frames, 64 MiB of input, 2²⁷ pixels decoded in all (under a
    /// CPU-second), 1 MiB of extensions in at most 16,384 blocks, 512 MiB
    /// of output in at most 4,096 files, 160 MiB of decode memory and 25 MiB
    /// of one frame's data (12 bits a pixel of 2²⁴ pixels, as the default
    /// is derived). By the formula above a decode
    /// then holds at most about 64 (input) + 144 + 1 MiB, 209 MiB.
    public static let uploads: DecodingLimits = {
        var limits = DecodingLimits()
        limits.maxCanvasPixels = 1 << 24
        limits.maxFramePixels = 1 << 24
        limits.maxFrameCount = 4_096
        limits.maxInputBytes = 64 << 20
        limits.maxTotalPixels = 1 << 27
        limits.maxExtensionBytes = 1 << 20
        limits.maxExtensionCount = 1 << 14
        limits.maxOutputBytes = 512 << 20
        limits.maxDecodeBytes = 160 << 20
        limits.maxOutputFiles = 4_096
        limits.maxFrameDataBytes = 25 << 20
        return limits
    }()

    /// Checks, before anything is written, that writing `frames` frames of
    /// `bytesPerFrame` bytes each stays within `maxOutputBytes`.
    /// - Parameters:
    ///   - frames: How many frames will be written.
    ///   - bytesPerFrame: The bytes of each (for NIA, 4 per canvas pixel plus
    ///     its headers; for PPM, 3 per pixel).
    /// - Throws: ``GIFError`` with ``GIFError/Kind/limitExceeded(_:value:maximum:)``
    ///   for ``Limit/outputBytes``; the value saturates at `Int.max`.
    package func checkOutput(frames: Int, bytesPerFrame: Int) throws(GIFError) {
        let (total, overflow) = max(0, frames).multipliedReportingOverflow(by: max(0, bytesPerFrame))
        let value = overflow ? Int.max : total
        guard value <= maxOutputBytes else {
            throw GIFError(.limitExceeded(.outputBytes, value: value, maximum: maxOutputBytes))
        }
    }

    /// Checks, before a file is created, that creating `files` files in all
    /// stays within `maxOutputFiles`.
    /// - Parameter files: How many files will have been created.
    /// - Throws: ``GIFError`` with ``GIFError/Kind/limitExceeded(_:value:maximum:)``
    ///   for ``Limit/outputFiles``.
    package func checkOutputFiles(_ files: Int) throws(GIFError) {
        guard files <= maxOutputFiles else {
            throw GIFError(.limitExceeded(.outputFiles, value: files, maximum: maxOutputFiles))
        }
    }
}
