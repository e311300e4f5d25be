/// Finds, in bytes still arriving, where the last complete block ends, and
/// resumes where it stopped: each byte is looked at about once however the
/// bytes are split, so a frame's data arriving a byte at a time costs no
/// more than arriving at once.
///
/// It knows only the block framing (introducer, fixed part, sub-block
/// chain); what the blocks say is the scanner's business.
struct BlockCompletion {
    /// The start of the first block not known to be complete.
    private(set) var blockStart: Int
    /// Inside that block, once its fixed part has arrived: the offset of the
    /// next sub-block length byte (which may lie past the bytes so far).
    private(set) var chain: Int?

    init(blockStart: Int) {
        self.blockStart = blockStart
    }

    /// Where the bytes so far stand.
    enum Progress: Equatable {
        /// Every block before ``BlockCompletion/blockStart`` is complete; the
        /// next one is still arriving.
        case waiting
        /// The block at ``BlockCompletion/blockStart`` ends the stream: a
        /// trailer, or a byte that starts no block.
        case ended
    }

    /// Moves ``blockStart`` past every block complete in `bytes`.
    mutating func advance(in bytes: UnsafeBufferPointer<UInt8>) -> Progress {
        let count = bytes.count
        while true {
            if chain == nil {
                guard blockStart < count else { return .waiting }
                switch bytes[blockStart] {
                case 0x21:
                    guard blockStart + 1 < count else { return .waiting }
                    chain = blockStart + 2
                case 0x2C:
                    guard blockStart + 10 <= count else { return .waiting }
                    let flags = bytes[blockStart + 9]
                    let palette = GIFScanner.BlockWalker.paletteSize(flags)
                    let codeSize = blockStart + 10 + palette
                    guard codeSize < count else { return .waiting }
                    chain = codeSize + 1
                default:
                    return .ended  // 0x3B, or a byte that starts no block
                }
            }
            var position = chain!
            while position < count {
                let length = Int(bytes[position])
                if length == 0 { break }
                position += 1 + length
            }
            guard position < count else {
                chain = position
                return .waiting
            }
            blockStart = position + 1
            chain = nil
        }
    }
}
