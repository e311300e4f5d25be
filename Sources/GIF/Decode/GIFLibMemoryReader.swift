/// Feeds giflib from memory: the byte stream giflib reads is a synthetic
/// 13-byte GIF header once, then for each frame a synthetic 10-byte image
/// descriptor followed by the frame's LZW data from the file, with a
/// cut-short last sub-block relabelled to the length that is really there.
///
/// One reader serves every frame a ``LZWDecoder`` decodes:
/// ``load(frame:bytes:)`` points it at the next frame without allocating.
struct GIFLibMemoryReader {
    /// The synthetic bytes (header, descriptor, relabelled length); owned by
    /// the ``LZWDecoder``.
    private let scratch: UnsafeMutablePointer<UInt8>
    /// What is left to read, in order: at most four segments.
    private var segments: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>,
                           UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>)
    private var segment = 0
    private var segmentCount = 0
    private var position = 0

    /// The size of the scratch buffer an input needs.
    static let scratchSize = 32

    /// An input that yields a GIF89a header with a 65535 × 65535 screen and
    /// no colour table, and nothing after it until ``load(frame:bytes:)``.
    init(scratch: UnsafeMutablePointer<UInt8>) {
        self.scratch = scratch
        let header: [UInt8] = [0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0]
        scratch.update(from: header, count: header.count)
        let empty = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
        segments = (UnsafeBufferPointer(start: scratch, count: header.count), empty, empty, empty)
        segmentCount = 1
    }

    /// Makes the rest of the stream an image descriptor at (0, 0) of
    /// `frame`'s size (no colour table, progressive), then `frame`'s data in
    /// `bytes` (the whole file), dropping whatever was left unread.
    mutating func load(frame: FrameInfo, bytes: UnsafeBufferPointer<UInt8>) {
        let descriptor = scratch + 16
        let w = frame.rect.width, h = frame.rect.height
        descriptor[0] = 0x2C
        descriptor[1] = 0; descriptor[2] = 0; descriptor[3] = 0; descriptor[4] = 0
        descriptor[5] = UInt8(truncatingIfNeeded: w); descriptor[6] = UInt8(truncatingIfNeeded: w >> 8)
        descriptor[7] = UInt8(truncatingIfNeeded: h); descriptor[8] = UInt8(truncatingIfNeeded: h >> 8)
        descriptor[9] = 0
        let empty = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
        let head = UnsafeBufferPointer(start: UnsafePointer(descriptor), count: 10)
        let data = UnsafeBufferPointer(rebasing: bytes[frame.dataOffset..<frame.dataEnd])
        segment = 0
        position = 0
        guard frame.isTruncated else {
            segments = (head, data, empty, empty)
            segmentCount = 2
            return
        }
        // Find the sub-block the file ends in and give it its real length, so
        // giflib decodes the bytes that are there before it reports the cut.
        var offset = 1
        while offset < data.count, offset + 1 + Int(data[offset]) <= data.count {
            offset += 1 + Int(data[offset])
        }
        let whole = UnsafeBufferPointer(rebasing: data[..<min(offset, data.count)])
        guard offset < data.count else {
            segments = (head, whole, empty, empty)
            segmentCount = 2
            return
        }
        let length = scratch + 26
        length.pointee = UInt8(truncatingIfNeeded: data.count - offset - 1)
        segments = (head, whole, UnsafeBufferPointer(start: UnsafePointer(length), count: 1),
                    UnsafeBufferPointer(rebasing: data[(offset + 1)...]))
        segmentCount = 4
    }

    /// Copies up to `buffer.count` bytes; returns how many were copied.
    mutating func read(into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        guard let target = buffer.baseAddress else { return 0 }
        // giflib reads each sub-block as its length byte, then its payload:
        // almost every read lies inside the current segment.
        if segment < segmentCount {
            let source = self.source(segment)
            let count = buffer.count
            if position + count < source.count, let base = source.baseAddress {
                if count == 1 {
                    target.pointee = base[position]
                } else {
                    target.update(from: base + position, count: count)
                }
                position += count
                return count
            }
        }
        var copied = 0
        while copied < buffer.count, segment < segmentCount {
            let source = self.source(segment)
            let n = min(source.count - position, buffer.count - copied)
            if n > 0, let base = source.baseAddress {
                assert(position + n <= source.count)
                (target + copied).update(from: base + position, count: n)
            }
            copied += n
            position += n
            if position >= source.count {
                segment += 1
                position = 0
            }
        }
        return copied
    }

    private func source(_ index: Int) -> UnsafeBufferPointer<UInt8> {
        switch index {
        case 0: segments.0
        case 1: segments.1
        case 2: segments.2
        default: segments.3
        }
    }
}
