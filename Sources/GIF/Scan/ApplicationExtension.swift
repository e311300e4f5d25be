/// An application extension (`0x21 0xFF`) found by the scanner.
package struct ApplicationExtension: Sendable, Hashable {
    /// The identifier and authentication code from the first sub-block,
    /// usually 11 bytes such as `NETSCAPE2.0`, decoded as Latin-1.
    package var identifier: String
    /// The remaining sub-blocks' bytes, concatenated.
    package var data: [UInt8]
    /// Byte offset of the extension's `0x21` introducer.
    package var offset: Int
}
