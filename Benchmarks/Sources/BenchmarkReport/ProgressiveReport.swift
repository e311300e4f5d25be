import BenchmarkSupport
@_spi(Benchmarks) import GIF

/// The progressive decoding figures, measured in one run:
///
/// - (a) feeding a file to `ProgressiveGIF` in 4 KiB chunks, draining the
///   frames after each append, over decoding it whole
///   (`GIFImage(bytes:)` and `makeFrameIterator()`, one thread): best of
///   interleaved rounds, target ≤ 1.10.
/// - (b) the time from the append that brings frame 0's last byte (the
///   4 KiB chunk holding it) to `nextFrame()` returning frame 0, against
///   frame 0's decode time in a whole-file iterator (its first `next()`,
///   the file already scanned): best of the rounds, target ≤ that + 1 ms.
///
/// Run alone: `BenchmarkReport --progressive [--rounds N]`.
enum ProgressiveReport {
    /// The workloads the issue names.
    static let names = ["gifplayer-muybridge", "sample_big", "demo"]
    /// The chunk size fed.
    static let chunk = 4096

    static func printSection(workloads: [Workload], rounds: Int) {
        let chosen = names.compactMap { name in workloads.first { $0.name == name } }
        print()
        print("Progressive decoding (ProgressiveGIF, \(chunk / 1024) KiB chunks): best of \(rounds) interleaved rounds.")
        print()
        var rows: [[String]] = []
        for workload in chosen {
            let bytes = workload.bytes
            let (_, best) = Timing.rounds(rounds, [
                { _ = wholeDecode(bytes) },
                { _ = chunkedDecode(bytes) },
            ])
            let (latency, frame0) = firstFrameLatency(bytes, rounds: max(rounds, 15))
            rows.append([
                workload.name, "\(workload.frameCount)", "\(workload.image.info.canvasSize)",
                Timing.milliseconds(best[0]), Timing.milliseconds(best[1]), Timing.ratio(best[1] / best[0]),
                best[1] / best[0] <= 1.10 ? "met" : "NOT MET",
                Timing.format(latency * 1000, digits: 3), Timing.format(frame0 * 1000, digits: 3),
                latency <= frame0 + 0.001 ? "met" : "NOT MET",
            ])
        }
        Timing.printTable(
            header: [
                "workload", "frames", "canvas", "whole ms", "4 KiB chunks ms", "chunks ×whole", "(a)",
                "frame 0 latency ms", "frame 0 decode ms", "(b)",
            ],
            rows: rows)
        print()
        print("whole ms: GIFImage(bytes:) then makeFrameIterator() over every frame, one thread.")
        print("4 KiB chunks ms: ProgressiveGIF.append of each 4 KiB chunk, nextFrame() drained after each, finish().")
        print("(a) chunks ×whole: target ≤ 1.10.")
        print("frame 0 latency ms: from the append of the chunk holding frame 0's last byte to nextFrame()")
        print("  returning frame 0; frame 0 decode ms: the first next() of a whole-file iterator (file scanned).")
        print("(b) target: latency ≤ frame 0 decode + 1 ms.")
    }

    /// Decodes and composites every frame of the whole file; a checksum.
    static func wholeDecode(_ bytes: [UInt8]) -> Int {
        var sink = 0
        guard let image = try? GIFImage(bytes: bytes) else { return 0 }
        var frames = image.makeFrameIterator()
        while let frame = try? frames.next() { sink &+= Int(frame.pixels[0]) }
        return sink
    }

    /// Feeds the file in chunks, draining the frames as they arrive.
    static func chunkedDecode(_ bytes: [UInt8]) -> Int {
        var sink = 0
        var gif = ProgressiveGIF()
        var start = 0
        do {
            while start < bytes.count {
                try gif.append(bytes[start..<min(bytes.count, start + chunk)])
                start += chunk
                while let frame = try gif.nextFrame() { sink &+= Int(frame.pixels[0]) }
            }
            try gif.finish()
            while let frame = try gif.nextFrame() { sink &+= Int(frame.pixels[0]) }
        } catch {
            return sink
        }
        return sink
    }

    /// Best of `rounds`: (frame 0's latency after the chunk that completes
    /// it, frame 0's decode in a whole-file iterator), in seconds.
    static func firstFrameLatency(_ bytes: [UInt8], rounds: Int) -> (latency: Double, decode: Double) {
        guard let image = try? GIFImage(bytes: bytes), let first = image.info.frames.first else { return (0, 0) }
        let lastByte = first.dataEnd - 1
        let finalChunk = lastByte / chunk * chunk
        let clock = ContinuousClock()
        var latency = Double.infinity, decode = Double.infinity
        for _ in 0..<rounds {
            var gif = ProgressiveGIF()
            var start = 0
            while start < finalChunk {
                try? gif.append(bytes[start..<start + chunk])
                start += chunk
            }
            precondition((try? gif.nextFrame()) == nil, "frame 0 available before its last byte")
            let began = clock.now
            try? gif.append(bytes[finalChunk..<min(bytes.count, finalChunk + chunk)])
            let frame = try? gif.nextFrame()
            let took = clock.now - began
            precondition(frame?.index == 0, "frame 0 not available after its last byte")
            latency = min(latency, seconds(took))

            var frames = image.makeFrameIterator()
            let decodeBegan = clock.now
            let whole = try? frames.next()
            let decodeTook = clock.now - decodeBegan
            precondition(whole?.index == 0)
            decode = min(decode, seconds(decodeTook))
        }
        return (latency, decode)
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
