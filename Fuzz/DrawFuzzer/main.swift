// libFuzzer entry point: the drawing contract (Tests/DrawingContract) over
// a case read from the input. A header picks the pixel layout, the row
// stride's slack, the buffer's start offset, the write branches a drawer is
// forced to, the display size (one of the contract's, or one made from the
// header's bytes), decode-ahead or calling-thread decoding and a play
// script; the rest is the GIF, or a seed for a generated one. Built by
// scripts/build-fuzzer.sh, run by scripts/fuzz.sh (target `draw`).
//
// The input, byte by byte (missing bytes read as zero):
//
//   0      bit 0: premultipliedBGRA8 (else rgba8); bit 1: the GIF is
//          generated from a seed; bits 2–3: the start offset (0–3);
//          bits 4–7: the DrawBranches raw value
//   1      stride slack, bytes past width × 4
//   2      size: bit 7 clear, index into DrawingContract.sizes (modulo
//          their count; 0 is full size); set, the size of bytes 3–6
//   3      content mode (low 3 bits, modulo 5), alignment (high 5, modulo 9)
//   4, 5   the cell's width and height in points, 1–256 (fewer at a scale
//          above 1, so that a frame's side stays within 256 pixels)
//   6      scale (low 3 bits, from `scales`), bit 7: nearest upscaling
//   7      low 4 bits all set: decode-ahead (else the calling thread);
//          high 4: the named script when the step list is empty
//   8      step count L (modulo 65), then L step bytes: 0xFF invalidates,
//          anything else draws that frame (modulo the frame count)
//   then   with bit 1 of byte 0, 8 bytes of seed for GeneratedGIF.make
//          (little-endian); else the GIF's bytes, to the end
//
// A contract break is a crash on purpose (fatalError with the reason and
// the case), so libFuzzer reports it with the input that caused it.
import DrawingContract
import GIF
import GIFPlayback
import Playback

/// The most canvas pixels a loop may hold (area × frames): the checker
/// keeps every reference frame and compares the whole buffer each step.
let maximumLoopPixels = 2_000_000

/// The widest or tallest canvas drawn.
let maximumSide = 1024

/// The longest step list.
let maximumSteps = 64

/// Pixels per point a made-up size is drawn at: the usual HiDPI ones and
/// fractional ones that round sides unevenly.
let scales: [Double] = [1, 2, 3, 0.5, 1.5, 0.75, 1.0 / 3, 2.5]

/// One decoder thread, shared by every input: the drawers that decode
/// ahead start their work on it.
let executor = FrameDecodeExecutor(threadCount: 1)

/// Bytes of the input, read in order, then zeros.
struct Reader {
    let bytes: [UInt8]
    var position = 0

    mutating func next() -> UInt8 {
        defer { position += 1 }
        return position < bytes.count ? bytes[position] : 0
    }

    var rest: [UInt8] { position < bytes.count ? Array(bytes[position...]) : [] }
}

/// The display size of header bytes 2–6 for a `width` × `height` canvas.
func size(_ header: [UInt8], width: Int, height: Int) -> DisplaySize? {
    guard header[2] & 0x80 != 0 else {
        let sizes = DrawingContract.sizes(width: width, height: height)
        return sizes[Int(header[2]) % sizes.count]
    }
    let modes = DisplaySize.ContentMode.allCases, alignments = DisplaySize.Alignment.allCases
    let scale = scales[Int(header[6] & 7)]
    let side = max(1, Int(256 / max(1, scale)))
    return DisplaySize(
        width: min(side, 1 + Int(header[4])), height: min(side, 1 + Int(header[5])),
        contentMode: modes[Int(header[3] & 7) % modes.count], alignment: alignments[Int(header[3] >> 3) % alignments.count],
        scale: scale, upscaling: header[6] & 0x80 != 0 ? .nearest : .smooth)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    var input = Reader(bytes: data.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? [])
    let header = (0..<8).map { _ in input.next() }
    let stepCount = Int(input.next()) % (maximumSteps + 1)
    let steps: [DrawingContract.Step] = (0..<stepCount).map { _ in
        let b = input.next()
        return b == 0xFF ? .invalidate : .draw(Int(b))
    }
    let generated = header[0] & 2 != 0
    let seed = generated ? (0..<8).reduce(UInt64(0)) { $0 | UInt64(input.next()) << (8 * $1) } : 0
    let bytes = generated ? GeneratedGIF.make(seed: seed) : input.rest
    guard let image = try? GIFImage(bytes: bytes, limits: .fuzzing) else { return 0 }
    let canvas = image.info.canvasSize, frames = image.info.frameCount
    guard frames > 0, canvas.width <= maximumSide, canvas.height <= maximumSide,
          canvas.area * frames <= maximumLoopPixels else { return 0 }
    let scripts = DrawingContract.Script.allCases
    let run = DrawingContract.Case(
        format: header[0] & 1 != 0 ? .premultipliedBGRA8 : .rgba8, size: size(header, width: canvas.width, height: canvas.height),
        strideSlack: Int(header[1]), offset: Int(header[0] >> 2 & 3), branches: DrawBranches(rawValue: Int(header[0] >> 4)),
        script: scripts[Int(header[7] >> 4) % scripts.count], decodeAhead: header[7] & 0x0F == 0x0F)
    let outcome = DrawingContract.check(
        image, references: DrawingContract.References(image), run: run, executor: executor, seed: UInt64(header[7]),
        steps: steps.isEmpty ? nil : steps)
    if case .failed(let reason) = outcome {
        let script = steps.isEmpty
            ? "the \(run.script) script"
            : "steps " + steps.map { if case .draw(let frame) = $0 { "\(frame)" } else { "invalidate" } }.joined(separator: " ")
        fatalError("drawing contract broken: \(reason); \(run); \(script)\(generated ? "; generated GIF, seed \(seed)" : "")")
    }
    return 0
}
