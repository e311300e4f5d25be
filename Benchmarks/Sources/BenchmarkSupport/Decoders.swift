import CBaseline
@_spi(Benchmarks) import GIF

/// The things each benchmark times, so that `GIFDecoding` and
/// `BenchmarkReport` time exactly the same code.
public enum Decoders {
    /// The C baseline: giflib and a plain C compositor over the whole file.
    /// Returns the frame count.
    @inline(never)
    public static func cBaseline(_ bytes: [UInt8]) -> Int {
        bytes.withUnsafeBufferPointer { buffer in
            Int(cb_decode(buffer.baseAddress, buffer.count, nil, nil).frames)
        }
    }

    /// Scan only: the block structure, no LZW. Returns the frame count.
    @inline(never)
    public static func scan(_ bytes: [UInt8]) -> Int {
        (try? GIFImage(bytes: bytes))?.info.frameCount ?? 0
    }

    /// Ours, one thread: every frame decoded and composited, in order.
    /// Returns a byte of the last canvas so that nothing is optimised away.
    @inline(never)
    public static func sequential(_ image: GIFImage) -> Int {
        var frames = image.makeFrameIterator()
        var last = 0
        while let frame = try? frames.next() { last &+= Int(frame.pixels[frame.pixels.count / 2]) }
        return last
    }

    /// Ours, with frames decoded ahead on other threads while compositing.
    @inline(never)
    public static func parallel(_ image: GIFImage) -> Int {
        var frames = image.makeFrameIterator(parallel: true)
        var last = 0
        while let frame = try? frames.next() { last &+= Int(frame.pixels[frame.pixels.count / 2]) }
        return last
    }

    /// A seeker with its checkpoints saved (the default budget), ready for
    /// random access.
    public static func preparedSeeker(_ image: GIFImage) -> FrameSeeker {
        var seeker = image.makeSeeker()
        try? seeker.prepare()
        return seeker
    }

    /// Ours, random access: `FrameSeeker.frame(at:)` for each index in turn.
    @inline(never)
    public static func seek(_ seeker: inout FrameSeeker, to indices: [Int]) -> Int {
        var last = 0
        for index in indices {
            if let frame = try? seeker.frame(at: index) { last &+= Int(frame.pixels[frame.pixels.count / 2]) }
        }
        return last
    }

    /// Random access without checkpoints: `GIFImage.frame(at:)` replays
    /// every frame before the one asked for.
    @inline(never)
    public static func seekFromStart(_ image: GIFImage, to indices: [Int]) -> Int {
        var last = 0
        for index in indices {
            if let frame = try? image.frame(at: index) { last &+= Int(frame.pixels[frame.pixels.count / 2]) }
        }
        return last
    }

    /// Every index in `0..<frameCount` once, shuffled the same way in every
    /// run: the mean seek over these weighs every frame alike.
    public static func shuffledIndices(frameCount: Int) -> [Int] {
        var indices = Array(0..<frameCount)
        let random = randomIndices(count: frameCount, frameCount: Int(Int32.max))
        for i in stride(from: frameCount - 1, to: 0, by: -1) {
            indices.swapAt(i, random[i] % (i + 1))
        }
        return indices
    }

    /// `count` frame indices in `0..<frameCount`, the same in every run.
    public static func randomIndices(count: Int, frameCount: Int) -> [Int] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        return (0..<count).map { _ in
            // SplitMix64.
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(max(frameCount, 1)))
        }
    }
}
