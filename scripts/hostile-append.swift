// A progressive source given a 30 MB first frame (a 100 x 100 frame whose
// LZW data is followed by 30 MB of sub-blocks after its end code, which a
// decoder skips),
// then 2,000 one-pixel frames one append each, with the newest frame asked
// for after each append: what scripts/hostile-streams.sh times. Appends must
// cost the bytes appended, not the bytes received.
import GIF
import GIFPlayback
import Playback

/// `pixels` zero pixels as LZW with 8-bit code size: 9-bit codes, a clear
/// code every 250 literals so that the width stays 9, then the end code and
/// `padding` zero bytes; in sub-blocks of 255 bytes, terminated.
func lzwData(pixels: Int, padding: Int = 0) -> [UInt8] {
    var packed: [UInt8] = []
    packed.reserveCapacity(pixels * 9 / 8 + pixels / 200 + 16)
    var accumulator = 0, bits = 0
    func emit(_ code: Int) {
        accumulator |= code << bits
        bits += 9
        while bits >= 8 {
            packed.append(UInt8(accumulator & 0xFF))
            accumulator >>= 8
            bits -= 8
        }
    }
    var left = pixels
    while left > 0 {
        emit(256)
        for _ in 0..<min(250, left) { emit(0) }
        left -= min(250, left)
    }
    emit(257)
    if bits > 0 { packed.append(UInt8(accumulator & 0xFF)) }
    packed += [UInt8](repeating: 0, count: padding)
    var data: [UInt8] = [8]
    var start = 0
    while start < packed.count {
        let end = min(start + 255, packed.count)
        data.append(UInt8(end - start))
        data += packed[start..<end]
        start = end
    }
    return data + [0]
}

func descriptor(width: Int, height: Int) -> [UInt8] {
    [0x2C, 0, 0, 0, 0, UInt8(width & 0xFF), UInt8(width >> 8), UInt8(height & 0xFF), UInt8(height >> 8), 0]
}

@main
struct HostileAppend {
    static func main() async throws {
        let side = 100
        // GIF89a, the canvas, a two-colour global palette.
        let header: [UInt8] = Array("GIF89a".utf8) + [UInt8(side & 0xFF), UInt8(side >> 8), UInt8(side & 0xFF), UInt8(side >> 8), 0x80, 0, 0]
            + [0, 0, 0, 255, 255, 255]
        let first = header + descriptor(width: side, height: side) + lzwData(pixels: side * side, padding: 30_000_000)
        let small = descriptor(width: 1, height: 1) + lzwData(pixels: 1)
        let source = ProgressiveGIFFrameSource()
        try source.append(first)
        _ = try await source.frame(at: 0)
        for _ in 0..<2000 {
            try source.append(small)
            if CommandLine.arguments.count < 2 { _ = try await source.frame(at: source.frameCount - 1) }
        }
        try source.finish()
        print("first frame \(first.count) bytes, \(source.frameCount) frames, \(source.receivedByteCount) bytes")
    }
}
