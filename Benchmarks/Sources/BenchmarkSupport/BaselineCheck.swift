import CBaseline
@_spi(Benchmarks) import GIF

/// Checks that the C baseline draws what GIF draws: the CRC-32 of every
/// composited canvas, concatenated, from both.
public enum BaselineCheck {
    /// The CRC-32 of every canvas the C baseline shows, and its frame count.
    public static func cChecksum(_ bytes: [UInt8]) -> (crc: UInt32, frames: Int) {
        var crc = CRC32()
        let result = withUnsafeMutablePointer(to: &crc) { crc in
            bytes.withUnsafeBufferPointer { buffer in
                cb_decode(buffer.baseAddress, buffer.count, { canvas, width, height, context in
                    guard let canvas, let context else { return }
                    let pixels = UnsafeBufferPointer(start: canvas, count: Int(width) * Int(height) * 4)
                    context.assumingMemoryBound(to: CRC32.self).pointee.update(pixels)
                }, crc)
            }
        }
        return (crc.value, Int(result.frames))
    }

    /// The CRC-32 of every canvas GIF shows, and its frame count.
    public static func swiftChecksum(_ image: GIFImage) -> (crc: UInt32, frames: Int) {
        var crc = CRC32()
        var frames = image.makeFrameIterator()
        var count = 0
        while let frame = try? frames.next() {
            crc.update(frame.pixels)
            count += 1
        }
        return (crc.value, count)
    }

    /// One line per workload whose checksums differ; empty when all agree.
    public static func mismatches(in workloads: [Workload]) -> [String] {
        workloads.compactMap { workload in
            let c = cChecksum(workload.bytes), ours = swiftChecksum(workload.image)
            guard c != ours else { return nil }
            return "\(workload.name): C \(c.frames) frames CRC \(String(c.crc, radix: 16)), "
                + "GIF \(ours.frames) frames CRC \(String(ours.crc, radix: 16))"
        }
    }
}
