// The pixel types shared with the other library modules (`PixelFormat`,
// `PixelRect`, `PixelBufferError`) are part of this module's API: a host's
// own import of this module sees them.
@_exported import Pixels
