import GIF
import GIFPlayback
@_spi(Benchmarks) import Playback
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The drawing contract as a property: for a GIF, a pixel layout, a display
/// size, a row stride, a start address, the write branches a drawer may
/// take and a play script, every draw leaves in the host's buffer exactly
/// the reference frame (the whole-file iterator's, resampled by
/// ``ReferenceScaler``), reports a changed rectangle that covers every
/// pixel that changed, and touches no byte outside the rows' `width × 4`.
package struct DrawingContract {
    /// One step of a play script: what a player's transport has its drawer
    /// do (a rate change or a slow host steps over frames, a seek or
    /// playing backwards jumps, `invalidate()` forgets the buffer).
    package enum Step: Hashable {
        case draw(Int)
        case invalidate
    }

    /// The scripts, by name, for a GIF of `count` frames.
    package enum Script: String, CaseIterable {
        case threeLoops, reverse, bounce, seeks, rates, invalidating

        package func steps(frames count: Int, seed: UInt64) -> [Step] {
            var random = GeneratedGIF.Random(state: seed)
            let loop = Array(0..<count)
            switch self {
            case .threeLoops: return (loop + loop + loop).map(Step.draw)
            case .reverse: return (loop.reversed() + loop.reversed() + [0, 1, 0]).map { Step.draw($0 % count) }
            case .bounce:
                let back = Array(loop.dropFirst().dropLast().reversed())
                return (loop + back + loop + back + loop).map(Step.draw)
            case .seeks:
                return (0..<max(12, 2 * count)).map { _ in Step.draw(random.below(count)) }
            case .rates:
                // Steps of 1, 2, 3, 1, 5, 9 frames, around the loop three
                // times: rates 1×, 2×, 3× and a host that fell behind.
                var steps: [Step] = [.draw(0)], frame = 0, k = 0
                let strides = [1, 2, 3, 1, 5, 9, 1, 1]
                while steps.count < 3 * count + 1 {
                    frame = (frame + strides[k % strides.count]) % count
                    k += 1
                    steps.append(.draw(frame))
                }
                return steps
            case .invalidating:
                var steps: [Step] = []
                for i in 0..<(2 * count + 3) {
                    if i % 7 == 5 { steps.append(.invalidate) }
                    steps.append(.draw(i % count))
                }
                return steps
            }
        }
    }

    /// The sizes a drawer is asked for, for a canvas of `width` × `height`
    /// (`nil`: full size): shrunk, fitted, filled with each alignment,
    /// enlarged smoothly and to the nearest pixel, at a HiDPI scale.
    package static func sizes(width: Int, height: Int) -> [DisplaySize?] {
        let half = (max(1, width / 2), max(1, height / 2))
        var sizes: [DisplaySize?] = [
            nil,
            DisplaySize(maxWidth: half.0, maxHeight: half.1),
            DisplaySize(width: max(1, width * 2 / 3), height: max(1, height / 3), contentMode: .aspectFit),
            DisplaySize(width: max(1, width / 3), height: max(1, height * 2 / 5), contentMode: .stretch),
        ]
        for alignment in DisplaySize.Alignment.allCases {
            sizes.append(DisplaySize(
                width: max(1, width / 2), height: max(1, width / 2), contentMode: .aspectFill, alignment: alignment))
        }
        // Enlarged: only small canvases, so that the reference stays quick.
        if width * height <= 4_096 {
            sizes.append(DisplaySize(width: width * 3 / 2 + 1, height: height * 2 + 1, contentMode: .stretch))
            sizes.append(DisplaySize(
                width: width + 3, height: height + 3, contentMode: .aspectFit, upscaling: .nearest))
            sizes.append(DisplaySize(width: max(1, width / 3), height: max(1, height / 3), contentMode: .aspectFit,
                                     scale: 2))
        }
        return sizes
    }

    /// The row strides for frames `width` pixels wide.
    package static func strides(width: Int) -> [Int] { [0, 1, 3, 37, 64].map { width * 4 + $0 } }

    /// The branch sets to force at full size and at a display size: each
    /// branch alone (with writing only the changes, which every other
    /// branch works within), the plain branch, and all of them.
    package static func branchSets(scaled: Bool) -> [DrawBranches] {
        let own: DrawBranches = scaled ? .rowByRow : .mirror
        return [.all, [.changedOnly, own], [.changedOnly, .recordedChanges], [.changedOnly], []]
    }

    /// A configuration of one run.
    package struct Case: CustomStringConvertible {
        package var format: PixelFormat
        package var size: DisplaySize?
        package var strideSlack: Int
        package var offset: Int
        package var branches: DrawBranches
        package var script: Script
        package var decodeAhead: Bool

        package init(
            format: PixelFormat, size: DisplaySize?, strideSlack: Int, offset: Int, branches: DrawBranches,
            script: Script, decodeAhead: Bool
        ) {
            (self.format, self.size, self.strideSlack, self.offset) = (format, size, strideSlack, offset)
            (self.branches, self.script, self.decodeAhead) = (branches, script, decodeAhead)
        }

        package var description: String {
            "\(format) at \(size.map { "\($0)" } ?? "full size"), stride +\(strideSlack), offset \(offset), "
                + "\(branches), \(script)\(decodeAhead ? ", decode-ahead" : "")"
        }
    }

    /// The reference frames of `image` in `format`, full size or at `size`.
    package final class References {
        package let image: GIFImage
        private var full: [PixelFormat: [[UInt8]]] = [:]
        private var scaled: [String: [[UInt8]]] = [:]
        package init(_ image: GIFImage) { self.image = image }

        /// The whole-file iterator's frames, or `nil` when one fails.
        package func frames(_ format: PixelFormat) -> [[UInt8]]? {
            if let frames = full[format] { return frames }
            var iterator = image.makeFrameIterator(pixelFormat: format)
            var frames: [[UInt8]] = []
            while let frame = try? iterator.next() {
                guard frame.isComplete else { return nil }
                frames.append(frame.pixels)
            }
            guard frames.count == image.info.frameCount else { return nil }
            full[format] = frames
            return frames
        }

        package func frames(_ format: PixelFormat, at size: DisplaySize?) -> [[UInt8]]? {
            guard let size else { return frames(format) }
            let key = "\(format) \(size)"
            if let frames = scaled[key] { return frames }
            guard let frames = frames(format) else { return nil }
            let canvas = image.info.canvasSize
            let geometry = size.geometry(width: canvas.width, height: canvas.height)
            let result = frames.map {
                ReferenceScaler.scale($0, width: canvas.width, height: canvas.height, to: geometry,
                                      upscaling: size.upscaling, premultiplied: format == .premultipliedBGRA8)
            }
            scaled[key] = result
            return result
        }
    }

    /// What one run found wrong, or `nil`.
    package enum Outcome {
        case passed
        /// The source keeps no indices at that size: the player draws
        /// from its frame cache instead, which the contract's other tests
        /// cover.
        case noDrawer
        case failed(String)
    }

    /// The source a run draws: `image` in the run's layout, at its size,
    /// with checkpoint bytes for a whole canvas a frame and one more, so
    /// that the recorded changes are kept and drawn from.
    static func source(_ image: GIFImage, run: Case, executor: FrameDecodeExecutor) -> GIFFrameSource? {
        var budget = DecodingBudget.default
        budget.checkpointBytes = max(budget.checkpointBytes, image.info.canvasSize.area * 4 * (image.info.frameCount + 1))
        let full = GIFFrameSource(image: image, budget: budget, executor: executor, pixelFormat: run.format)
        return run.size.map { full.displaying(at: $0) as? GIFFrameSource } ?? full
    }

    /// One run's host buffer and what it held after the draw before, and
    /// the checks each draw must pass.
    struct Run {
        let expected: [[UInt8]]
        let host: GuardedBuffer
        var previous: [UInt8]

        init?(expected: [[UInt8]], drawer: any FrameDrawer, run: Case) {
            guard expected.allSatisfy({ $0.count == drawer.width * drawer.height * 4 }) else { return nil }
            self.expected = expected
            host = GuardedBuffer(
                width: drawer.width, height: drawer.height, bytesPerRow: drawer.width * 4 + run.strideSlack,
                offset: run.offset)
            previous = host.pixels
        }

        func draw(_ drawer: any FrameDrawer, _ index: Int) throws(PixelBufferError) -> FrameDraw {
            try drawer.draw(frame: index, into: host.buffer, bytesPerRow: host.bytesPerRow)
        }

        /// What is wrong after draw `result` of frame `index`, or `nil`.
        mutating func verify(_ result: FrameDraw, of index: Int) -> String? {
            if let touched = host.firstTouchedOutside {
                return "wrote outside the rows, at byte \(touched) from the first row's start"
            }
            let pixels = host.pixels, width = host.width
            switch result {
            case .drawn(let frame, let changed, _) where frame == index:
                if let miss = firstChange(from: previous, to: pixels, width: width, outside: changed) {
                    return "pixel \(miss) changed outside the changed rectangle \(changed)"
                }
            case .unchanged(let frame) where frame == index:
                let none = PixelRect(x: 0, y: 0, width: 0, height: 0)
                if let miss = firstChange(from: previous, to: pixels, width: width, outside: none) {
                    return "unchanged, but pixel \(miss) changed"
                }
            default:
                return "\(result)"
            }
            if pixels != expected[index] {
                let i = zip(pixels, expected[index]).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? 0
                return "pixel (\(i / 4 % width), \(i / 4 / width)) is not the reference's"
            }
            previous = pixels
            return nil
        }
    }

    /// Runs `run` on `image` and checks every draw: the steps of its script,
    /// or `steps` (frames past the last read modulo the frame count). A
    /// late draw is drawn again until it is not, for at most a minute.
    package static func check(
        _ image: GIFImage, references: References, run: Case, executor: FrameDecodeExecutor, seed: UInt64,
        steps: [Step]? = nil
    ) -> Outcome {
        guard let expected = references.frames(run.format, at: run.size) else { return .passed }
        guard let source = source(image, run: run, executor: executor) else { return .failed("no GIF source") }
        guard let drawer = source.makeDrawer(branches: run.branches, decodesOnCallingThread: !run.decodeAhead) else {
            return .noDrawer
        }
        return play(steps ?? run.script.steps(frames: expected.count, seed: seed), on: drawer, run: run, expected: expected)
    }

    /// Runs `run` as ``check(_:references:run:executor:seed:steps:)`` does,
    /// drawn from a frame cache's whole frames (the drawer of a source that
    /// cannot draw on its own: a progressive GIF, or a display size that
    /// keeps no indices). The cache, large enough for every frame, is
    /// filled first, each frame drawn until it is not late, the waits on
    /// its tasks; the script then starts from a buffer the drawer forgot.
    package static func checkCached(
        _ image: GIFImage, references: References, run: Case, executor: FrameDecodeExecutor, seed: UInt64
    ) async -> Outcome {
        guard let expected = references.frames(run.format, at: run.size) else { return .passed }
        guard let source = source(image, run: run, executor: executor) else { return .failed("no GIF source") }
        let bytes = expected.reduce(0) { $0 + $1.count }
        let drawer = FrameCache(source: source, byteBudget: 2 * bytes + (1 << 20)).makeCachedDrawer()
        var scratch = [UInt8](repeating: 0, count: max(1, drawer.width * drawer.height * 4))
        for index in expected.indices {
            let deadline = ContinuousClock.now + .seconds(60)
            while ContinuousClock.now < deadline {
                let stride = drawer.width * 4
                let result = try? scratch.withUnsafeMutableBytes { try drawer.draw(frame: index, into: $0, bytesPerRow: stride) }
                guard case .late = result else { break }
                try? await Task.sleep(for: .milliseconds(1))
            }
        }
        drawer.invalidate()
        return play(run.script.steps(frames: expected.count, seed: seed), on: drawer, run: run, expected: expected)
    }

    /// Plays `steps` on `drawer` into a guarded buffer as `run` sets it up,
    /// checking each draw against `expected`.
    private static func play(_ steps: [Step], on drawer: any FrameDrawer, run: Case, expected: [[UInt8]]) -> Outcome {
        guard var state = Run(expected: expected, drawer: drawer, run: run) else {
            return .failed("the drawer's size is not the reference's")
        }
        for (n, step) in steps.enumerated() {
            guard case .draw(let asked) = step else {
                drawer.invalidate()
                continue
            }
            let index = asked % expected.count
            do {
                var result = try state.draw(drawer, index)
                let deadline = ContinuousClock.now + .seconds(60)
                while case .late = result, ContinuousClock.now < deadline {
                    usleep(500)
                    result = try state.draw(drawer, index)
                }
                if let wrong = state.verify(result, of: index) { return .failed("step \(n) (frame \(index)): \(wrong)") }
            } catch {
                return .failed("step \(n) (frame \(index)): threw \(error)")
            }
        }
        return .passed
    }

    /// The first pixel, as (x, y), that differs between `a` and `b` and
    /// lies outside `rect`: each row's stretches outside it compared whole
    /// first.
    package static func firstChange(from a: [UInt8], to b: [UInt8], width: Int, outside rect: PixelRect) -> (Int, Int)? {
        let height = width > 0 ? a.count / (width * 4) : 0
        let ys = rect.y..<rect.y + rect.height
        return a.withUnsafeBytes { a in
            b.withUnsafeBytes { b in
                func differs(_ y: Int, _ x0: Int, _ x1: Int) -> Int? {
                    guard x0 < x1 else { return nil }
                    let offset = (y * width + x0) * 4
                    guard memcmp(a.baseAddress! + offset, b.baseAddress! + offset, (x1 - x0) * 4) != 0 else { return nil }
                    return (x0..<x1).first { x in
                        memcmp(a.baseAddress! + (y * width + x) * 4, b.baseAddress! + (y * width + x) * 4, 4) != 0
                    }
                }
                for y in 0..<height {
                    if !ys.contains(y) || rect.width <= 0 {
                        if let x = differs(y, 0, width) { return (x, y) }
                    } else {
                        if let x = differs(y, 0, min(width, max(0, rect.x))) { return (x, y) }
                        if let x = differs(y, max(0, rect.x + rect.width), width) { return (x, y) }
                    }
                }
                return nil
            }
        }
    }

    /// `count` cases that between them give every branch set with every
    /// row stride (then every start offset, size, layout and script in
    /// turn), starting at `seed`'s place in that rotation.
    package static func cases(width: Int, height: Int, count: Int, seed: Int) -> [Case] {
        let sizes = Self.sizes(width: width, height: height)
        let slacks = [0, 1, 3, 37, 64]
        let scripts = Script.allCases
        return (0..<count).map { k in
            let j = seed &+ k
            // Every other case at full size, the rest through the sizes.
            let size = k % 2 == 0 || sizes.count == 1 ? sizes[0] : sizes[1 + (j / 2) % (sizes.count - 1)]
            let branchSets = Self.branchSets(scaled: size != nil)
            return Case(
                format: j % 2 == 0 ? .rgba8 : .premultipliedBGRA8, size: size,
                strideSlack: slacks[k % slacks.count], offset: (k / slacks.count + j) % 4,
                branches: branchSets[(k / slacks.count) % branchSets.count],
                script: scripts[(j / 2) % scripts.count], decodeAhead: j % 7 == 3)
        }
    }
}
