import BenchmarkSupport
import GIF

/// The host-layout figure, measured in one run: the
/// per-frame cost of `FrameSeeker.copyFrame(at:into:bytesPerRow:)` drawing
/// every frame in order into a host buffer (rows padded to a multiple of 64
/// bytes) with a seeker made for `.premultipliedBGRA8`, over the same with
/// `.rgba8`. Best of interleaved rounds; target ≤ 1.05 (the format is applied
/// through the colour table, so the two should cost the same). Also shown:
/// writing only each frame's changed rectangle, over writing the whole
/// canvas, both BGRA (information, no target).
///
/// Run alone: `BenchmarkReport --layout [--rounds N]`.
enum LayoutReport {
    /// The workloads measured: a large photo-like animation, the biggest
    /// corpus file, and the generated fixture of many small frames.
    static let names = ["gifplayer-muybridge", "sample_big", "demo"]

    static func printSection(workloads: [Workload], rounds: Int) {
        let chosen = names.compactMap { name in workloads.first { $0.name == name } }
        print()
        print("Drawing into a host buffer (FrameSeeker.copyFrame(at:into:bytesPerRow:), every frame in order):")
        print("best of \(rounds) interleaved rounds.")
        print()
        var rows: [[String]] = []
        for workload in chosen {
            let image = workload.image
            let frames = image.info.frameCount
            let stride = (image.info.canvasSize.width * 4 + 63) / 64 * 64
            let bytes = max(1, stride * image.info.canvasSize.height)
            let rgbaBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes, alignment: 64)
            let bgraBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes, alignment: 64)
            let changedBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes, alignment: 64)
            defer {
                rgbaBuffer.deallocate()
                bgraBuffer.deallocate()
                changedBuffer.deallocate()
            }
            var rgba = image.makeSeeker(pixelFormat: .rgba8)
            var bgra = image.makeSeeker(pixelFormat: .premultipliedBGRA8)
            var changed = image.makeSeeker(pixelFormat: .premultipliedBGRA8)
            let (_, best) = Timing.rounds(rounds, [
                { _ = drawAll(&rgba, into: rgbaBuffer, bytesPerRow: stride, onlyChanged: false) },
                { _ = drawAll(&bgra, into: bgraBuffer, bytesPerRow: stride, onlyChanged: false) },
                { _ = drawAll(&changed, into: changedBuffer, bytesPerRow: stride, onlyChanged: true) },
            ])
            let perFrame = best.map { $0 / Double(max(1, frames)) }
            let ratio = perFrame[1] / perFrame[0]
            rows.append([
                workload.name, "\(frames)", "\(image.info.canvasSize)", "\(stride)",
                Timing.format(perFrame[0] * 1e6, digits: 1), Timing.format(perFrame[1] * 1e6, digits: 1),
                Timing.ratio(ratio, digits: 3), ratio <= 1.05 ? "met" : "NOT MET",
                Timing.format(perFrame[2] * 1e6, digits: 1), Timing.ratio(perFrame[2] / perFrame[1], digits: 2),
            ])
        }
        Timing.printTable(
            header: [
                "workload", "frames", "canvas", "bytesPerRow", "RGBA µs/frame", "BGRA µs/frame", "BGRA ×RGBA",
                "target ≤ 1.05", "BGRA changed-only µs/frame", "changed-only ×whole",
            ],
            rows: rows)
        print()
        print("RGBA / BGRA µs/frame: decode, composite and copy of each frame into the host buffer, seekers made")
        print("  with pixelFormat .rgba8 / .premultipliedBGRA8. BGRA ×RGBA: target ≤ 1.05.")
        print("changed-only: the same BGRA run writing only each frame's changedRect (onlyChanged: true).")
    }

    /// Draws every frame in order into `buffer`; a checksum of one byte per
    /// frame, so the work is not optimized away.
    static func drawAll(
        _ seeker: inout FrameSeeker, into buffer: UnsafeMutableRawBufferPointer, bytesPerRow: Int, onlyChanged: Bool
    ) -> Int {
        var sink = 0
        for index in 0..<seeker.image.info.frameCount {
            guard let copy = try? seeker.copyFrame(
                at: index, into: buffer, bytesPerRow: bytesPerRow, onlyChanged: onlyChanged
            ) else { break }
            sink &+= copy.changedRect.width &+ Int(buffer[buffer.count / 2])
        }
        return sink
    }
}
