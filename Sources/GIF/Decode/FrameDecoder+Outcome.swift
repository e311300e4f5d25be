/// What decoding one frame's data yields, the error it makes, and the
/// interlace row order.
extension FrameDecoder {
    /// How far a frame's decode got.
    struct Outcome: Sendable {
        /// Rows decoded in full, in stream order.
        var rows: Int
        /// Pixels decoded in the row after those, when the data failed mid-row.
        var partialPixels: Int
        /// Why the frame is not whole, if it is not.
        var failure: Failure?
        /// Byte offset where the data went wrong.
        var offset: Int

        /// Whether any pixel was decoded.
        var decodedAnything: Bool { rows > 0 || partialPixels > 0 }

        /// An outcome with nothing decoded and nothing wrong (a zero-size frame).
        static let empty = Outcome(rows: 0, partialPixels: 0, failure: nil, offset: 0)
    }

    /// Why a frame's data did not yield every pixel.
    enum Failure: Equatable, Sendable {
        /// Found by ``LZWCodeCheck`` before giflib ran.
        case stream(LZWCodeCheck.Stop)
        /// Reported by giflib.
        case giflib(GIFLibError)
    }

    /// The row (from the frame's top) that stream row `r` of a frame of
    /// `height` rows belongs to.
    @inline(__always)
    static func displayRow(_ r: Int, height: Int, interlaced: Bool) -> Int {
        interlaced ? interlacedRow(r, height: height) : r
    }

    /// The canvas row (from the frame's top) that stream row `r` of an
    /// interlaced frame of `height` rows belongs to. Passes: rows 0, 8, 16…;
    /// 4, 12…; 2, 6, 10…; 1, 3, 5…
    static func interlacedRow(_ r: Int, height: Int) -> Int {
        let pass1 = (height + 7) / 8, pass2 = (height + 3) / 8, pass3 = (height + 1) / 4
        if r < pass1 { return r * 8 }
        if r < pass1 + pass2 { return (r - pass1) * 8 + 4 }
        if r < pass1 + pass2 + pass3 { return (r - pass1 - pass2) * 4 + 2 }
        return (r - pass1 - pass2 - pass3) * 2 + 1
    }
}

extension FrameDecoder.Outcome {
    /// The error for `frame` when its data did not yield every pixel: what
    /// went wrong, in which frame, at which byte offset. The caller that
    /// knows how many frames came before sets `GIFError.framesDecoded`.
    func error(in frame: FrameInfo) -> GIFError? {
        guard let failure else { return nil }
        let kind: GIFError.Kind
        switch failure {
        case .stream(.dataEnded) where frame.isTruncated: kind = .truncated(block: .imageData)
        case .stream(.dataEnded), .stream(.endCode), .stream(.complete): kind = .notEnoughImageData
        case .stream(.badCode(let code, let nextFree)): kind = .badLZWCode(code: code, nextFree: nextFree)
        case .stream(.badCodeSize(let size)): kind = .badLZWCodeSize(size)
        case .giflib(let code): kind = .giflib(code)
        }
        return GIFError(kind, frameIndex: frame.index, byteOffset: offset)
    }
}
