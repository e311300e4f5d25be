/// The byte stream giflib reads for one frame: a synthetic 23-byte header,
/// then the frame's LZW data from the file, with a cut-short last sub-block
/// relabelled to the length that is really there.
struct MemoryInput {
    private var segments: [Segment]
    private var segment = 0
    private var position = 0

    private enum Segment {
        case owned([UInt8])
        case borrowed(UnsafeBufferPointer<UInt8>)
    }

    init(frame: FrameInfo, bytes: UnsafeBufferPointer<UInt8>) {
        let w = UInt8(truncatingIfNeeded: frame.rect.width), w1 = UInt8(truncatingIfNeeded: frame.rect.width >> 8)
        let h = UInt8(truncatingIfNeeded: frame.rect.height), h1 = UInt8(truncatingIfNeeded: frame.rect.height >> 8)
        let header: [UInt8] = [
            0x47, 0x49, 0x46, 0x38, 0x39, 0x61, w, w1, h, h1, 0, 0, 0,  // GIF89a, screen, no table
            0x2C, 0, 0, 0, 0, w, w1, h, h1, 0,  // image descriptor at 0,0, no table, progressive
        ]
        segments = [.owned(header)]
        let data = UnsafeBufferPointer(rebasing: bytes[frame.dataOffset..<frame.dataEnd])
        guard frame.isTruncated else {
            segments.append(.borrowed(data))
            return
        }
        // Find the sub-block the file ends in and give it its real length, so
        // giflib decodes the bytes that are there before it reports the cut.
        var position = 1
        while position < data.count, position + 1 + Int(data[position]) <= data.count {
            position += 1 + Int(data[position])
        }
        segments.append(.borrowed(UnsafeBufferPointer(rebasing: data[..<min(position, data.count)])))
        if position < data.count {
            let remaining = data.count - position - 1
            segments.append(.owned([UInt8(remaining)]))
            segments.append(.borrowed(UnsafeBufferPointer(rebasing: data[(position + 1)...])))
        }
    }

    /// Copies up to `buffer.count` bytes; returns how many were copied.
    mutating func read(into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        var copied = 0
        while copied < buffer.count, segment < segments.count {
            let n = withSegment(segment) { source in
                let n = min(source.count - position, buffer.count - copied)
                if n > 0 {
                    _ = UnsafeMutableBufferPointer(rebasing: buffer[copied..<copied + n])
                        .update(fromContentsOf: source[position..<position + n])
                }
                return n
            }
            copied += n
            position += n
            if n == 0 || withSegment(segment, { $0.count }) == position {
                segment += 1
                position = 0
            }
        }
        return copied
    }

    private func withSegment<R>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        switch segments[index] {
        case .owned(let bytes): bytes.withUnsafeBufferPointer(body)
        case .borrowed(let pointer): body(pointer)
        }
    }
}
