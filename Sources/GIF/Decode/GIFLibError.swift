import CGIFLib

/// An error code reported by giflib's decoder, like swift-system's `Errno`.
///
/// The description is giflib's own text, from `GifErrorString`.
public struct GIFLibError: RawRepresentable, Error, Sendable, Hashable, CustomStringConvertible {
    /// The `D_GIF_ERR_*` value.
    public var rawValue: Int32

    /// Wraps a giflib error code.
    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// Failed to open the given file. The corresponding C constant is `D_GIF_ERR_OPEN_FAILED`.
    package static let openFailed = GIFLibError(rawValue: D_GIF_ERR_OPEN_FAILED)
    /// Failed to read from the input. The corresponding C constant is `D_GIF_ERR_READ_FAILED`.
    package static let readFailed = GIFLibError(rawValue: D_GIF_ERR_READ_FAILED)
    /// The data is not in GIF format. The corresponding C constant is `D_GIF_ERR_NOT_GIF_FILE`.
    package static let notGIFFile = GIFLibError(rawValue: D_GIF_ERR_NOT_GIF_FILE)
    /// No screen descriptor was found. The corresponding C constant is `D_GIF_ERR_NO_SCRN_DSCR`.
    package static let noScreenDescriptor = GIFLibError(rawValue: D_GIF_ERR_NO_SCRN_DSCR)
    /// No image descriptor was found. The corresponding C constant is `D_GIF_ERR_NO_IMAG_DSCR`.
    package static let noImageDescriptor = GIFLibError(rawValue: D_GIF_ERR_NO_IMAG_DSCR)
    /// Neither a global nor a local colour map. The corresponding C constant is `D_GIF_ERR_NO_COLOR_MAP`.
    package static let noColorMap = GIFLibError(rawValue: D_GIF_ERR_NO_COLOR_MAP)
    /// A record of an unexpected type. The corresponding C constant is `D_GIF_ERR_WRONG_RECORD`.
    package static let wrongRecord = GIFLibError(rawValue: D_GIF_ERR_WRONG_RECORD)
    /// More pixel data than the image holds. The corresponding C constant is `D_GIF_ERR_DATA_TOO_BIG`.
    package static let dataTooBig = GIFLibError(rawValue: D_GIF_ERR_DATA_TOO_BIG)
    /// giflib ran out of memory. The corresponding C constant is `D_GIF_ERR_NOT_ENOUGH_MEM`.
    package static let notEnoughMemory = GIFLibError(rawValue: D_GIF_ERR_NOT_ENOUGH_MEM)
    /// Closing the input failed. The corresponding C constant is `D_GIF_ERR_CLOSE_FAILED`.
    package static let closeFailed = GIFLibError(rawValue: D_GIF_ERR_CLOSE_FAILED)
    /// The input was not opened for reading. The corresponding C constant is `D_GIF_ERR_NOT_READABLE`.
    package static let notReadable = GIFLibError(rawValue: D_GIF_ERR_NOT_READABLE)
    /// The image data is defective (a bad LZW code). The corresponding C constant is `D_GIF_ERR_IMAGE_DEFECT`.
    package static let imageDefect = GIFLibError(rawValue: D_GIF_ERR_IMAGE_DEFECT)
    /// The image data ended (LZW end code) before every pixel was decoded. The corresponding C constant is `D_GIF_ERR_EOF_TOO_SOON`.
    package static let endOfDataTooSoon = GIFLibError(rawValue: D_GIF_ERR_EOF_TOO_SOON)

    /// giflib's text for the code, e.g. "Image is defective, decoding aborted".
    public var description: String {
        guard let text = GifErrorString(rawValue) else { return "giflib error \(rawValue)" }
        return String(cString: text)
    }
}
