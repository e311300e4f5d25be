/// A width and height in pixels.
public struct PixelSize: Sendable, Hashable, CustomStringConvertible {
    /// The width in pixels.
    public var width: Int
    /// The height in pixels.
    public var height: Int

    /// Creates a size.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// The number of pixels, `width × height`.
    package var area: Int { width * height }

    /// `"WIDTHxHEIGHT"`.
    public var description: String { "\(width)x\(height)" }
}
