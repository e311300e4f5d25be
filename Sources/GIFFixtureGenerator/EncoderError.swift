import CGIFLib

/// A failure reported by giflib's encoder, with the call that failed.
///
/// `code` is one of giflib's `E_GIF_ERR_*` constants, e.g. `E_GIF_ERR_NO_COLOR_MAP`.
struct EncoderError: Error, CustomStringConvertible {
    /// The giflib function that failed, e.g. `"EGifPutImageDesc"`.
    var function: String
    /// giflib's error code.
    var code: Int32

    /// "EGifPutLine failed: Data is too big - exceeds size of image" (giflib's own words).
    var description: String {
        let text = GifErrorString(code).map { String(cString: $0) } ?? "unknown error"
        return "\(function) failed: \(text) (\(code))"
    }
}
