/// CRC-32 (IEEE 802.3, reflected, polynomial `0xEDB88320`), as zlib and the
/// published corpus checksums compute it.
@_spi(Benchmarks) public struct CRC32: Sendable, Hashable {
    /// The checksum of everything added so far.
    @_spi(Benchmarks) public private(set) var value: UInt32 = 0

    /// Starts an empty checksum.
    @_spi(Benchmarks) public init() {}

    /// The checksum of `bytes`.
    @_spi(Benchmarks) public static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var crc = CRC32()
        crc.update(bytes)
        return crc.value
    }

    /// Adds `bytes` to the checksum.
    @_spi(Benchmarks) public mutating func update(_ bytes: some Sequence<UInt8>) {
        let done: Void? = bytes.withContiguousStorageIfAvailable { update(UnsafeRawBufferPointer($0)) }
        guard done == nil else { return }
        var c = ~value
        for byte in bytes {
            c = Self.table[Int((c ^ UInt32(byte)) & 0xFF)] ^ (c >> 8)
        }
        value = ~c
    }

    /// Adds the bytes in memory to the checksum: the fast path, also for
    /// unoptimised builds (no generic iteration, no bounds checks). Internal,
    /// so that no unsafe pointer type is public: the public `update(_:)`
    /// over a sequence takes it for any contiguous storage.
    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress else { return }
        var c = ~value
        Self.table.withUnsafeBufferPointer { table in
            let table = table.baseAddress!
            for i in 0..<bytes.count {
                c = table[Int((c ^ UInt32(base.load(fromByteOffset: i, as: UInt8.self))) & 0xFF)] ^ (c >> 8)
            }
        }
        value = ~c
    }

    private static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }
}
