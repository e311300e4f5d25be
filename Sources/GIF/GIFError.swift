#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A failure to read or decode a GIF, with the evidence: what happened, in
/// which frame, at which byte offset, and how many frames were decoded before
/// it (those frames stay valid).
///
/// A call that both decodes and writes into the host's buffer
/// (``FrameSeeker/copyFrame(at:into:bytesPerRow:onlyChanged:)``) reports a
/// buffer it cannot write into as ``Kind/buffer(_:)``, holding the
/// `PixelBufferError` that every such check in the library throws.
public struct GIFError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The block of a GIF file a truncation happened in.
    public enum Block: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// The 7 bytes after the signature: screen size, flags, background.
        case logicalScreenDescriptor = "logical screen descriptor"
        /// The colour table after the logical screen descriptor.
        case globalColorTable = "global colour table"
        /// An extension block (graphic control, comment, application, …).
        case `extension` = "extension"
        /// The 10 bytes that start an image: position, size, flags.
        case imageDescriptor = "image descriptor"
        /// The colour table after an image descriptor.
        case localColorTable = "local colour table"
        /// A frame's LZW minimum code size and data sub-blocks.
        case imageData = "image data"

        /// The block's name in prose: "image data".
        public var description: String { rawValue }
    }

    /// A POSIX error number from a failed system call, like swift-system's
    /// `Errno`; the description is the system's text, from `strerror`.
    public struct Errno: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The `errno` value, such as `ENOENT`.
        public var rawValue: Int32

        /// Wraps an `errno` value.
        public init(rawValue: Int32) {
            self.rawValue = rawValue
        }

        /// The system's text for the number, e.g. "No such file or directory".
        public var description: String {
            guard let text = strerror(rawValue) else { return "error \(rawValue)" }
            return String(cString: text)
        }
    }

    /// What went wrong.
    ///
    /// `indirect`: errors are rare, and with the payloads stored inline
    /// Swift 6.3's generated code crashed (`swift_release` of a bad pointer
    /// in an outlined destroy of `Result<GIFError?, any Error>`) when
    /// Swift Testing's `#expect(throws:)` boxed a thrown error.
    public indirect enum Kind: Sendable, Hashable {
        /// The bytes are another format (or unknown), named by the sniffer.
        case notAGIF(ImageFormat)
        /// The file ends inside a block; `block` names it.
        case truncated(block: Block)
        /// A decoding limit was reached before allocating.
        case limitExceeded(DecodingLimits.Limit, value: Int, maximum: Int)
        /// A frame's LZW data holds `code`, past `nextFree`, the next free
        /// table entry (browsers stop there; giflib would make up pixels).
        /// Also a first code after a clear that is not a literal: `nextFree`
        /// is then the first entry after the end code.
        case badLZWCode(code: Int, nextFree: Int)
        /// A frame's LZW minimum code size is above 8.
        case badLZWCodeSize(Int)
        /// A frame's LZW data ends (end code or block terminator) before its
        /// last pixel.
        case notEnoughImageData
        /// giflib's LZW decoder reported an error.
        case giflib(GIFLibError)
        /// A file could not be read: the system call failed with `errno`.
        case io(path: String, errno: Errno)
        /// A FIFO at `path` had no writer within `waited` (see
        /// `GIFImage.init(contentsOf:limits:)`).
        case noWriter(path: String, waited: Duration)
        /// A FIFO at `path` had a writer that sent nothing, and did not close
        /// it, within `waited` (see `GIFImage.init(contentsOf:limits:)`).
        case noDataFromWriter(path: String, waited: Duration)
        /// A frame index past the last frame was asked for.
        case frameOutOfRange(Int, count: Int)
        /// The host's buffer cannot take the canvas (its rows too close
        /// together, or too few bytes), checked before anything is decoded
        /// or written.
        case buffer(PixelBufferError)
    }

    /// What went wrong.
    public var kind: Kind
    /// The frame it happened in, if any.
    package var frameIndex: Int?
    /// The byte offset in the file where it was found, if known.
    package var byteOffset: Int?
    /// How many frames were decoded (and yielded) before it, including a frame
    /// whose rows were decoded only in part.
    package var framesDecoded: Int

    /// Creates an error.
    package init(_ kind: Kind, frameIndex: Int? = nil, byteOffset: Int? = nil, framesDecoded: Int = 0) {
        self.kind = kind
        self.frameIndex = frameIndex
        self.byteOffset = byteOffset
        self.framesDecoded = framesDecoded
    }

    /// What happened, without the location: "this is a PNG file, not a GIF".
    public var reason: String {
        switch kind {
        case .notAGIF(.unknown): "this is not a GIF file (unknown signature)"
        case .notAGIF(let format): "this is a \(format) file, not a GIF"
        case .truncated(let block): "the file ends inside the \(block)"
        case .limitExceeded(let limit, let value, let maximum):
            "the \(limit) limit is exceeded (\(value) > \(maximum))"
        case .badLZWCode(let code, _): "the image data holds an invalid LZW code (\(code))"
        case .badLZWCodeSize(let size): "the image data's LZW code size \(size) is above 8"
        case .notEnoughImageData: "the image data ends before the frame's last pixel"
        case .giflib(let code): "giflib failed to decode the image data: \(code)"
        case .io(let path, let errno): "cannot read \(path): \(errno)"
        case .noWriter(_, let waited): "no writer opened the FIFO within \(waited)"
        case .noDataFromWriter(_, let waited):
            "a writer opened the FIFO but sent nothing within \(waited)"
        case .frameOutOfRange(let index, let count): "there is no frame \(index) (the file has \(count))"
        case .buffer(let error): error.description
        }
    }

    /// Where it happened: "frame 3, byte 1234", or "" when unknown.
    package var location: String {
        var parts: [String] = []
        if let frameIndex { parts.append("frame \(frameIndex)") }
        if let byteOffset { parts.append("byte \(byteOffset)") }
        return parts.joined(separator: ", ")
    }

    /// "REASON (frame N, byte B; K frames decoded)": the count of frames
    /// kept is given for failures while decoding.
    public var description: String {
        var text = reason
        var context = location
        if case .frameOutOfRange = kind {
            context = ""
        } else if framesDecoded > 0 || frameIndex != nil {
            let decoded = "\(framesDecoded) frame\(framesDecoded == 1 ? "" : "s") decoded"
            context = context.isEmpty ? decoded : "\(context); \(decoded)"
        }
        if !context.isEmpty { text += " (\(context))" }
        return text
    }
}
