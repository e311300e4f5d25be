/// A failure to read or decode a GIF, with the evidence: what happened, in
/// which frame, at which byte offset, and how many frames were decoded before
/// it (those frames stay valid).
public struct GIFError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Hashable {
        /// The bytes are another format (or unknown), named by the sniffer.
        case notAGIF(ImageFormat)
        /// The file ends inside a block; `block` names it ("image data",
        /// "logical screen descriptor", "extension", …).
        case truncated(block: String)
        /// A decoding limit was reached before allocating.
        case limitExceeded(DecodingLimits.Limit, value: Int, maximum: Int)
        /// A frame's LZW data holds a code past the next free table entry
        /// (browsers stop there; giflib would make up pixels).
        case badLZWCode(Int)
        /// A frame's LZW minimum code size is above 8.
        case badLZWCodeSize(Int)
        /// A frame's LZW data ends (end code or block terminator) before its
        /// last pixel.
        case notEnoughImageData
        /// giflib's LZW decoder reported an error.
        case giflib(GIFLibError)
        /// A file could not be read.
        case io(path: String, reason: String)
        /// A frame index past the last frame was asked for.
        case frameOutOfRange(Int, count: Int)
    }

    /// What went wrong.
    public var kind: Kind
    /// The frame it happened in, if any.
    public var frameIndex: Int?
    /// The byte offset in the file where it was found, if known.
    public var byteOffset: Int?
    /// How many frames were decoded (and yielded) before it, including a frame
    /// whose rows were decoded only in part.
    public var framesDecoded: Int

    /// Creates an error.
    public init(_ kind: Kind, frameIndex: Int? = nil, byteOffset: Int? = nil, framesDecoded: Int = 0) {
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
        case .badLZWCode(let code): "the image data holds an invalid LZW code (\(code))"
        case .badLZWCodeSize(let size): "the image data's LZW code size \(size) is above 8"
        case .notEnoughImageData: "the image data ends before the frame's last pixel"
        case .giflib(let code): "giflib failed to decode the image data: \(code)"
        case .io(let path, let reason): "cannot read \(path): \(reason)"
        case .frameOutOfRange(let index, let count): "there is no frame \(index) (the file has \(count))"
        }
    }

    /// Where it happened: "frame 3, byte 1234", or "" when unknown.
    public var location: String {
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
