/// CRC-32 (IEEE 802.3, reflected, polynomial `0xEDB88320`), as zlib and the
/// published corpus checksums compute it.
public struct CRC32: Sendable, Hashable {
    /// The checksum of everything added so far.
    public private(set) var value: UInt32 = 0

    /// Starts an empty checksum.
    public init() {}

    /// The checksum of `bytes`.
    public static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var crc = CRC32()
        crc.update(bytes)
        return crc.value
    }

    /// Adds `bytes` to the checksum.
    public mutating func update(_ bytes: some Sequence<UInt8>) {
        var c = ~value
        for byte in bytes {
            c = Self.table[Int((c ^ UInt32(byte)) & 0xFF)] ^ (c >> 8)
        }
        value = ~c
    }

    private static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }
}
