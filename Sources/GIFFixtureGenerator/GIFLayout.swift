/// Where the blocks of a well-formed GIF lie, for the fixtures that edit the
/// encoder's output into shapes giflib will not write.
struct GIFLayout {
    /// One image: its descriptor and LZW data.
    struct Image {
        /// Offset of the `0x2C` introducer.
        var descriptor: Int
        /// Offset of the LZW minimum code size byte.
        var data: Int
        /// Offset just past the data's zero-length terminator.
        var dataEnd: Int
    }

    /// The global colour table's bytes (empty without one).
    var globalTable: Range<Int>
    /// Every image, in order.
    var images: [Image] = []
    /// Offset of the `0x3B` trailer.
    var trailer: Int

    /// Walks `bytes`, which must be a whole, well-formed GIF.
    init(_ bytes: [UInt8]) {
        func subBlocksEnd(_ start: Int) -> Int {
            var position = start
            while bytes[position] != 0 { position += 1 + Int(bytes[position]) }
            return position + 1
        }
        let flags = bytes[10]
        let tableSize = flags & 0x80 != 0 ? 3 << (Int(flags & 7) + 1) : 0
        globalTable = 13..<13 + tableSize
        var position = globalTable.upperBound
        while bytes[position] != 0x3B {
            switch bytes[position] {
            case 0x21:
                position = subBlocksEnd(position + 2)
            case 0x2C:
                let flags = bytes[position + 9]
                let local = flags & 0x80 != 0 ? 3 << (Int(flags & 7) + 1) : 0
                let data = position + 10 + local
                let end = subBlocksEnd(data + 1)
                images.append(Image(descriptor: position, data: data, dataEnd: end))
                position = end
            default:
                preconditionFailure("unexpected block byte \(bytes[position]) at \(position)")
            }
        }
        trailer = position
    }
}

extension [UInt8] {
    /// Stores `value` little-endian at `offset` (a descriptor's width, …).
    mutating func storeLE16(_ value: Int, at offset: Int) {
        self[offset] = UInt8(value & 0xFF)
        self[offset + 1] = UInt8(value >> 8 & 0xFF)
    }
}
